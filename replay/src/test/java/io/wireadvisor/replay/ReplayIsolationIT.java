package io.wireadvisor.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.RcReadCheckRule;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.proxy.CaptureSettings;
import io.wireadvisor.proxy.ProxyConfig;
import io.wireadvisor.proxy.WireProxy;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 point 4: a proxy capture of READ COMMITTED traffic. Replay's advice is judged on the
 * replay's own proxy profile, which now carries the isolation the replayed connections set, so
 * {@code tidb_rc_read_check_ts} stays in the advised set on TiDB as {@code analyze} gives it for
 * the agent's profile of the same traffic.
 */
@RealDatabase
class ReplayIsolationIT {
  private static final int READS = 1_100;

  @Test
  void readCommittedTrafficKeepsTheReadCheckInReplaysAdvice(DatabaseServer server, @TempDir Path dir)
      throws Exception {
    String db = server.createDatabase("rc_app");
    String copy = server.createDatabase("rc_copy");
    for (String d : List.of(db, copy)) {
      try (Connection c = server.connect(d, null); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT)");
        s.execute("INSERT INTO acct VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
      }
    }
    Path file = dir.resolve("rc.jsonl");
    try (WireProxy proxy = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
        .withCapture(new CaptureSettings(file, null, 64L << 20, 600, false)))) {
      try (Connection c = DriverManager.getConnection(
          "jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + db, server.user(), server.password())) {
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        try (PreparedStatement read = c.prepareStatement("SELECT v FROM acct WHERE id = ?");
            PreparedStatement write = c.prepareStatement("UPDATE acct SET v = v + 1 WHERE id = ?")) {
          for (int i = 0; i < READS; i++) {
            read.setInt(1, 1 + i % 4);
            read.executeQuery().close();
            if (i % 55 == 0) {
              write.setInt(1, 1 + i % 4);
              write.executeUpdate();
            }
          }
        }
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (proxy.clientConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    }
    Capture capture = CaptureFormat.read(file);
    ReplayTarget intoCopy = new ReplayTarget(server.host(), server.port(), copy, server.user(), server.password());
    Replayer.Options fast = new Replayer.Options(false, null, 64, false, null);

    RunResult replayed = Replayer.run(capture, ReplayConfig.current(capture), intoCopy, fast);
    assertThat(replayed.wire().statementsByIsolation())
        .as("the replayed connection sets READ COMMITTED as the application did; the replay's proxy follows it")
        .containsEntry("READ-COMMITTED", (long) READS + 20);

    ReplayComparison cmp = ReplayComparison.run(capture, List.of("current", "advised"), intoCopy, fast, 1,
        new ReplayComparison.ServerSide(true, server.statusUrl().orElse(null)), line -> {});
    System.out.println(cmp.text());
    Recommendation readCheck = cmp.advice().recommendations().stream()
        .filter(r -> r.id().equals(RcReadCheckRule.ID)).findFirst().orElse(null);
    if (!server.isTiDB()) {
      assertThat(readCheck).as("a TiDB variable").isNull();
      return;
    }
    assertThat(readCheck).as("advice on the replayed READ COMMITTED traffic, TiDB %s", server.version()).isNotNull();
    System.out.println("replay's advice: " + readCheck.evidence().get(0));
    assertThat(cmp.series("advised").config().serverSql())
        .as("the advised configuration keeps the variable")
        .anyMatch(sql -> sql.contains("tidb_rc_read_check_ts"));
  }
}
