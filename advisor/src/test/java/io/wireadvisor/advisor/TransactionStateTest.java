package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A Spring/Hibernate application on TiDB as Connector/J puts it on the wire: every transaction
 * turns autocommit off and on, every {@code @Transactional(readOnly = true)} sends {@code SET
 * SESSION TRANSACTION READ ONLY}, which TiDB rejects with ERROR 1235, and {@code READ WRITE} after
 * it. The errors are evidence, the transaction-state SETs get their settings, and the estimates
 * model what each setting removes.
 */
class TransactionStateTest {
  private static final ServerView TIDB = ServerView.builder("8.0.11-TiDB-v8.4.0").isolation("REPEATABLE-READ").build();
  private static final int CONNECTIONS = 10;

  /** How the application's transactions reach the wire, as the settings in effect make them. */
  static final class App {
    boolean localSessionState;
    boolean readOnlyPropagates = true;
    boolean poolAutoCommitOff;
    boolean tidbRejectsReadOnly = true;
    /**
     * Borrows that run {@link #OUTSIDE_SELECTS} SELECTs outside any transaction (a Spring Data
     * query method without @Transactional): under autocommit, or with the pool's autoCommit=false
     * in a transaction HikariCP rolls back when the connection is returned.
     */
    int outsideBorrows;
  }

  static final int OUTSIDE_SELECTS = 2; // below N+1's minimum: no statement-patterns advice

  /**
   * {@code readOnly} read-only transactions of one SELECT and {@code writes} transactions of three
   * statements, over {@link #CONNECTIONS} pooled connections, as Connector/J 9.x and HikariCP send
   * them under {@code app}'s settings.
   */
  static TrafficProfile spring(App app, int readOnly, int writes) {
    ProfileRecorder rec = new ProfileRecorder(RecorderSettings.defaults());
    String[] cause = {null};
    Map<String, String> props = new TreeMap<>();
    props.put("useLocalSessionState", String.valueOf(app.localSessionState));
    props.put("readOnlyPropagatesToServer", String.valueOf(app.readOnlyPropagates));
    props.put("useServerPrepStmts", "true");
    props.put("cachePrepStmts", "true");
    rec.source(new Source(Source.AGENT, "0.1.0", "h:1", "MySQL Connector/J", "mysql-connector-j-9.5.0",
        "8.0.11-TiDB-v8.4.0", "REPEATABLE-READ", "jdbc:mysql://tidb:4000/app", props, System.currentTimeMillis() - 60_000,
        System.currentTimeMillis()));
    List<WireSession> pool = new ArrayList<>();
    for (int i = 0; i < CONNECTIONS; i++) {
      WireSession s = new WireSession(rec, new WireSession.Budget(), () -> cause[0]);
      pool.add(s);
      if (app.poolAutoCommitOff) { // HikariCP sets the pool's autoCommit once per new connection
        cause[0] = "hikari.setup:setAutoCommit";
        query(s, rec, "SET autocommit=0", WireSession.NO_ERROR);
      }
    }
    boolean[] readOnlyLocal = new boolean[CONNECTIONS];
    for (int t = 0; t < readOnly + writes; t++) {
      WireSession s = pool.get(t % CONNECTIONS);
      boolean ro = t < readOnly;
      if (!app.poolAutoCommitOff) {
        cause[0] = "setAutoCommit";
        query(s, rec, "SET autocommit=0", WireSession.NO_ERROR);
      }
      if (ro && app.readOnlyPropagates) {
        cause[0] = "setReadOnly";
        boolean rejected = app.tidbRejectsReadOnly;
        query(s, rec, "set session transaction read only", rejected ? 1235 : WireSession.NO_ERROR);
        readOnlyLocal[t % CONNECTIONS] = !rejected;
      }
      cause[0] = null;
      for (int i = 0; i < (ro ? 1 : 3); i++) {
        execute(s, rec, i == 0 ? "SELECT a.id, a.balance FROM account a WHERE a.id = ?"
            : "UPDATE account SET balance = ? WHERE id = ?");
      }
      query(s, rec, "commit", WireSession.NO_ERROR);
      if (!app.poolAutoCommitOff) {
        cause[0] = "setAutoCommit";
        query(s, rec, "SET autocommit=1", WireSession.NO_ERROR);
      }
      if (ro && app.readOnlyPropagates) {
        cause[0] = "setReadOnly";
        // Without local state the driver always resets; with it, only a READ ONLY that took.
        if (!app.localSessionState || readOnlyLocal[t % CONNECTIONS]) {
          query(s, rec, "set session transaction read write", WireSession.NO_ERROR);
          readOnlyLocal[t % CONNECTIONS] = false;
        }
      }
      if (app.outsideBorrows > 0) {
        s.borrowEnded(); // the agent sees every borrow end
      }
    }
    for (int b = 0; b < app.outsideBorrows; b++) {
      WireSession s = pool.get(b % CONNECTIONS);
      cause[0] = null;
      for (int i = 0; i < OUTSIDE_SELECTS; i++) {
        execute(s, rec, "SELECT v.id, v.visit_date FROM visits v WHERE v.pet_id = ?");
        s.result(1, app.poolAutoCommitOff ? 0x0001 : 0x0002); // in a transaction, or autocommit
      }
      if (app.poolAutoCommitOff) { // HikariCP: "rollback due to dirty commit state on close()"
        query(s, rec, "rollback", WireSession.NO_ERROR);
      }
      s.borrowEnded();
    }
    return rec.snapshot();
  }

