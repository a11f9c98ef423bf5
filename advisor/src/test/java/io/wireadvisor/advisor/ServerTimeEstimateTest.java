package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import org.junit.jupiter.api.Test;

/** On TiDB the saving counts the parse and compile time the plan cache removes (issue 25). */
class ServerTimeEstimateTest {
  private static final long PARSE = 100_000;
  private static final long COMPILE = 400_000;

  /** Summary rows for shapes 0 and 1 with the given optimizer times; others unknown. */
  private static ServerView tidb(int scenario, long hits) {
    ServerView.Builder b = BankLikeProfiles.tidb(scenario).toBuilder();
    for (int i = 0; i < 2; i++) {
      b.statement(new StatementSummary("bank", "select `bank` . `" + BankLikeProfiles.table(BankLikeProfiles.WRITTEN_TABLES + i)
          + "` /* shape " + i + " */", 1000, hits, hits > 0, 1, "d" + i, 1)
          .withPlanCacheFacts(0, null, PARSE, COMPILE));
    }
    return b.build();
  }

  @Test
  void textStatementsOnTidbSaveTheirParseAndCompileTime() {
    TrafficProfile text = BankLikeProfiles.scenario(1);
    Analysis without = Advisor.analyze(text, BankLikeProfiles.tidb(1));
    Analysis with = Advisor.analyze(text, tidb(1, 0));
    Recommendation before = find(without, TextProtocolRule.ID);
    Recommendation after = find(with, TextProtocolRule.ID);
    // Two shapes, each executed EXECUTIONS_PER_SHAPE times over text, at 0.5 ms of TiDB optimizer time.
    double expected = 2 * BankLikeProfiles.EXECUTIONS_PER_SHAPE * (PARSE + COMPILE) / 1e9;
    assertThat(after.saving().secondsSaved()).isCloseTo(Math.max(expected, before.saving().secondsSaved()), within(1e-9));
    assertThat(after.saving().secondsSaved()).isGreaterThan(before.saving().secondsSaved());
    assertThat(after.saving().assumption()).contains("AVG_PARSE_LATENCY + AVG_COMPILE_LATENCY");
  }

  @Test
  void preparedStatementsThatMissTheCacheSaveTheirCompileTimeOnly() {
    // Scenario 3: server-prepared; the plan cache off makes every execution compile again.
    ServerView off = tidb(3, 0).toBuilder().global("tidb_enable_prepared_plan_cache", "OFF").build();
    Recommendation r = find(Advisor.analyze(BankLikeProfiles.scenario(3), off), PlanCacheRule.ID);
    double expected = 2 * BankLikeProfiles.EXECUTIONS_PER_SHAPE * COMPILE / 1e9;
    assertThat(r.saving().secondsSaved()).isCloseTo(expected, within(1e-9));
    assertThat(r.saving().assumption()).contains("AVG_COMPILE_LATENCY");
  }

  @Test
  void executionsThatAlreadyHitTheCacheSaveNothing() {
    ServerView off = tidb(3, 1000).toBuilder().global("tidb_enable_prepared_plan_cache", "OFF").build();
    Recommendation r = find(Advisor.analyze(BankLikeProfiles.scenario(3), off), PlanCacheRule.ID);
    assertThat(r.saving().secondsSaved()).isZero();
  }

  @Test
  void noServerNoServerTime() {
    Recommendation r = find(Advisor.analyze(BankLikeProfiles.scenario(1), null), TextProtocolRule.ID);
    assertThat(r.saving().assumption()).contains("not estimated here");
  }

  @Test
  void executionsServedFromTheCacheDoNotDiluteATextExecutionsCost() {
    // The same digests also ran prepared: 600 of 1000 executions were plan-cache hits, and the
    // rows' averages (over all 1000) are what the 400 misses cost spread over every execution.
    ServerView.Builder b = BankLikeProfiles.tidb(1).toBuilder();
    for (int i = 0; i < 2; i++) {
      b.statement(new StatementSummary("bank", "select `bank` . `" + BankLikeProfiles.table(BankLikeProfiles.WRITTEN_TABLES + i)
          + "` /* shape " + i + " */", 1000, 600, true, 1, "d" + i, 1)
          .withPlanCacheFacts(0, null, PARSE * 400 / 1000, COMPILE * 400 / 1000));
    }
    Recommendation mixed = find(Advisor.analyze(BankLikeProfiles.scenario(1), b.build()), TextProtocolRule.ID);
    Recommendation text = find(Advisor.analyze(BankLikeProfiles.scenario(1), tidb(1, 0)), TextProtocolRule.ID);
    assertThat(mixed.saving().secondsSaved()).isCloseTo(text.saving().secondsSaved(), within(1e-6));
    // All executions hits: nothing is known of a miss, and the estimate falls back to round trips.
    ServerView.Builder all = BankLikeProfiles.tidb(1).toBuilder();
    for (int i = 0; i < 2; i++) {
      all.statement(new StatementSummary("bank", "select `bank` . `" + BankLikeProfiles.table(BankLikeProfiles.WRITTEN_TABLES + i)
          + "` /* shape " + i + " */", 1000, 1000, true, 1, "d" + i, 1)
          .withPlanCacheFacts(0, null, PARSE, COMPILE));
    }
    Recommendation hits = find(Advisor.analyze(BankLikeProfiles.scenario(1), all.build()), TextProtocolRule.ID);
    assertThat(hits.saving().assumption()).contains("not estimated here");
  }

