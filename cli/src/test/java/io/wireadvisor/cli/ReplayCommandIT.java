package io.wireadvisor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureEvent.Kind;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureValue;
import io.wireadvisor.capture.CaptureWriter;
import io.wireadvisor.cli.WireAdvisorCli;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wire-advisor replay} as a user runs it: the report, and errors that name what is wrong. */
@RealDatabase
class ReplayCommandIT {
  @Test
  void replaysACaptureAndReportsEachConfiguration(DatabaseServer server, @TempDir Path dir) throws Exception {
    String db = server.createDatabase("replay_cli");
    Path capture = dir.resolve("c.jsonl");
    try (CaptureWriter w = CaptureWriter.create(capture,
        CaptureHeader.builder("proxy", "test").server(server.version()).build(), 1 << 20, 60)) {
      for (int i = 0; i < 20; i++) {
        w.write(CaptureEvent.builder(1, i, Kind.QUERY).sql("SELECT ? + 1")
            .value(CaptureValue.of(CaptureValue.Type.NUMBER, String.valueOf(i))).build());
      }
      w.write(CaptureEvent.builder(1, 21, Kind.QUIT).build());
    }
    Path passwordFile = dir.resolve("pw");
    Files.writeString(passwordFile, server.password());
    Path report = dir.resolve("out/report.txt");
    Files.createDirectories(report.getParent());
    Result r = cli("replay", capture.toString(), "--jdbc-url", server.jdbcUrl(db, null), "--user", server.user(),
        "--password-file", passwordFile.toString(), "--rounds", "1", "--pacing", "fast", "-o", report.toString());
    assertThat(r.code).as(r.err).isZero();
    String text = Files.readString(report);
    assertThat(text).contains("current").contains("advised").contains("cmds/stmt");
    if (!server.password().isEmpty()) {
      assertThat(text + r.out + r.err).doesNotContain(server.password());
    }
  }

  @Test
  void badArgumentsNameTheOptionAndTheValue(@TempDir Path dir) throws Exception {
    Path capture = dir.resolve("c.jsonl");
    Files.writeString(capture, "{\"schema\":\"wire-advisor/capture\",\"version\":1,\"collector\":\"proxy\"}\n");
    Result pacing = cli("replay", capture.toString(), "--jdbc-url", "jdbc:mysql://h:4000/db", "--pacing", "slow");
    assertThat(pacing.code).isEqualTo(2);
    assertThat(pacing.err).contains("--pacing").contains("slow");
    Result config = cli("replay", capture.toString(), "--jdbc-url", "jdbc:mysql://h:4000/db", "--config", "nosuch.properties");
    assertThat(config.code).isEqualTo(2);
    assertThat(config.err).contains("--config").contains("nosuch.properties");
    Result url = cli("replay", capture.toString(), "--jdbc-url", "jdbc:postgresql://h/db");
    assertThat(url.code).isEqualTo(2);
    assertThat(url.err).contains("--jdbc-url").contains("jdbc:mysql://");
    Result creds = cli("replay", capture.toString(), "--jdbc-url", "jdbc:mysql://app:S3cret@h:4000/db");
    assertThat(creds.code).isEqualTo(2);
    assertThat(creds.err).doesNotContain("S3cret");
    Result driver = cli("replay", capture.toString(), "--jdbc-url", "jdbc:mysql://h:4000/db", "--driver",
        dir.resolve("nosuch-connector.jar").toString());
    assertThat(driver.code).isEqualTo(2);
    assertThat(driver.err).contains("--driver").contains("nosuch-connector.jar").contains("no such file");
  }

  @Test
  void aReplayIntoTheCapturesOwnDatabaseIsRefusedUnlessAllowed(DatabaseServer server, @TempDir Path dir) throws Exception {
    String db = server.createDatabase("replay_same");
    Path capture = dir.resolve("c.jsonl");
    try (CaptureWriter w = CaptureWriter.create(capture,
        CaptureHeader.builder("proxy", "test").server(server.version())
            .upstream(server.host() + ":" + server.port()).build(),
        1 << 20, 60)) {
      w.write(CaptureEvent.builder(1, 0, Kind.CONNECT).sql(db).build());
      w.write(CaptureEvent.builder(1, 1, Kind.QUERY).sql("SELECT ? + 1")
          .value(CaptureValue.of(CaptureValue.Type.NUMBER, "1")).build());
      w.write(CaptureEvent.builder(1, 2, Kind.QUIT).build());
    }
    Path passwordFile = dir.resolve("pw");
    Files.writeString(passwordFile, server.password());
    String[] args = {"replay", capture.toString(), "--jdbc-url", server.jdbcUrl(db, null), "--user", server.user(),
        "--password-file", passwordFile.toString(), "--rounds", "1", "--pacing", "fast", "--config", "current"};
    Result refused = cli(args);
    assertThat(refused.code).as(refused.out).isNotZero();
    assertThat(refused.err).contains("replay refused").contains("duplicate keys").contains("--allow-same-database");
    String[] allowed = java.util.Arrays.copyOf(args, args.length + 1);
    allowed[args.length] = "--allow-same-database";
    Result ran = cli(allowed);
    assertThat(ran.code).as(ran.err).isZero();
    assertThat(ran.out).contains("driver: Connector/J ").contains("current");
  }

  private record Result(int code, String out, String err) {}

  private static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = WireAdvisorCli.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, out.toString(), err.toString());
  }
}
