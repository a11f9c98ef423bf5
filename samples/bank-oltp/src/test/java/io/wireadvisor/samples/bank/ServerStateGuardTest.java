package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerStateGuardTest {
  @Test
  void numbersAndSwitchesGoUnquotedAndEverythingElseIsEscaped() {
    assertThat(ServerStateGuard.literal("ON")).isEqualTo("ON");
    assertThat(ServerStateGuard.literal("off")).isEqualTo("off");
    assertThat(ServerStateGuard.literal("100")).isEqualTo("100");
    assertThat(ServerStateGuard.literal("-1.5")).isEqualTo("-1.5");
    assertThat(ServerStateGuard.literal("a'b\\c")).isEqualTo("'a''b\\\\c'");
    assertThat(ServerStateGuard.literal("ON; DROP TABLE x")).isEqualTo("'ON; DROP TABLE x'");
    assertThat(ServerStateGuard.literal(null)).isEqualTo("DEFAULT");
  }
}
