package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An application whose URL carries its password in the {@code address=(…)} form and in the query
 * string, under the shaded agent: the password appears in none of the agent's output (profile,
 * report, stderr), the files are private, and long statements through the real driver are
 * counted.
 */
@RealDatabase
class SecretsIT {
  private static final String USER = "wa_secret_user";
  private static final String PASSWORD = "S3cretPw_41x";
  private static final int STATEMENTS = 40;
  private static final int PADDING = 200 * 1024;

  private final DatabaseServer server;
  private final String db;

  SecretsIT(DatabaseServer server) throws Exception {
    this.server = server;
    this.db = server.createDatabase("secret");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      for (String host : new String[] {"%", "localhost", "127.0.0.1"}) {
        try {
          s.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'" + host + "' IDENTIFIED BY '" + PASSWORD + "'");
          s.execute("GRANT ALL ON `" + db + "`.* TO '" + USER + "'@'" + host + "'");
        } catch (java.sql.SQLException skipGrantTables) {
          // The embedded MariaDB runs with --skip-grant-tables: it accepts any user and password,
          // so the driver still sends them; what matters here is that they are in the URL.
          break;
        }
      }
    }
  }

  @Test
  void noPasswordLeavesTheAgentAndItsFilesArePrivate() throws Exception {
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it", "secrets");
    Files.createDirectories(dir);
    Path profile = dir.resolve("final.json");
    Path report = dir.resolve("report.txt");
    Files.deleteIfExists(profile);
    Files.deleteIfExists(report);
    String url = "jdbc:mysql://address=(host=" + server.host() + ")(port=" + server.port() + ")(user=" + USER
        + ")(password=" + PASSWORD + ")/" + db + "?sslMode=DISABLED&password=" + PASSWORD
        + "&connectionAttributes=token:" + PASSWORD;
    List<String> cmd =
        AgentFork.command(
            AgentFork.defaultJava(),
            "profile=" + profile + ",interval=0,report=" + report + ",prometheus=127.0.0.1:0",
            List.of(), List.of(AgentFork.driverJar(AgentFork.newestDriver()), AgentFork.testClasses()),
            "io.wireadvisor.agent.it.app.SecretApp",
            List.of(url, String.valueOf(STATEMENTS), String.valueOf(PADDING)));
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      long expected = (long) STATEMENTS * (STATEMENTS + 1) / 2 + 1;
      assertThat(app.await("DONE")).isEqualTo("DONE " + expected);
      assertThat(app.awaitExit()).as(app.stderr()).isZero();

      byte[] profileBytes = Files.readAllBytes(profile);
      byte[] reportBytes = Files.readAllBytes(report);
      for (byte[] bytes : List.of(profileBytes, reportBytes, app.stderr().getBytes(StandardCharsets.UTF_8))) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain(PASSWORD).doesNotContain(USER);
      }
      for (Path p : List.of(profile, report)) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).as(p.toString())
            .isEqualTo("rw-------");
      }
      TrafficProfile p = app.profile("final.json");
      assertThat(p.sources()).isNotEmpty();
      for (Source s : p.sources()) {
        assertThat(s.jdbcUrl()).isEqualTo("jdbc:mysql://" + server.host() + ":" + server.port() + "/" + db);
        assertThat(s.properties()).doesNotContainValue(PASSWORD);
        assertThat(s.properties().get("connectionAttributes")).isEqualTo("(set)");
      }
      assertThat(p.count(CommandType.QUERY)).isGreaterThanOrEqualTo(STATEMENTS);
      // The start-up line names the port the system chose for prometheus=127.0.0.1:0.
      assertThat(app.stderr()).containsPattern("Prometheus metrics at http://127\\.0\\.0\\.1:[1-9][0-9]*/metrics");
    }
  }
}
