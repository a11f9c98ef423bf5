package io.wireadvisor.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.StatementTime;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.report.Reports;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TiDBOnly;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * TiDB's own statement identity: a shape the profile recorded carries, after inspecting the
 * server, the DIGEST that STATEMENTS_SUMMARY shows for the same statement (so it can be found in
 * TiDB Dashboard and the slow log), with the server's executions, plan-cache hits and keys.
 */
@RealDatabase
@TiDBOnly
class TidbDigestIT {
  @Test
  void shapesCarryTiDBsDigestAndItsFigures(DatabaseServer server) throws Exception {
    String db = server.createDatabase("digest");
    String sql = "SELECT owner, bal FROM acct_digest WHERE id = ?";
    try (Connection c = server.connect(db, "useServerPrepStmts=true&cachePrepStmts=true");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct_digest (id INT PRIMARY KEY, owner VARCHAR(40), bal DECIMAL(12,2))");
      s.execute("INSERT INTO acct_digest VALUES (1, 'a', 1), (2, 'b', 2)");
      for (int i = 0; i < 20; i++) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          ps.setInt(1, 1 + i % 2);
          ps.executeQuery().close();
        }
      }
    }
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    ProfileRecorder.ShapeHandle shape = recorder.shape(sql);
    for (int i = 0; i < 20; i++) {
      shape.record(Via.EXECUTES, 300_000);
    }
    TrafficProfile profile = recorder.snapshot();

    String expected;
    long serverExecutions;
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT DIGEST, EXEC_COUNT FROM information_schema.STATEMENTS_SUMMARY"
            + " WHERE DIGEST_TEXT LIKE '%acct_digest%' AND DIGEST_TEXT LIKE 'select%'")) {
      assertThat(rs.next()).as("TiDB summarised the statement").isTrue();
      expected = rs.getString(1);
      serverExecutions = rs.getLong(2);
    }
    ServerView view;
    try (Connection c = server.connect(db, null)) {
      view = ServerInspector.inspect(c, null);
    }
    Analysis a = Advisor.analyze(profile, view);
    StatementTime top = a.topStatements().get(0);
    assertThat(top.text()).contains("acct_digest");
    assertThat(top.tidbDigest()).isEqualTo(expected).hasSize(64);
    assertThat(top.server()).isNotNull();
    assertThat(top.server().executions()).isEqualTo(serverExecutions).isGreaterThanOrEqualTo(20);
    assertThat(top.server().avgProcessedKeys()).isGreaterThanOrEqualTo(0);
    assertThat(Reports.text(a)).contains("TiDB digest " + expected);
    // The server view written by inspect keeps the digests for an analysis later.
    ServerView reread = ServerViewJson.fromJson(ServerViewJson.toJson(view));
    assertThat(Advisor.analyze(profile, reread).topStatements().get(0).tidbDigest()).isEqualTo(expected);
  }
}