  private static void query(WireSession s, ProfileRecorder rec, String sql, int error) {
    s.command(CommandType.QUERY, 200_000);
    s.query(rec.shape(sql), 200_000, error, error == WireSession.NO_ERROR ? null : "HY000");
  }

  private static void execute(WireSession s, ProfileRecorder rec, String sql) {
    ShapeHandle h = rec.shape(sql);
    s.command(CommandType.STMT_EXECUTE, 300_000);
    s.statementCommand(h, io.wireadvisor.profile.Via.EXECUTES, 300_000, WireSession.NO_ERROR, null);
  }

  @Test
  void readOnlyTransactionsRejectedByTiDBAreEvidenceAndGetReadOnlyPropagatesToServerFalse() {
    TrafficProfile p = spring(new App(), 300, 100);
    Analysis a = Advisor.analyze(p, TIDB);
    Recommendation r = a.recommendation(ServerRejectsRule.ID);
    assertThat(r).as(Reports.text(a)).isNotNull();
    assertThat(r.change().jdbcProperties()).containsEntry("readOnlyPropagatesToServer", "false");
    assertThat(r.evidence()).anyMatch(e -> e.contains("set session transaction read only")
        && e.contains("ERROR 1235 (HY000) x300"));
    assertThat(r.change().notes()).anyMatch(n -> n.contains("tidb_enable_noop_functions = ON"));
    assertThat(r.risk()).contains("On TiDB nothing is lost");
    assertThat(r.expectations()).singleElement()
        .satisfies(e -> assertThat(e.metric()).isEqualTo(Metric.REJECTED_STATE_CHANGES_PER_STATEMENT));

    // Errors on the first screen, and per shape and code in every format.
    assertThat(a.errorsOnFirstScreen()).isTrue();
    assertThat(a.errors()).singleElement().satisfies(e -> {
      assertThat(e.code()).isEqualTo(1235);
      assertThat(e.count()).isEqualTo(300);
      assertThat(e.seconds()).isCloseTo(0.06, org.assertj.core.data.Offset.offset(1e-9));
    });
    String text = Reports.text(a);
    String firstScreen = text.substring(0, text.indexOf("Wire commands per business statement"))
        .replace("\n        ", " ");
    assertThat(firstScreen).contains("Errors: 300 ERR replies (50.0% of business statements, 60 ms waited):"
        + " ERROR 1235 (HY000) x300 on set session transaction read only");
    assertThat(text).contains("Errors by statement and code");
    assertThat(Reports.markdown(a)).contains("| 300 | 300 | ERROR 1235 (HY000) | 60 ms | `set session transaction read only`");
    assertThat(Reports.json(a).replaceAll("\\s", "")).contains(
        "\"errors\":{\"total\":300,\"onFirstScreen\":true,\"byStatementAndCode\":[{",
        "\"code\":1235,\"sqlState\":\"HY000\",\"count\":300,\"executions\":300,\"seconds\":0.06}");
    assertThat(Reports.html(a)).contains("id=\"errors-headline\"", "<section id=\"errors\">");
  }

  @Test
  void autocommitAndReadOnlyTogglesGetThePoolHibernateAndDriverLinesWithTheirRisk() {
    TrafficProfile p = spring(new App(), 300, 100);
    Analysis a = Advisor.analyze(p, TIDB);
    Recommendation r = a.recommendation(TransactionStateRule.ID);
    assertThat(r).as(Reports.text(a)).isNotNull();
    assertThat(r.change().poolSettings()).containsEntry("autoCommit", "false");
    assertThat(r.change().hibernateProperties())
        .containsEntry("hibernate.connection.provider_disables_autocommit", "true");
    assertThat(r.change().jdbcProperties()).containsEntry("readOnlyPropagatesToServer", "false");
    assertThat(r.risk()).contains("outside Spring transactions", "commits on its own");
    // 800 autocommit SETs and 600 read-only SETs of 2,600 wire commands.
    assertThat(r.evidence().get(0)).startsWith("1,400 transaction-state SETs for 600 business statements");
    assertThat(r.saving().roundTripsSaved()).isEqualTo(800 - CONNECTIONS + 600);
    String text = Reports.text(a);
    assertThat(text).contains("  spring.datasource.hikari.auto-commit=false\n",
        "  spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true\n",
        "  spring.datasource.hikari.data-source-properties.readOnlyPropagatesToServer=false\n",
        "Hibernate (hibernate.properties or persistence.xml):\n  hibernate.connection.provider_disables_autocommit=true\n");
  }

