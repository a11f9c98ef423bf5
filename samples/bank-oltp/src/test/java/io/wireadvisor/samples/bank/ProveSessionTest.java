package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.CpuUsage;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which of the agent's sources the advisor judges the pool's settings by. */
class ProveSessionTest {
  private static final String POOL = "jdbc:mysql://127.0.0.1:3306/bank";

  private static Source source(String url, Map<String, String> props) {
    return new Source(Source.AGENT, "0.1", "host:1", "MySQL Connector/J", "9.5.0", "11.4.5-MariaDB", "REPEATABLE-READ",
        url, props, 1000, 2000);
  }

  private static TrafficProfile profile(Source... sources) {
    TrafficProfile p = new TrafficProfile();
    for (Source s : sources) {
      p.addSource(s);
    }
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(500, null));
    return p;
  }

  @Test
  void keepsTheSourceOfThisStepsPoolAndDropsEarlierPoolsAndAdminConnections() {
    ProveConfig step = ProveConfig.baseline("useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=250");
    Source pool = source(POOL, Map.of("useServerPrepStmts", "true", "cachePrepStmts", "true", "prepStmtCacheSize", "250",
        "prepStmtCacheSqlLimit", "256"));
    Source earlierPool = source(POOL, Map.of("useServerPrepStmts", "false", "cachePrepStmts", "false"));
    Source admin = source("jdbc:mysql://127.0.0.1:3306/", Map.of("useServerPrepStmts", "true", "cachePrepStmts", "true"));
    TrafficProfile filtered = ProveSession.poolOnly(profile(pool, earlierPool, admin), POOL + "?x=1", step, null);
    assertThat(filtered.sources()).singleElement().satisfies(s -> assertThat(s.properties()).containsEntry("prepStmtCacheSize", "250"));
    // Traffic is kept whole.
    assertThat(filtered.count(CommandType.STMT_EXECUTE)).isEqualTo(500);
  }

  @Test
  void keepsTheWindowsCpuForTheCpuBoundModel() {
    // prove's first screens had no CPU-bound line: the filtered profile lost the window's cpu.
    Source pool = source(POOL, Map.of("useServerPrepStmts", "false"));
    TrafficProfile p = profile(pool, source("jdbc:mysql://127.0.0.1:3306/", Map.of()));
    CpuUsage cpu = new CpuUsage(20_000_000_000L, 3_000_000_000L, 2, 39_900_000_000L, 40_000_000_000L)
        .withServerNanos(14_000_000_000L);
    p.addCpu(cpu);
    TrafficProfile filtered = ProveSession.poolOnly(p, POOL, ProveConfig.baseline("useServerPrepStmts=false"), "READ-COMMITTED");
    assertThat(filtered).isNotSameAs(p);
    assertThat(filtered.cpu()).isEqualTo(cpu);
  }

  @Test
  void leavesTheProfileAloneWhenNoSourceLooksLikeThePool() {
    TrafficProfile p = profile(source("jdbc:mysql://elsewhere:4000/x", Map.of("useServerPrepStmts", "false")));
    assertThat(ProveSession.poolOnly(p, POOL, ProveConfig.baseline("useServerPrepStmts=true"), "READ-COMMITTED")).isSameAs(p);
  }

  @Test
  void thePoolsIsolationReplacesTheConnectTimeOneTheAgentRecorded() {
    // The agent reads the isolation when the connection is made, before HikariCP sets READ COMMITTED.
    Source pool = source(POOL, Map.of("useServerPrepStmts", "false"));
    assertThat(pool.isolation()).isEqualTo("REPEATABLE-READ");
    TrafficProfile filtered = ProveSession.poolOnly(profile(pool), POOL, ProveConfig.baseline("useServerPrepStmts=false"), "READ-COMMITTED");
    assertThat(filtered.sources()).singleElement().satisfies(s -> {
      assertThat(s.isolation()).isEqualTo("READ-COMMITTED");
      assertThat(s.properties()).isEqualTo(pool.properties());
      assertThat(s.jdbcUrl()).isEqualTo(POOL);
    });
  }

  private static ScenarioOutcome window(int scenario, double statementsPerSecond) {
    io.wireadvisor.profile.Histogram h = new io.wireadvisor.profile.Histogram(io.wireadvisor.profile.Histogram.COUNT_PRECISION);
    h.record(1000);
    long statements = Math.round(statementsPerSecond * 10);
    Workload.Result r = new Workload.Result(10, statements / 8, statements, statements, 0, 0, 0, java.util.List.of(), h, h, Map.of());
    return new ScenarioOutcome(Scenarios.load().byId(scenario), r, Map.of(), java.util.Set.of(), "test", null, null,
        java.util.List.of(), null);
  }

  private static ScenarioRuns runs(int scenario, double... statementsPerSecond) {
    java.util.List<ScenarioOutcome> l = new java.util.ArrayList<>();
    for (double v : statementsPerSecond) {
      l.add(window(scenario, v));
    }
    return new ScenarioRuns(l);
  }

  @Test
  void aShortfallCountsAsReachedOnlyWithinTheSpreadOfTheWindows() {
    // Best (S7) median 1000, final 880: 12% short.
    ProveSession.Comparison quiet =
        new ProveSession.Comparison(runs(6, 875, 880, 885), java.util.List.of(runs(5, 700, 710, 720), runs(7, 995, 1000, 1005)));
    assertThat(quiet.ratioToBest()).isCloseTo(0.88, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(quiet.reaches(0.9)).as("windows 1% apart: a 12% shortfall is real").isFalse();
    assertThat(quiet.reaches(0.85)).isTrue();
    ProveSession.Comparison noisy =
        new ProveSession.Comparison(runs(6, 800, 880, 960), java.util.List.of(runs(7, 990, 1000, 1010)));
    assertThat(noisy.reaches(0.9)).as("the final's windows spread 18%: 12% short is noise").isTrue();
    ProveSession.Comparison failed =
        new ProveSession.Comparison(runs(6, 880), java.util.List.of(runs(7, 1000)));
    assertThat(failed.reaches(0.9)).as("one window each: no spread to excuse it").isFalse();
  }
}
