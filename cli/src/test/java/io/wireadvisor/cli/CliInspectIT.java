package io.wireadvisor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.ServerViewJson;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** {@code inspect} and {@code analyze --jdbc-url} against the live test server. */
@RealDatabase
class CliInspectIT {
  private static String createTables(DatabaseServer server) throws Exception {
    String db = server.createDatabase("cli_inspect");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE branch (id INT PRIMARY KEY, name VARCHAR(100), city VARCHAR(100))");
      s.execute("INSERT INTO branch VALUES (1, 'branch 1', 'city 1'), (2, 'branch 2', 'city 2')");
    }
    return db;
  }

  @Test
  void cliInspectAndAnalyzeReadTheLiveServer(DatabaseServer server, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    String db = createTables(server);
    String url = server.jdbcUrl(db, null);
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    java.nio.file.Path viewFile = dir.resolve("view.json");
    int code = WireAdvisorCli.run(new String[] {"inspect", "--jdbc-url", url, "--user", server.user(),
        "--password=" + server.password(), "-o", viewFile.toString()}, new java.io.PrintWriter(out), new java.io.PrintWriter(err));
    assertThat(code).as(err.toString()).isZero();
    ServerView saved = ServerViewJson.fromJson(new String(java.nio.file.Files.readAllBytes(viewFile), "UTF-8"));
    assertThat(saved.versionString()).isEqualTo(server.version());
    assertThat(saved.table("branch")).isNotNull();

    java.nio.file.Path profile = dir.resolve("p.json");
    ProfileJson.writeFile(new TrafficProfile(), profile);
    code = WireAdvisorCli.run(new String[] {"analyze", profile.toString(), "--jdbc-url", url,
        "--user", server.user(), "--password=" + server.password()}, new java.io.PrintWriter(out), new java.io.PrintWriter(err));
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Server: " + server.kind().name() + " " + server.version());
  }

}
