package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Issue 28 points 2 and 5 under the shaded agent and the real driver and server: texts are read in
 * each connection's escaping mode (from the OK's status flag, from the connect-time sql_mode), and
 * with {@code sampleSql=true} no literal that follows a backslash-ended string, no key of
 * {@code AES_ENCRYPT} and no {@code SET @k = '…'} reaches the profile or the report.
 */
@RealDatabase
class EscapingModeAgentIT {
  private final DatabaseServer server;

  EscapingModeAgentIT(DatabaseServer server) {
    this.server = server;
  }

  @Test
  void noLiteralOrKeyReachesTheProfileInEitherMode() throws Exception {
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it", "escaping");
    Files.createDirectories(dir);
    Path profile = dir.resolve("final.json");
    Path report = dir.resolve("report.txt");
    Files.deleteIfExists(profile);
    Files.deleteIfExists(report);
    String secret = "Zq" + Long.toHexString(System.nanoTime());
    String url = "jdbc:mysql://" + server.host() + ":" + server.port() + "/?user=" + server.user()
        + "&password=" + server.password() + "&sslMode=DISABLED&allowPublicKeyRetrieval=true";
    List<String> cmd =
        AgentFork.command(
            AgentFork.defaultJava(),
            "profile=" + profile + ",interval=0,report=" + report + ",sampleSql=true",
            List.of(), List.of(AgentFork.driverJar(AgentFork.newestDriver()), AgentFork.testClasses()),
            "io.wireadvisor.agent.it.app.EscapingApp", List.of(url, secret));
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      assertThat(app.await("DONE")).isEqualTo("DONE 4");
      assertThat(app.awaitExit()).as(app.stderr()).isZero();
      String lower = secret.toLowerCase(Locale.ROOT);
      // The keys (SET @k = '…2', AES_ENCRYPT(…, '…3')) are nowhere, not even in a sample.
      for (Path p : List.of(profile, report)) {
        String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        assertThat(text).as(p.toString()).doesNotContain(lower + "2").doesNotContain(lower + "3");
      }
      assertThat(app.stderr().toLowerCase(Locale.ROOT)).doesNotContain(lower);
      TrafficProfile p = app.profile("final.json");
      List<String> texts = new ArrayList<>();
      for (ShapeStats s : p.shapes().values()) {
        texts.add(s.digestText());
        // Literals of ordinary statements are in their samples (sampleSql=true), never in digests.
        assertThat(s.digestText().toLowerCase(Locale.ROOT)).doesNotContain(lower);
      }
      // Read in the mode the status flag (connection 1) and the connect-time sql_mode (2) gave.
      assertThat(texts).contains("select ?, ?, ?", "select ?, ?", "set @k = ?",
          "select aes_encrypt (?, ?), aes_encrypt (?, @k)");
    }
  }
}
