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
}
