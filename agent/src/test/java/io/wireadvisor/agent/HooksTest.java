package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HooksTest {
  @Test
  void urlsLoseCredentialsAndQueryString() {
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://h:4000/db?user=u&password=secret"))
        .isEqualTo("jdbc:mysql://h:4000/db");
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://u:pw@h:4000/db")).isEqualTo("jdbc:mysql://h:4000/db");
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://h/db")).isEqualTo("jdbc:mysql://h/db");
    assertThat(Hooks.sanitizeUrl(null)).isNull();
  }

  @Test
  void commandsAreIgnoredUntilTheDriverHooksMatched() {
    // Not activated in a unit test: nothing may be recorded, nothing may throw.
    Hooks.command(new Object(), new byte[] {3, 'S'}, 2, System.nanoTime(), null, false, false);
    Hooks.command(new Object(), null, 0, 0, null, true, false);
    assertThat(Hooks.window().recorder.snapshot().totalCommands()).isZero();
  }
}
