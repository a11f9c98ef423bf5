package io.wireadvisor.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.PlanCacheRefusedRule;
import io.wireadvisor.advisor.Recommendation;
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
import java.sql.Statement;
import java.sql.Types;
import org.junit.jupiter.api.Test;

/**
 * A statement TiDB's plan cache refuses, as Hibernate's batch fetch sends it (an IN list padded
 * with NULL against an integer key), is named with TiDB's reason; the same statement bound without
 * NULL is cached and not named.
 */
@RealDatabase
@TiDBOnly
class PlanCacheRefusedIT {
  private static final String PADDED = "SELECT id, owner FROM acct_refused WHERE id IN (?, ?, ?, ?)";
  private static final String CACHED = "SELECT owner FROM acct_refused WHERE id = ?";
  /**
   * Hibernate's {@code LIKE :name%}: TiDB refuses its plan only at EXECUTE ("skip plan-cache: plan
   * rebuild failed, rebuild to get an unsafe range", a warning) and records no refusal.
   */
  private static final String LIKE = "SELECT id FROM acct_refused WHERE owner LIKE REPLACE(?, '\\\\', '\\\\\\\\')";

  @Test
  void theRefusedStatementIsNamedWithTidbsReasonAndTheCachedOneIsNot(DatabaseServer server) throws Exception {
    String db = server.createDatabase("refused");
    try (Connection c = server.connect(db, "useServerPrepStmts=true&cachePrepStmts=true");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct_refused (id BIGINT PRIMARY KEY, owner VARCHAR(40), KEY (owner))");
      s.execute("INSERT INTO acct_refused VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      for (int i = 0; i < 30; i++) {
        try (PreparedStatement ps = c.prepareStatement(PADDED)) {
          ps.setLong(1, 1);
          ps.setLong(2, 2);
          ps.setNull(3, Types.BIGINT);
          ps.setNull(4, Types.BIGINT);
          ps.executeQuery().close();
        }
        try (PreparedStatement ps = c.prepareStatement(CACHED)) {
          ps.setLong(1, 1 + i % 3);
          ps.executeQuery().close();
        }
        try (PreparedStatement ps = c.prepareStatement(LIKE)) {
          ps.setString(1, "a%");
          ps.executeQuery().close();
        }
      }
      // What TiDB says about it, and only here: the warning of an EXECUTE after the first.
      try (PreparedStatement ps = c.prepareStatement(LIKE)) {
        ps.setString(1, "b%");
        ps.executeQuery().close();
        assertThat((Object) ps.getWarnings()).as("TiDB's warning for the LIKE statement").isNotNull();
        assertThat(ps.getWarnings().getMessage()).contains("skip plan-cache").contains("unsafe range");
      }
    }
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    for (String sql : new String[] {PADDED, CACHED, LIKE}) {
      ProfileRecorder.ShapeHandle shape = recorder.shape(sql);
      for (int i = 0; i < 30; i++) {
        shape.record(Via.EXECUTES, 300_000);
      }
    }
    TrafficProfile profile = recorder.snapshot();
    ServerView view;
    try (Connection c = server.connect(db, null)) {
      view = ServerInspector.inspect(c, null);
    }
    StatementSummary padded = view.statements().stream()
        .filter(st -> st.digestText().contains("acct_refused") && st.digestText().contains(" in "))
        .findFirst().orElseThrow(() -> new AssertionError("TiDB summarised the padded statement"));
    assertThat(padded.planCacheUnqualified()).as("refusals TiDB recorded").isGreaterThanOrEqualTo(10);
    assertThat(padded.planCacheUnqualifiedReason()).contains("may be converted to INT");
    assertThat(padded.avgCompileNanos()).isPositive();
    StatementSummary like = view.statements().stream()
        .filter(st -> st.digestText().contains("acct_refused") && st.digestText().contains(" like "))
        .findFirst().orElseThrow(() -> new AssertionError("TiDB summarised the LIKE statement"));
    assertThat(like.planCacheUnqualified()).as("TiDB records no refusal for it").isZero();
    assertThat(like.planCacheHits()).as("yet none of its executions came from the plan cache").isZero();
    assertThat(like.execCount()).isGreaterThanOrEqualTo(30);

    Analysis a = Advisor.analyze(profile, view);
    Recommendation r = a.recommendations().stream().filter(x -> x.id().equals(PlanCacheRefusedRule.ID)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + PlanCacheRefusedRule.ID + " in " + a.recommendations()));
    String evidence = String.join("\n", r.evidence());
    assertThat(evidence).contains("acct_refused where id in").contains("NULL may be converted to INT")
        .contains("acct_refused where owner like").contains("TiDB gave no reason in STATEMENTS_SUMMARY")
        .doesNotContain("where id = ?");
    assertThat(r.title()).isEqualTo("Make the 2 statements TiDB's plan cache refuses cacheable");
    assertThat(Reports.json(a)).contains("NULL may be converted to INT");
    assertThat(Reports.text(a)).contains("Make the 2 statements TiDB's plan cache refuses cacheable");
    // The saved server view keeps the refusals for an analysis later.
    ServerView reread = ServerViewJson.fromJson(ServerViewJson.toJson(view));
    assertThat(Advisor.analyze(profile, reread).recommendations()).anySatisfy(x -> assertThat(x.id()).isEqualTo(PlanCacheRefusedRule.ID));
  }
}
