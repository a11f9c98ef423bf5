package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void helpListsTheSubcommands() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("scenarios", "load", "prove");
  }

  @Test
  void scenariosHelpDocumentsTheServerOptions() {
    assertThat(run("scenarios", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--jdbc-url", "--status-url", "--scale", "--threads", "--duration");
  }

  @Test
  void proveSaysWhatItNeedsAndExitsTwo() {
    assertThat(run("prove")).isEqualTo(2);
  }

  @Test
  void optionsWithoutASubcommandGoToScenariosAndBadValuesAreRejectedBeforeAnyServerStarts() {
    assertThat(run("--only", "9")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("no scenario 9");
    assertThat(run("--user", "bob")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("need --jdbc-url");
  }
}
