package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TiDBOnly;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A short run of all seven scenarios on the testkit server (small scale, 1 s warm-up, 2 s
 * measured each) with the wire-advisor agent attached in-process, checked against the server's own
 * counters.
 */
@RealDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BankOltpIT {
  private static final double SCALE = 0.02;
  // Windows extended on a busy machine until 500 statements, so every ratio below rests on enough.
  private static final Workload.Settings SETTINGS =
      new Workload.Settings(2, Duration.ofSeconds(1), Duration.ofSeconds(2), 42, SCALE, 500);

  private final BankSchema schema = BankSchema.load();
  private final BusinessTransactions mix = new BusinessTransactions(StatementCatalog.build(schema));
  private DatabaseServer server;
  private String database;
  private List<ScenarioOutcome> outcomes;
  private final List<String> log = new ArrayList<>();

  @BeforeAll
  void loadAndRunAllScenarios(DatabaseServer server) throws Exception {
    this.server = server;
    database = server.createDatabase("bank_it");
    DataLoader.Loaded loaded = new DataLoader(server, schema).load(database, SCALE, 42, log::add);
    assertThat(loaded.rows()).isGreaterThan(10_000);
    WireProfileSource agent = AgentProfiles.attach(null, log::add);
    ScenarioRunner runner =
        new ScenarioRunner(server, database, mix, new ServerWireCounts(server), agent, SETTINGS, log::add);
    outcomes = runner.runAll(Scenarios.load().scenarios());
    log.forEach(System.out::println);
  }

  private ScenarioOutcome s(int id) {
    ScenarioOutcome o = outcomes.get(id - 1);
    assertThat(o.failure()).as("scenario " + id + " failure").isNull();
    assertThat(o.result().errors() - UnistoreRace.tolerated(server, o))
        .as("scenario " + id + " errors " + o.result().errorSamples()).isLessThanOrEqualTo(0);
    assertThat(o.result().statements()).isGreaterThan(100);
    return o;
  }

  private static long w(ScenarioOutcome o, String command) {
    return o.wire().get(command);
  }

  @Test
  void loadsSixtyTablesWithDeterministicRowCounts() throws Exception {
    try (Connection c = server.connect(database, null);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM account WHERE id <= " + schema.table("account").rows(SCALE))) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(schema.table("account").rows(SCALE));
    }
    try (Connection c = server.connect(database, null);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(
            "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '" + database + "'")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(60);
    }
  }

  @Test
  void everyStatementRunsAsAServerPreparedStatement() throws Exception {
    // prime() executes all 200 statements on each connection and throws naming the first failure.
    try (HikariDataSource ds = new Workload(server, mix).pool(database, "useServerPrepStmts=true", 1, "bank-it-all")) {
      new Workload(server, mix).prime(ds, 1, 7, SCALE);
    }
  }

  @Test
  void scenario1SendsOnlyTextQueriesIncludingSessionProbes() {
    ScenarioOutcome o = s(1);
    if (server.counters().exactCommands().contains(Commands.COM_STMT_PREPARE)) {
      assertThat(w(o, Commands.COM_STMT_PREPARE)).isZero();
      assertThat(w(o, Commands.COM_STMT_EXECUTE)).isZero();
      assertThat(w(o, Commands.COM_STMT_CLOSE)).isZero();
    }
    assertThat(w(o, Commands.COM_QUERY)).isGreaterThanOrEqualTo(o.result().statements());
    assertThat(o.probesPerStatement()).isGreaterThan(0.05);
  }

  @Test
  void scenario2MaxPerformanceRemovesTheProbes() {
    ScenarioOutcome s1 = s(1);
    ScenarioOutcome s2 = s(2);
    assertThat(s2.probesPerStatement()).isLessThan(s1.probesPerStatement() / 10);
    assertThat(s2.perStatement(Commands.COM_QUERY)).isLessThan(s1.perStatement(Commands.COM_QUERY));
    assertThat(w(s2, Commands.COM_STMT_EXECUTE)).isZero();
  }

  @Test
  void theAgentCountsWhatTheServerCountsInEveryScenario() {
    for (ScenarioOutcome o : outcomes) {
      s(o.scenario().id());
      assertThat(o.agent()).isNotNull();
      if (!server.counters().exactCommands().isEmpty()) {
        assertThat(o.wireCrossChecked()).isTrue();
      }
      assertThat(o.wireMismatches()).as("scenario " + o.scenario().id()).isEmpty();
      // Every business statement the application ran is one execution on the wire, text or prepared.
      long executions = o.agentWire().getOrDefault(Commands.COM_STMT_EXECUTE, 0L);
      assertThat(executions == 0 ? o.agentWire().getOrDefault(Commands.COM_QUERY, 0L) : executions)
          .isGreaterThanOrEqualTo(o.result().statements());
    }
  }

  @Test
  void maxPerformanceRemovesTheIsolationReadsTheAgentSeesButNotSpringsAutocommitSets() {
    ScenarioOutcome s1 = s(1);
    ScenarioOutcome s2 = s(2);
    // One getTransactionIsolation() read per transaction of ~11 statements.
    assertThat(s1.agentProbeReadsPerStatement()).isBetween(0.05, 0.2);
    assertThat(s2.agentProbeReadsPerStatement()).isLessThan(s1.agentProbeReadsPerStatement() / 10);
    // setAutoCommit(false) and (true) per transaction: the driver sends both whatever the settings.
    assertThat(s2.agentSessionSetsPerStatement()).isGreaterThan(0.1);
  }

  @Test
  void scenario3PreparesExecutesAndClosesEveryStatementLongerThanTheCacheLimit() {
    ScenarioOutcome o = s(3);
    long statements = o.result().statements();
    long longOnes = o.result().statementsAtLeast256();
    assertThat(longOnes).isGreaterThan(statements / 2);
    assertThat(w(o, Commands.COM_STMT_EXECUTE)).isEqualTo(statements);
    // Every long statement: PREPARE + EXECUTE + CLOSE. Short ones are cached (size 25), so they
    // add a prepare only when the LRU evicted them.
    assertThat(w(o, Commands.COM_STMT_PREPARE)).isBetween(longOnes, statements);
    // COM_STMT_CLOSE has no reply: up to one per connection may still be in flight at a window edge.
    int inFlight = SETTINGS.threads();
    assertThat(w(o, Commands.COM_STMT_CLOSE)).isBetween(longOnes - inFlight, statements + inFlight);
  }

  @Test
  void scenario5ExecutesWithoutPreparingOnceTheCacheHoldsEveryStatement() {
    ScenarioOutcome o = s(5);
    long executes = w(o, Commands.COM_STMT_EXECUTE);
    assertThat(executes).isEqualTo(o.result().statements());
    assertThat(w(o, Commands.COM_STMT_PREPARE)).isLessThanOrEqualTo(executes / 100);
    assertThat(w(o, Commands.COM_STMT_CLOSE)).isLessThanOrEqualTo(executes / 100);
  }

  @Test
  void everyScenarioReportsThroughputLatencyAndMarksTiDBStepsNotApplicableElsewhere() {
    for (ScenarioOutcome o : outcomes) {
      s(o.scenario().id());
      assertThat(o.statementsPerSecond()).isPositive();
      assertThat(o.p99Micros()).isGreaterThanOrEqualTo(o.p95Micros());
      if (!server.isTiDB()) {
        assertThat(o.planCacheHitRatio()).isNull();
        assertThat(o.notes()).anyMatch(n -> n.contains("N/A"));
      }
    }
  }

  @Test
  void restoresAGlobalItChanged() throws Exception {
    String name = "max_prepared_stmt_count";
    String before = global(name);
    ServerStateGuard guard = new ServerStateGuard(server, database, log::add);
    // MariaDB's default is 16382; TiDB's is -1 (no limit), which cannot go lower.
    long b = Long.parseLong(before);
    String changed = String.valueOf(b > 1 ? b - 1 : 1000);
    guard.setGlobals(Map.of(name, changed));
    assertThat(global(name)).isEqualTo(changed);
    guard.restore();
    assertThat(global(name)).isEqualTo(before);
    guard.restore();
    assertThat(global(name)).isEqualTo(before);
  }

  @Test
  @TiDBOnly
  void scenario4HitsThePlanCacheWhereScenario3CannotAndScenario7ReadsTheTableCache() throws Exception {
    // S3: only the few statements short enough for the driver's cache can hit. S4: every statement
    // may: the scenario sizes TiDB's per-session plan cache (tidb_session_plan_cache_size, default
    // 100) for the 200 distinct statements; the statements a short window runs once miss.
    assertThat(s(4).planCacheHitRatio()).isGreaterThan(0.5).isGreaterThan(s(3).planCacheHitRatio() + 0.3);
    assertThat(s(7).tableCacheReads()).isPositive();
    assertThat(s(6).tableCacheReads()).isZero();
    // And the runner put the tables back.
    try (Connection c = server.connect(database, null);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
            + database + "' AND CREATE_OPTIONS LIKE '%cached=on%'")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
  }

  private String global(String name) throws Exception {
    try (Connection c = server.connect(null, null);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT @@GLOBAL." + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
