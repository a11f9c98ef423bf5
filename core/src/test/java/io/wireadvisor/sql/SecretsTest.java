package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretsTest {
  @Test
  void aUserVariableAssignedFromAParameterMayHoldAKey() {
    // Found by the attacker's rerun of issue 28: PREPARE 'SET @pk = ?' executed with the key as a
    // bound string kept the key among the capture's values, where SET @pk = 'key' kept nothing.
    assertThat(Secrets.mayHold("SET @pk = ?")).isTrue();
    assertThat(Secrets.mayHold("SET @a = 1, @pk := ?")).isTrue();
    assertThat(Secrets.mayHold("SELECT @pk := ?")).isTrue();
    assertThat(Secrets.mayHold("SELECT ? INTO @pk")).isTrue();
    assertThat(Secrets.mayHold("SET @pk = 'key'")).isTrue();
    // Parameters that assign nothing to a variable are ordinary values.
    assertThat(Secrets.mayHold("SELECT v FROM t WHERE id = ?")).isFalse();
    assertThat(Secrets.mayHold("UPDATE t SET v = ? WHERE id = ?")).isFalse();
    assertThat(Secrets.mayHold("SET @tenant = 42")).isFalse();
  }
}
