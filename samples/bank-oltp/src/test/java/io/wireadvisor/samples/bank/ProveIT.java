package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.sql.StatementKind;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TiDBOnly;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A short {@code prove} on the testkit server with the agent attached in-process: from scenario 1's
 * text-protocol baseline to the advisor's fixpoint, 1 s warm-up + 2 s measured per step.
 * Expectations come from the workload (text protocol with session probes, most statements longer
 * than Connector/J's default cache limit), not from a recorded output.
 */
@RealDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProveIT {
  private static final double SCALE = 0.02;
  // 2 s windows, extended on a busy machine until 1,500 statements: enough for the advisor's
  // thresholds (e.g. 50 session probes at about 0.09 per statement).
  private static final Workload.Settings SETTINGS =
      new Workload.Settings(2, Duration.ofSeconds(1), Duration.ofSeconds(2), 42, SCALE, 1500);
  // On TiDB the advisor also judges which tables to cache, which needs a window of at least 10 s
  // (advisor Evidence.MIN_WINDOW_SECONDS): 2 s windows rightly get "not enough traffic to judge".
  private static final Workload.Settings TIDB_SETTINGS =
      new Workload.Settings(2, Duration.ofSeconds(1), Duration.ofSeconds(11), 42, SCALE, 1500);
  private static final int MAX_STEPS = 4;

  private final BankSchema schema = BankSchema.load();
  private final BusinessTransactions mix = new BusinessTransactions(StatementCatalog.build(schema));
  private final List<String> log = new ArrayList<>();
  private DatabaseServer server;
  private String database;
  private AgentProfiles agent;
  private Map<String, String> globalsBefore;
  private Prover.Result result;

  @BeforeAll
  void proveFromTheTextBaseline(DatabaseServer server) throws Exception {
    this.server = server;
    database = server.createDatabase("prove_it");
    new DataLoader(server, schema).load(database, SCALE, 42, log::add);
    globalsBefore = globals(watchedGlobals());
    agent = AgentProfiles.attach(null, log::add);
    result = new ProveSession(server, database, mix, agent, settings(), MAX_STEPS, log::add)
        .run(ProveConfig.of(Scenarios.load().byId(1), server.isTiDB()));
    log.forEach(System.out::println);
    result.baseline().outcome().agent().sources().forEach(s ->
        System.out.println("agent source: " + s.jdbcUrl() + " isolation " + s.isolation() + " " + s.properties()));
    System.out.println(new ProveReport(server.kind() + " " + server.version(),
        server.jdbcUrl(database, result.finalConfig().urlParameters()), settings(), agent.describe(), result).terminal());
  }

  @Test
  void reachesTheFixpointWithEveryStepMeasuredWithoutErrors() {
    assertThat(result.stop()).as(result.detail()).isEqualTo(Prover.Stop.FIXPOINT);
    assertThat(result.steps()).hasSizeBetween(2, MAX_STEPS + 1);
    for (Prover.Step s : result.steps()) {
      assertThat(s.outcome().ok()).as("step " + s.index()).isTrue();
      assertThat(s.outcome().result().errors() - UnistoreRace.tolerated(server, s.outcome()))
          .as("step %d errors %s", s.index(), s.outcome().result().errorSamples()).isLessThanOrEqualTo(0);
      assertThat(s.outcome().result().statements()).isGreaterThan(100);
    }
  }

  @Test
  void theBaselineIsTextProtocolWithProbesAndTheAdvisorSaysSo() {
    Prover.Step base = result.baseline();
    ScenarioOutcome o = base.outcome();
    assertThat(o.agentPerStatement(Commands.COM_STMT_EXECUTE)).isZero();
    assertThat(o.agentPerStatement(Commands.COM_QUERY)).isGreaterThanOrEqualTo(1.0);
    // One isolation read per transaction (Spring's getTransactionIsolation without useLocalSessionState).
    assertThat(o.agentProbeReadsPerStatement()).isGreaterThan(0.05);
    assertThat(base.advice().analysis().ids())
        .contains("server-prepared-statements", "session-probes", "prepared-statement-cache");
  }

  @Test
  void theFinalConfigurationIsTheJdbcSideFixpointForThisWorkload() {
    ProveConfig c = result.finalConfig();
    assertThat(c.property("useServerPrepStmts")).isEqualToIgnoringCase("true");
    // The probes go with useLocalSessionState, directly or through maxPerformance (which also caches).
    boolean maxPerformance = "maxPerformance".equalsIgnoreCase(c.property("useConfigs"));
    assertThat(maxPerformance || "true".equalsIgnoreCase(c.property("useLocalSessionState"))).as(c.urlParameters()).isTrue();
    assertThat(maxPerformance || "true".equalsIgnoreCase(c.property("cachePrepStmts"))).as(c.urlParameters()).isTrue();
    // Connector/J caches only sql.length() < prepStmtCacheSqlLimit: above every statement that ran.
    TrafficProfile last = result.last().outcome().agent();
    int longest = last.shapes().values().stream()
        .filter(s -> s.kind() == StatementKind.SELECT || s.kind() == StatementKind.INSERT || s.kind() == StatementKind.UPDATE)
        .mapToInt(ShapeStats::maxSqlLength).max().orElseThrow();
    assertThat(longest).isGreaterThan(2048);
    assertThat(Long.parseLong(c.property("prepStmtCacheSqlLimit"))).isGreaterThan(longest);
    assertThat(Long.parseLong(c.property("prepStmtCacheSize"))).isGreaterThanOrEqualTo(25);
  }

  @Test
  void theLastStepHasNoJdbcAdviceLeftAndItsWireShowsWhy() {
    Prover.Step last = result.last();
    for (Recommendation r : last.advice().analysis().recommendations()) {
      assertThat(r.change().jdbcProperties()).as(r.id() + " on the last step").isEmpty();
    }
    ScenarioOutcome o = last.outcome();
    // Every business statement server-prepared and executed from the cache: EXECUTE only.
    assertThat(o.agentWire().getOrDefault(Commands.COM_STMT_EXECUTE, 0L)).isEqualTo(o.result().statements());
    assertThat(o.agentPerStatement(Commands.COM_STMT_PREPARE)).isLessThanOrEqualTo(0.01);
    assertThat(o.agentPerStatement(Commands.COM_STMT_CLOSE)).isLessThanOrEqualTo(0.01);
    assertThat(o.agentProbeReadsPerStatement()).isLessThan(result.baseline().outcome().agentProbeReadsPerStatement() / 10);
  }

  @Test
  void theAgentsCountsEqualTheServersCountersOnEveryStep() {
    for (Prover.Step s : result.steps()) {
      if (!server.counters().exactCommands().isEmpty()) {
        assertThat(s.outcome().wireCrossChecked()).isTrue();
      }
      assertThat(s.outcome().wireMismatches()).as("step " + s.index()).isEmpty();
    }
  }

  @Test
  void offTiDBNoTiDBOnlyChangeIsRecommendedOrApplied() {
    if (server.isTiDB()) {
      return;
    }
    for (Prover.Step s : result.steps()) {
      assertThat(s.advice().analysis().ids()).noneMatch(id -> id.startsWith("tidb-"));
      for (ChangePlan.Planned p : s.planned()) {
        assertThat(p.step().globals()).isEmpty();
        assertThat(p.step().tables()).isEmpty();
      }
    }
    assertThat(result.finalConfig().globals()).isEmpty();
    assertThat(result.finalConfig().cachedTables()).isEmpty();
  }

  @Test
  void theServerIsAsBeforeAfterwards() throws Exception {
    assertThat(globals(globalsBefore.keySet())).isEqualTo(globalsBefore);
    // Whatever prove set (TiDB), it was there before with a value, and now has that value again.
    Map<String, String> now = globals(result.finalConfig().globals().keySet());
    for (String name : result.finalConfig().globals().keySet()) {
      assertThat(globalsBefore).containsKey(name);
      assertThat(now.get(name)).isEqualTo(globalsBefore.get(name));
    }
    assertThat(cachedTables()).isZero();
  }

  @Test
  @TiDBOnly
  void onTiDBProveReachesNinetyPercentOfTheBestScenarioMeasuredInTheSameRun() throws Exception {
    // The study's best scenarios and prove's final configuration, interleaved on the same data;
    // medians of three windows each, longer than the loop's, so one slow moment of a shared
    // machine cannot decide it.
    Workload.Settings windows = new Workload.Settings(4, Duration.ofSeconds(2), Duration.ofSeconds(5), 42, SCALE, 1500);
    ProveSession.Comparison c = new ProveSession(server, database, mix, agent, settings(), MAX_STEPS, log::add)
        .compare(result, List.of(Scenarios.load().byId(5), Scenarios.load().byId(6), Scenarios.load().byId(7)), 3, windows);
    System.out.println(String.join("\n", new ProveReport(server.kind() + " " + server.version(),
        server.jdbcUrl(database, result.finalConfig().urlParameters()), settings(), agent.describe(), result, c).comparisonLines()));
    assertThat(c.best()).isNotNull();
    ScenarioRuns best = c.best();
    assertThat(c.reaches(0.9))
        .as("prove's final configuration / best of S5-S7 = %.3f; spreads %s and %s", c.ratioToBest(),
            c.finalConfig().spread(), best.spread())
        .isTrue();
    // What decides the time, without the noise: the final configuration sends no more wire
    // commands per business statement than the best scenario.
    assertThat(wirePerStatement(c.finalConfig().representative()))
        .as("wire commands per business statement: final vs S" + best.representative().scenario().id())
        .isLessThanOrEqualTo(wirePerStatement(best.representative()) * 1.02);
    assertThat(result.finalConfig().globals()).containsKeys("tidb_ignore_prepared_cache_close_stmt", "tidb_rc_read_check_ts");
    assertThat(result.finalConfig().cachedTables()).isNotEmpty();
    assertThat(cachedTables()).as("the comparison put the tables back").isZero();
  }

  private static double wirePerStatement(ScenarioOutcome o) {
    long sum = 0;
    for (long v : o.agentWire().values()) {
      sum += v;
    }
    return (double) sum / o.result().statements();
  }

  private Workload.Settings settings() {
    return server.isTiDB() ? TIDB_SETTINGS : SETTINGS;
  }

  /** The globals prove or the scenarios may touch (read back only where the server has them). */
  private Set<String> watchedGlobals() {
    Set<String> names = new LinkedHashSet<>(List.of("max_prepared_stmt_count"));
    for (Scenarios.Scenario s : Scenarios.load().scenarios()) {
      names.addAll(s.tidbGlobals().keySet());
    }
    names.add("tidb_session_plan_cache_size");
    return names;
  }

  private Map<String, String> globals(Set<String> names) throws Exception {
    Map<String, String> m = new LinkedHashMap<>();
    try (Connection c = server.connect(null, null); Statement st = c.createStatement()) {
      for (String n : names) {
        try (ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES LIKE '" + n + "'")) {
          if (rs.next()) {
            m.put(n, rs.getString(2));
          }
        }
      }
    }
    return m;
  }

  private int cachedTables() throws Exception {
    try (Connection c = server.connect(database, null);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
            + database + "' AND CREATE_OPTIONS LIKE '%cached=on%'")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
