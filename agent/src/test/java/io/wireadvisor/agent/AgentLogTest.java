package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class AgentLogTest {

  private static String stderrOf(Consumer<Void> body) {
    PrintStream saved = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
      body.accept(null);
    } finally {
      System.setErr(saved);
      AgentLog.quiet(false);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void quietSilencesNotesButNeverWarnings() {
    String quiet = stderrOf(v -> {
      AgentLog.quiet(true);
      AgentLog.info("metrics at :9464");
      AgentLog.warn("could not write the profile");
    });
    assertThat(quiet).isEqualTo("wire-advisor: could not write the profile" + System.lineSeparator());
    String loud = stderrOf(v -> {
      AgentLog.quiet(false);
      AgentLog.info("metrics at :9464");
    });
    assertThat(loud).isEqualTo("wire-advisor: metrics at :9464" + System.lineSeparator());
  }

  @Test
  void theInstanceIsHostColonPid() {
    assertThat(AgentIdentity.instance("4242@app-1")).isEqualTo("app-1:4242");
    assertThat(AgentIdentity.instance("no-at-sign")).isEqualTo("no-at-sign");
    String self = AgentIdentity.instance();
    assertThat(self).endsWith(":" + ProcessHandle.current().pid());
    assertThat(AgentIdentity.instance()).isSameAs(self);
  }
}