  @Test
  void maxPerformanceAlsoElidesTheReadWriteResetAfterARejectedReadOnly() {
    App app = new App();
    TrafficProfile before = spring(app, 300, 100);
    Analysis a = Advisor.analyze(before, TIDB);
    Recommendation probes = a.recommendation(SessionProbeRule.ID);
    assertThat(probes).as(Reports.text(a)).isNotNull();
    app.localSessionState = true;
    TrafficProfile after = spring(app, 300, 100);
    // The model's saving is what the traffic under maxPerformance really drops: the 300 resets.
    assertThat(probes.saving().roundTripsSaved())
        .isEqualTo(before.totalCommands() - after.totalCommands()).isEqualTo(300);
  }

  @Test
  void everyChangeTogetherIsEstimatedAsTheTrafficUnderThemAllRemovingEachStatementOnce() {
    TrafficProfile before = spring(new App(), 300, 100);
    Analysis a = Advisor.analyze(before, TIDB);
    App all = new App();
    all.localSessionState = true;
    all.readOnlyPropagates = false;
    all.poolAutoCommitOff = true;
    TrafficProfile after = spring(all, 300, 100);
    double measured = (double) after.totalCommands() / 600;
    assertThat(a.outlook().roundTripsPerStatementAfter()).isEqualTo(measured);
    // And diff holds each new change to its promise on that traffic.
    Comparison diff = Comparison.of(before, after, TIDB);
    for (Comparison.Item i : diff.items()) {
      if (i.recommendation().id().equals(TransactionStateRule.ID) || i.recommendation().id().equals(ServerRejectsRule.ID)) {
        assertThat(i.outcome().status()).as(i.outcome().expectation().description())
            .isEqualTo(Expectation.Outcome.Status.MET);
      }
    }
    assertThat(diff.items()).extracting(i -> i.recommendation().id())
        .contains(TransactionStateRule.ID, ServerRejectsRule.ID);
    // Unchanged traffic does not meet them.
    Comparison same = Comparison.of(before, before, TIDB);
    for (Comparison.Item i : same.items()) {
      if (i.recommendation().id().equals(TransactionStateRule.ID) || i.recommendation().id().equals(ServerRejectsRule.ID)) {
        assertThat(i.outcome().status()).isEqualTo(Expectation.Outcome.Status.NOT_MET);
      }
    }
  }

  @Test
  void belowTheMinimumEvidenceEachRuleSaysNotEnoughTrafficToJudge() {
    TrafficProfile p = spring(new App(), 6, 4); // 6 rejected SETs, 20 autocommit + 12 read-only SETs
    Analysis a = Advisor.analyze(p, TIDB);
    assertThat(a.ids()).doesNotContain(ServerRejectsRule.ID, TransactionStateRule.ID);
    assertThat(a.withheld()).extracting(Withheld::message).contains(
        "not enough traffic to judge session-state statements the server rejects (need at least 10"
            + " rejected read-only or isolation SETs; have 6)",
        "not enough traffic to judge autocommit and read-only SETs per transaction (need at least 100"
            + " such SETs; have 32)");
  }

  @Test
  void anApplicationThatTogglesAutocommitItselfIsNotToldThePoolSettingRemovesIt() {
    App app = new App();
    app.readOnlyPropagates = false; // no read-only SETs: nothing shows a transaction framework
    app.tidbRejectsReadOnly = false;
    Analysis a = Advisor.analyze(spring(app, 300, 100), TIDB);
    assertThat(a.ids()).doesNotContain(TransactionStateRule.ID, ServerRejectsRule.ID);
  }

  @Test
  void neitherFiresWhenTheSettingsAreInEffect() {
    App app = new App();
    app.localSessionState = true;
    app.readOnlyPropagates = false;
    app.poolAutoCommitOff = true;
    Analysis a = Advisor.analyze(spring(app, 300, 100), TIDB);
    assertThat(a.ids()).doesNotContain(ServerRejectsRule.ID, TransactionStateRule.ID, SessionProbeRule.ID);
    assertThat(a.errors()).isEmpty();
    assertThat(a.errorsOnFirstScreen()).isFalse();
  }

  @Test
  void anUnsupportedIsolationLevelIsRejectedEvidenceWithTiDBsSwitchAndItsRisk() {
    ProfileRecorder rec = new ProfileRecorder(RecorderSettings.defaults());
    WireSession s = new WireSession(rec, new WireSession.Budget(), () -> "setTransactionIsolation");
    for (int i = 0; i < 50; i++) {
      query(s, rec, "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE", 8048);
      execute(s, rec, "SELECT a.id FROM account a WHERE a.id = ?");
    }
    TrafficProfile p = rec.snapshot();
    assertThat(p.shapes().values()).anyMatch(sh -> sh.probe() == ProbeKind.ISOLATION_SET);
    Recommendation r = Advisor.analyze(p, TIDB).recommendation(ServerRejectsRule.ID);
    assertThat(r).isNotNull();
    assertThat(r.change().sql()).containsExactly("SET GLOBAL tidb_skip_isolation_level_check = ON;");
    assertThat(r.change().notes()).anyMatch(n -> n.contains("asks for SERIALIZABLE"));
    assertThat(r.risk()).contains("write skew");
  }
}