  /**
   * A summary refilled by prepared traffic (999 of 1000 executions plan-cache hits) puts all its
   * parse and compile time on one miss: a text execution is then priced at most at the latency the
   * collector measured for it (BenchBase's TPC-C analysed so read 58,102 s in a 62 s window).
   */
  @Test
  void aTextExecutionsParseAndCompileIsAtMostItsMeasuredLatency() {
    TrafficProfile text = BankLikeProfiles.scenario(1);
    long latency = 1_000_000; // 1 ms per execution, as the collector timed it
    for (io.wireadvisor.profile.ShapeStats s : text.shapes().values()) {
      io.wireadvisor.profile.Histogram h = new io.wireadvisor.profile.Histogram(io.wireadvisor.profile.Histogram.LATENCY_PRECISION);
      for (int i = 0; i < 100; i++) {
        h.record(latency);
      }
      s.setLatency(h);
    }
    ServerView.Builder b = BankLikeProfiles.tidb(1).toBuilder();
    for (int i = 0; i < 2; i++) {
      b.statement(new StatementSummary("bank", "select `bank` . `" + BankLikeProfiles.table(BankLikeProfiles.WRITTEN_TABLES + i)
          + "` /* shape " + i + " */", 1000, 999, true, 1, "d" + i, 1)
          .withPlanCacheFacts(0, null, PARSE, COMPILE));
    }
    Recommendation r = find(Advisor.analyze(text, b.build()), TextProtocolRule.ID);
    // Uncapped: 1000 executions' 0.5 ms on one miss, 500 ms per text execution.
    io.wireadvisor.profile.Histogram one = new io.wireadvisor.profile.Histogram(
        io.wireadvisor.profile.Histogram.LATENCY_PRECISION);
    one.record(latency);
    double capped = 2 * BankLikeProfiles.EXECUTIONS_PER_SHAPE * one.mean() / 1e9;
    assertThat(r.saving().assumption()).contains(String.format(java.util.Locale.ROOT, "took %.3f s", capped));
  }

  @Test
  void theFirstScreenNamesWhatTheSavingLeavesOut() {
    // Scenario 1 on TiDB: text statements from client-side prepares without cachePrepStmts, and
    // server-side advice (RC read check, cached tables) whose gain is server time.
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(1), tidb(1, 0));
    java.util.List<String> not = a.outlook().notEstimated();
    assertThat(not).anySatisfy(n -> assertThat(n).contains("driver's own CPU").contains("cachePrepStmts"));
    java.util.List<String> serverSide = new java.util.ArrayList<>();
    for (Recommendation r : a.recommendations()) {
      if (r.saving() != null && !r.id().startsWith("tidb-plan-cache") && r.saving().assumption().startsWith("a server-side change")) {
        serverSide.add(r.id());
      }
    }
    assertThat(serverSide).isNotEmpty();
    assertThat(not).anySatisfy(n -> assertThat(n).startsWith("the server time of ").contains(serverSide.get(0)));
    assertThat(not).last().asString().contains("share busy cores");
    // The plan cache's gain for these statements is their parse and compile time, counted above.
    assertThat(not).noneSatisfy(n -> assertThat(n).contains(PlanCacheRule.ID));
  }

  @Test
  void aTimedFirstScreenPrintsWhatIsNotCounted() {
    io.wireadvisor.profile.TrafficProfile p = BankLikeProfiles.scenario(1);
    io.wireadvisor.profile.Histogram h = new io.wireadvisor.profile.Histogram(io.wireadvisor.profile.Histogram.LATENCY_PRECISION);
    for (int i = 0; i < 1000; i++) {
      h.record(2_000_000); // 2 ms
    }
    p.addCommand(io.wireadvisor.profile.CommandType.QUERY, new io.wireadvisor.profile.CommandStats(0, h));
    Analysis a = Advisor.analyze(p, tidb(1, 0));
    String text = io.wireadvisor.report.Reports.text(a);
    assertThat(text).contains("waited on the wire in the window; estimated saving")
        .contains("not counted: the JDBC driver's own CPU");
    assertThat(io.wireadvisor.report.Reports.json(a)).contains("\"notEstimated\"");
    assertThat(io.wireadvisor.report.Reports.html(a)).contains("id=\"not-estimated\"");
    // Untimed, the saving is in round trips only and nothing qualifies a time.
    assertThat(io.wireadvisor.report.Reports.text(Advisor.analyze(BankLikeProfiles.scenario(1), tidb(1, 0))))
        .doesNotContain("not counted:");
  }

  @Test
  void withTheStatementCacheOnTheDriversParseIsNotNamed() {
    // Scenario 5: server-prepared and cached; nothing re-parsed per statement on the client.
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(5), tidb(5, 1000));
    assertThat(a.outlook().notEstimated()).noneSatisfy(n -> assertThat(n).contains("driver's own CPU"));
  }

  private static Recommendation find(Analysis a, String id) {
    return a.recommendations().stream().filter(r -> r.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + id + " in " + a.recommendations()));
  }
}
