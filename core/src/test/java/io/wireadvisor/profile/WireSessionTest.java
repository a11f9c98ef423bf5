package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.sql.ProbeKind;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

class WireSessionTest {
  private final ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
  private final WireSession.Budget budget = new WireSession.Budget();

  private static ShapeStats shape(TrafficProfile p, String digestTextPrefix) {
    return p.shapes().values().stream()
        .filter(s -> s.digestText().startsWith(digestTextPrefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no shape " + digestTextPrefix + " in " + p.shapes()));
  }

  @Test
  void aSetSqlModeTheServerRefusedLeavesTheModeUnknownNotAsTheTextSaid() {
    // Found by the attacker's rerun of issue 28: TiDB refused SET sql_mode='NO_BACKSLASH_ESCAPES,NOPE'
    // (ERROR 1231, no status flags), the lexer kept NO_BACKSLASH, and the next ALTER USER's
    // 'p\' Secret ' put the secret in a digest.
    WireSession s = new WireSession(recorder, budget, null);
    s.serverStatus(0x0002); // autocommit, backslash escapes: what the server said
    s.sent(io.wireadvisor.sql.SqlClassifier.classify("SET SESSION sql_mode='NO_BACKSLASH_ESCAPES,NOPE'",
        io.wireadvisor.sql.Escaping.BACKSLASH));
    assertThat(s.escaping()).isEqualTo(io.wireadvisor.sql.Escaping.NO_BACKSLASH);
    s.errorReply();
    assertThat(s.escaping()).isEqualTo(io.wireadvisor.sql.Escaping.UNKNOWN);

    // A mode the server's own flags told survives a failed statement.
    s.serverStatus(0x0002 | io.wireadvisor.sql.Escaping.SERVER_STATUS_NO_BACKSLASH_ESCAPES);
    s.errorReply();
    assertThat(s.escaping()).isEqualTo(io.wireadvisor.sql.Escaping.NO_BACKSLASH);

    // A SET that ran is confirmed by the OK that follows it: no longer a guess.
    s.sent(io.wireadvisor.sql.SqlClassifier.classify("SET sql_mode=''", io.wireadvisor.sql.Escaping.NO_BACKSLASH));
    s.serverStatus(0x0002);
    s.errorReply();
    assertThat(s.escaping()).isEqualTo(io.wireadvisor.sql.Escaping.BACKSLASH);
  }

  @Test
  void aFailedPrepareIsACommandAndAnErrorButNoStatementOfTheConnection() {
    WireSession s = new WireSession(recorder, budget, null);
    ShapeHandle select = recorder.shape("SELECT v FROM t WHERE id = ?");
    s.command(CommandType.STMT_PREPARE, 10);
    s.prepare(select, 10, true);
    s.command(CommandType.STMT_PREPARE, 10);
    s.prepare(select, 10, false);
    assertThat(s.prepared(7, select)).isTrue();
    s.command(CommandType.STMT_EXECUTE, 10);
    s.statementCommand(s.statement(7), Via.EXECUTES, 10, false);
    s.end();

    TrafficProfile p = recorder.snapshot();
    ShapeStats stats = shape(p, "select v from t");
    assertThat(stats.count(Via.PREPARES)).isEqualTo(2);
    assertThat(stats.count(Via.ERRORS)).isEqualTo(1);
    assertThat(stats.count(Via.EXECUTES)).isEqualTo(1);
    assertThat(p.connections().distribution(ConnectionMetric.PREPARED_STATEMENTS).sum())
        .as("only the PREPARE_OK made a statement")
        .isEqualTo(1);
    assertThat(p.connections().distribution(ConnectionMetric.COMMANDS).sum()).isEqualTo(3);
    assertThat(p.count(CommandType.STMT_PREPARE)).isEqualTo(2);
  }

  @Test
  void closeForgetsTheIdAndGivesItsBytesBack() {
    WireSession s = new WireSession(recorder, budget, null);
    ShapeHandle select = recorder.shape("SELECT 1 FROM t WHERE id = ?");
    s.prepared(1, select);
    s.prepared(2, select);
    assertThat(s.statementBytes()).isEqualTo(2 * WireSession.STATEMENT_ENTRY_BYTES);
    assertThat(s.close(1)).isNotNull();
    assertThat(s.statement(1)).isNull();
    assertThat(s.close(1)).as("twice: unknown").isNull();
    assertThat(s.statement(2)).isNotNull();
    assertThat(s.statement(WireSession.LAST_PREPARED_ID)).as("MariaDB's -1").isSameAs(select);
    s.forgetStatements();
    assertThat(s.statement(2)).isNull();
    assertThat(s.statement(WireSession.LAST_PREPARED_ID)).isNull();
    s.statementCommand(select, Via.EXECUTES, 1, false); // used: held in the budget
    s.end();
    s.release();
    assertThat(budget.used()).isZero();
  }

  @Test
  void theStatementTableIsBoundedInBytesPerSessionAndOverAllSessions() {
    long perSession = 100 * WireSession.STATEMENT_ENTRY_BYTES;
    long total = 250 * WireSession.STATEMENT_ENTRY_BYTES;
    ShapeHandle select = recorder.shape("SELECT v FROM t WHERE id = ?");
    WireSession[] sessions = new WireSession[4];
    int remembered = 0;
    for (int i = 0; i < sessions.length; i++) {
      sessions[i] = new WireSession(recorder, budget, null);
      sessions[i].limits(perSession, total);
      for (int id = 0; id < 10_000; id++) {
        if (sessions[i].prepared(id, select)) {
          remembered++;
        }
      }
      assertThat(sessions[i].statementBytes()).isLessThanOrEqualTo(perSession);
      assertThat(sessions[i].statements()).isLessThanOrEqualTo(100);
    }
    assertThat(budget.used()).isEqualTo(total).isEqualTo(remembered * WireSession.STATEMENT_ENTRY_BYTES);
    assertThat(budget.untrackedStatements()).isEqualTo(4 * 10_000 - 250);
    // Still counted per connection, even when not remembered by id.
    for (WireSession s : sessions) {
      s.end();
    }
    assertThat(recorder.snapshot().connections().distribution(ConnectionMetric.PREPARED_STATEMENTS).sum())
        .isEqualTo(40_000);
    for (WireSession s : sessions) {
      s.release();
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void usedShapesAreRecordedOncePerConnectionAndBounded() {
    WireSession s = new WireSession(recorder, budget, null);
    s.limits(1L << 20, 10 * WireSession.USED_SHAPE_ENTRY_BYTES);
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 20; i++) {
        s.query(recorder.shape("SELECT c" + i + " FROM t"), 5, false);
      }
    }
    s.end();
    TrafficProfile p = recorder.snapshot();
    assertThat(p.connections().distribution(ConnectionMetric.DISTINCT_SHAPES).sum())
        .as("a lower bound past the budget")
        .isEqualTo(10);
    assertThat(budget.used()).isEqualTo(10 * WireSession.USED_SHAPE_ENTRY_BYTES);
    assertThat(shape(p, "select c0 from t").count(Via.TEXT_EXECUTES)).isEqualTo(3);
  }

  @Test
  void probesCarryTheirCauseAndStatementsTheirIsolation() {
    WireSession s = new WireSession(recorder, budget, () -> "com.example.Dao.find");
    s.isolation(ProfileRecorder.isolationIndex("READ-COMMITTED"));
    s.query(recorder.shape("SELECT @@session.transaction_read_only"), 5, false);
    s.query(recorder.shape("SELECT v FROM t WHERE id = 1"), 5, false);
    s.query(recorder.shape("SELECT v FROM t WHERE id = 2"), 5, false);
    TrafficProfile p = recorder.snapshot();
    assertThat(p.probes().get(ProbeKind.READ_ONLY_READ).causes())
        .containsEntry("com.example.Dao.find", 1L);
    assertThat(p.statementsByIsolation()).containsEntry("READ-COMMITTED", 2L);
  }

  @Test
  void afterARebindStatementsMoveToTheNewRecorderWithoutKeepingTheOldOneAlive() throws Exception {
    ProfileRecorder old = new ProfileRecorder(RecorderSettings.defaults());
    WireSession s = new WireSession(old, budget, null);
    s.prepared(3, old.shape("SELECT v FROM t WHERE id = ?"));
    WeakReference<ProfileRecorder> oldRef = new WeakReference<>(old);
    s.bindTo(recorder);
    old = null;
    for (int i = 0; i < 10 && oldRef.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(oldRef.get()).as("the old window's recorder").isNull();
    ShapeHandle moved = s.statement(3);
    assertThat(recorder.owns(moved)).isTrue();
    s.statementCommand(moved, Via.EXECUTES, 1, false);
    assertThat(shape(recorder.snapshot(), "select v from t").count(Via.EXECUTES)).isEqualTo(1);
    assertThat(recorder.snapshot().connections().connections()).isEqualTo(1);
  }

  // ---- isolation and access mode followed from texts (the proxy) --------------------------

  private static final int IN_TRANS = 0x0001;
  private static final int AUTOCOMMIT = 0x0002;

  /** Sends {@code sql} as a COM_QUERY and completes it with an OK of {@code status}. */
  private void run(WireSession s, String sql, int status) {
    ShapeHandle h = recorder.shape(sql);
    s.sent(h.classification());
    s.serverStatus(status);
    s.command(CommandType.QUERY, 10);
    s.query(h, 10, false);
  }

  private long under(String isolation) {
    Long n = recorder.snapshot().statementsByIsolation().get(isolation);
    return n == null ? 0 : n;
  }

  @Test
  void statementsCountUnderTheSessionsLoginDefaultUntilATextSetsTheIsolation() {
    WireSession s = new WireSession(recorder, budget, null);
    s.followTransactionSets(false);
    run(s, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT);
    run(s, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 2", AUTOCOMMIT);
    run(s, "UPDATE t SET v = 1 WHERE id = 2", AUTOCOMMIT);
    run(s, "SET @@session.transaction_isolation = 'SERIALIZABLE'", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 3", AUTOCOMMIT);
    run(s, "SET transaction_isolation = DEFAULT", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 4", AUTOCOMMIT);
    assertThat(recorder.snapshot().statementsByIsolation())
        .containsEntry("default", 2L)
        .containsEntry("READ-COMMITTED", 2L)
        .containsEntry("SERIALIZABLE", 1L);
  }

  @Test
  void setTransactionWithoutScopeHoldsForTheNextTransactionOnly() {
    WireSession s = new WireSession(recorder, budget, null);
    s.followTransactionSets(false);
    run(s, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ", AUTOCOMMIT);
    run(s, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", AUTOCOMMIT);
    assertThat(s.isolation()).isEqualTo(ProfileRecorder.isolationIndex("READ-COMMITTED"));
    run(s, "BEGIN", AUTOCOMMIT | IN_TRANS);
    run(s, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT | IN_TRANS);
    run(s, "UPDATE t SET v = 2 WHERE id = 1", AUTOCOMMIT | IN_TRANS);
    run(s, "COMMIT", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT);
    assertThat(under("READ-COMMITTED")).isEqualTo(2);
    assertThat(under("REPEATABLE-READ")).isEqualTo(1);

    // In autocommit mode one statement is the transaction.
    run(s, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 2", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 3", AUTOCOMMIT);
    assertThat(under("SERIALIZABLE")).isEqualTo(1);
    assertThat(under("REPEATABLE-READ")).isEqualTo(2);
  }

  @Test
  void theUnscopedVariableIsTheNextTransactionsOnMySqlAndTheSessionsElsewhere() {
    WireSession mysql = new WireSession(recorder, budget, null);
    mysql.followTransactionSets(true);
    run(mysql, "SET @@transaction_isolation = 'READ-COMMITTED'", AUTOCOMMIT);
    run(mysql, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT);
    assertThat(mysql.isolation()).isEqualTo(ProfileRecorder.DEFAULT_ISOLATION);

    WireSession tidb = new WireSession(recorder, budget, null);
    tidb.followTransactionSets(false);
    run(tidb, "SET @@transaction_isolation = 'READ-COMMITTED'", AUTOCOMMIT);
    run(tidb, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT);
    assertThat(tidb.isolation()).isEqualTo(ProfileRecorder.isolationIndex("READ-COMMITTED"));
  }

  @Test
  void aRefusedSetLeavesTheIsolationAsItWas() {
    WireSession s = new WireSession(recorder, budget, null);
    s.followTransactionSets(false);
    run(s, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", AUTOCOMMIT);
    run(s, "BEGIN", AUTOCOMMIT | IN_TRANS);
    // MySQL: ERROR 1568, characteristics cannot change while a transaction is in progress.
    ShapeHandle set = recorder.shape("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
    s.sent(set.classification());
    s.errorReply();
    s.query(set, 10, true);
    run(s, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT | IN_TRANS);
    run(s, "COMMIT", AUTOCOMMIT);
    assertThat(under("SERIALIZABLE")).isZero();
    assertThat(under("READ-COMMITTED")).isEqualTo(1);
  }

  @Test
  void accessModeFollowsSessionNextAndStartTransaction() {
    WireSession s = new WireSession(recorder, budget, null);
    s.followTransactionSets(false);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_DEFAULT);
    run(s, "SET SESSION TRANSACTION READ ONLY", AUTOCOMMIT);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_READ_ONLY);
    run(s, "SET SESSION TRANSACTION READ WRITE", AUTOCOMMIT);
    run(s, "START TRANSACTION READ ONLY", AUTOCOMMIT | IN_TRANS);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_READ_ONLY);
    run(s, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT | IN_TRANS);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_READ_ONLY);
    run(s, "COMMIT", AUTOCOMMIT);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_READ_WRITE);
    run(s, "SET TRANSACTION READ ONLY", AUTOCOMMIT);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_READ_ONLY);
    run(s, "SELECT v FROM t WHERE id = 2", AUTOCOMMIT);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_READ_WRITE);
    run(s, "SET @@session.transaction_read_only = @x", AUTOCOMMIT);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_UNKNOWN);
  }

  @Test
  void aNewSessionStateTakesTheLoginDefaultsAgain() {
    WireSession s = new WireSession(recorder, budget, null);
    s.followTransactionSets(false);
    run(s, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED, READ ONLY", AUTOCOMMIT);
    s.sessionReset(); // COM_RESET_CONNECTION or COM_CHANGE_USER
    assertThat(s.isolation()).isEqualTo(ProfileRecorder.DEFAULT_ISOLATION);
    assertThat(s.accessMode()).isEqualTo(WireSession.ACCESS_DEFAULT);
  }

  @Test
  void theAgentsSessionIgnoresTransactionTextsAndCountsWhatItIsTold() {
    WireSession s = new WireSession(recorder, budget, null);
    s.isolation(ProfileRecorder.isolationIndex("REPEATABLE-READ"));
    run(s, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", AUTOCOMMIT);
    run(s, "SELECT v FROM t WHERE id = 1", AUTOCOMMIT);
    assertThat(under("REPEATABLE-READ")).isEqualTo(1);
    assertThat(under("READ-COMMITTED")).isZero();
  }

  @Test
  void followingTransactionsHoldsNoMemoryWhateverTheTraffic() {
    WireSession s = new WireSession(recorder, budget, null);
    s.followTransactionSets(false);
    String[] levels = {"READ COMMITTED", "SERIALIZABLE", "REPEATABLE READ", "READ UNCOMMITTED"};
    for (int i = 0; i < 8; i++) { // four shapes, each paid for once as a shape used
      run(s, "SET " + (i % 2 == 0 ? "SESSION " : "") + "TRANSACTION ISOLATION LEVEL " + levels[i % 4],
          AUTOCOMMIT);
    }
    long before = s.accountedBytes();
    assertThat(before).isEqualTo(4 * WireSession.USED_SHAPE_ENTRY_BYTES);
    for (int i = 0; i < 10_000; i++) {
      run(s, "SET " + (i % 2 == 0 ? "SESSION " : "") + "TRANSACTION ISOLATION LEVEL " + levels[i % 4],
          AUTOCOMMIT);
    }
    assertThat(s.accountedBytes()).isEqualTo(before);
    assertThat(budget.used()).isEqualTo(s.accountedBytes());
  }
}
