package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @AfterEach
  void forgetTheServer() {
    // --jdbc-url is handed to ServerLocator as system properties.
    System.clearProperty("wireadvisor.jdbc.url");
    System.clearProperty("wireadvisor.jdbc.user");
    System.clearProperty("wireadvisor.jdbc.password");
    System.clearProperty("wireadvisor.tidb.status.url");
  }

  private int run(String... args) {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void helpListsTheSubcommands() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("scenarios", "load", "prove");
  }

  @Test
  void everyHelpTextFormatsCleanly() {
    // picocli reports a bad format string (e.g. a lone '%') on System.err, not on our stream.
    PrintStream systemErr = System.err;
    ByteArrayOutputStream picocliErr = new ByteArrayOutputStream();
    System.setErr(new PrintStream(picocliErr, true, StandardCharsets.UTF_8));
    try {
      for (String[] help : new String[][] {
          {"--help"}, {"scenarios", "--help"}, {"load", "--help"}, {"prove", "--help"}}) {
        assertThat(run(help)).as(String.join(" ", help)).isZero();
      }
    } finally {
      System.setErr(systemErr);
    }
    assertThat(picocliErr.toString(StandardCharsets.UTF_8)).doesNotContain("WARN");
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("90% reads").doesNotContain("%%");
  }

  @Test
  void scenariosHelpDocumentsTheServerOptions() {
    assertThat(run("scenarios", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--jdbc-url", "--status-url", "--scale", "--threads", "--duration");
  }

  @Test
  void anUnreachableServerIsOneClearErrorWithoutAStackTrace() {
    assertThat(run("--jdbc-url", "jdbc:mysql://127.0.0.1:1/", "--only", "1")).isEqualTo(1);
    String e = err.toString(StandardCharsets.UTF_8);
    assertThat(e).contains("bank-oltp: failed:", "cannot connect to", "127.0.0.1:1").doesNotContain("\tat ");
  }

  @Test
  void proveRejectsBadOptionsWithUsageBeforeAnyServerStarts() {
    assertThat(run("prove", "--max-steps", "-1")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--max-steps");
    assertThat(run("prove", "--baseline", "9")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("no scenario 9");
  }

  @Test
  void proveWithAMissingAgentJarSaysSoAndExitsOneWithoutStartingAServer() {
    assertThat(run("prove", "--agent-jar", "/nonexistent/agent.jar", "--jdbc-url", "jdbc:mysql://127.0.0.1:1/")).isEqualTo(1);
    String e = err.toString(StandardCharsets.UTF_8);
    assertThat(e).contains("--agent-jar /nonexistent/agent.jar: no such file").doesNotContain("cannot connect").doesNotContain("\tat ");
  }

  @Test
  void proveHelpDocumentsTheLoopOptions() {
    assertThat(run("prove", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--max-steps", "--baseline", "--agent-jar", "--duration");
  }

  @Test
  void optionsWithoutASubcommandGoToScenariosAndBadValuesAreRejectedBeforeAnyServerStarts() {
    assertThat(run("--only", "9")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("no scenario 9");
    assertThat(run("--user", "bob")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("need --jdbc-url");
    assertThat(run("--threads", "0")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("bank-oltp: threads must be 1..512, was 0");
  }

  @Test
  void aFailedConnectionNeverPrintsThePassword() throws Exception {
    java.nio.file.Path f = java.nio.file.Files.createTempFile("bank-oltp-pw", ".txt");
    try {
      java.nio.file.Files.write(f, "file-secret-1\n".getBytes(StandardCharsets.UTF_8));
      assertThat(run("--jdbc-url", "jdbc:mysql://u:pw-in-url@127.0.0.1:1/?password=pw-param&connectTimeout=2000",
          "--password-file", f.toString(), "--only", "1")).isEqualTo(1);
      String e = err.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8);
      assertThat(e).contains("bank-oltp: failed:", "127.0.0.1:1").doesNotContain("warning:");
      assertThat(e).doesNotContain("pw-in-url").doesNotContain("pw-param").doesNotContain("file-secret-1");
    } finally {
      java.nio.file.Files.delete(f);
    }
  }

  @Test
  void aPasswordValueOnTheCommandLineWarns() {
    assertThat(run("--jdbc-url", "jdbc:mysql://127.0.0.1:1/?connectTimeout=2000", "--password", "cli-secret-2", "--only", "1")).isEqualTo(1);
    String e = err.toString(StandardCharsets.UTF_8);
    assertThat(e).contains("warning:", "visible", "--password-file").doesNotContain("cli-secret-2");
  }

  @Test
  void anUnreadablePasswordFileOrBothPasswordOptionsAreUsageErrors() {
    assertThat(run("--jdbc-url", "jdbc:mysql://127.0.0.1:1/", "--password-file", "/nonexistent/pw", "--only", "1")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot read the password file /nonexistent/pw: no such file");
    assertThat(run("--jdbc-url", "jdbc:mysql://127.0.0.1:1/", "--password", "x", "--password-file", "/nonexistent/pw", "--only", "1")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("not both");
  }
}
