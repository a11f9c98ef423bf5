package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import org.junit.jupiter.api.Test;

/**
 * Pool borrows and statements outside transactions ({@link WireSession#borrowEnded}, {@link
 * Via#OUTSIDE_TRANSACTION}): what the advisor needs to count the ROLLBACKs a pool's {@code
 * autoCommit=false} adds, and N+1 loads judged per borrow when they ran under autocommit. Fed as
 * the collectors feed a session: the command, its record, then the reply's rows and status flags.
 */
class BorrowWindowTest {
  private static final int IN_TRANS = 0x0001; // a transaction open, autocommit off
  private static final int AUTOCOMMIT_IDLE = 0x0002; // autocommit on, no transaction open
  private static final int IDLE = 0x0000; // autocommit off, no transaction open

  private final ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
  private final WireSession.Budget budget = new WireSession.Budget();
  private final WireSession session = new WireSession(recorder, budget, null);

  private final ShapeHandle owner = recorder.shape("SELECT id, name FROM owners WHERE id = 1");
  private final ShapeHandle visits = recorder.shape("SELECT id, v FROM visits WHERE pet_id = 5");
  private final ShapeHandle commit = recorder.shape("COMMIT");
  private final ShapeHandle autocommitOff = recorder.shape("SET autocommit=0");
  private final ShapeHandle autocommitOn = recorder.shape("SET autocommit=1");
  private final ShapeHandle readOnly = recorder.shape("SET SESSION TRANSACTION READ ONLY");

  private void run(ShapeHandle shape, long rows, int status) {
    session.command(CommandType.QUERY, 1_000);
    session.query(shape, 1_000, WireSession.NO_ERROR, null);
    session.result(rows, status);
  }

  /** A Spring transaction on a pool with autoCommit=true: the SETs around it, one statement in it. */
  private void transaction() {
    run(autocommitOff, -1, IDLE);
    run(owner, 1, IN_TRANS);
    run(commit, -1, IDLE);
    run(autocommitOn, -1, AUTOCOMMIT_IDLE);
  }

  /** A borrow that loads an owner and then its pets' visits one pet at a time, under autocommit. */
  private void autocommitLoads(int pets) {
    run(owner, 1, AUTOCOMMIT_IDLE);
    for (int i = 0; i < pets; i++) {
      run(visits, 2, AUTOCOMMIT_IDLE);
    }
  }

  private ShapeStats stats(ShapeHandle h) {
    return recorder.snapshot().shape(h.digest());
  }

  /**
   * A multi-statement query under autocommit ("select ?; select ?; update ..."): the agent hears
   * each result (the first two with SERVER_MORE_RESULTS_EXISTS), the proxy only the last status.
   * Both count it as one execution outside a transaction, with the first result's rows.
   */
  @Test
  void aMultiResultReplyIsJudgedAtItsLastResultWithTheFirstResultsRows() {
    int more = AUTOCOMMIT_IDLE | 0x0008;
    ShapeHandle multi = recorder.shape("SELECT 1; SELECT 2; UPDATE acct SET bal = bal WHERE id = 1");
    session.command(CommandType.QUERY, 1_000);
    session.query(multi, 1_000, WireSession.NO_ERROR, null);
    session.result(1, more); // as the agent: each result
    session.result(3, more);
    session.result(-1, AUTOCOMMIT_IDLE);
    ShapeHandle proxied = recorder.shape("SELECT 3 FROM t2; UPDATE acct2 SET bal = bal WHERE id = 2");
    session.command(CommandType.QUERY, 1_000);
    session.query(proxied, 1_000, WireSession.NO_ERROR, null);
    session.result(1, AUTOCOMMIT_IDLE); // as the proxy: the first result's rows, the last status
    TrafficProfile p = recorder.snapshot();
    assertThat(p.shape(multi.digest()).count(Via.OUTSIDE_TRANSACTION)).isEqualTo(1);
    assertThat(p.shape(proxied.digest()).count(Via.OUTSIDE_TRANSACTION)).isEqualTo(1);
    assertThat(p.shape(multi.digest()).rows()).isEqualTo(p.shape(proxied.digest()).rows()).isEqualTo(1);
    assertThat(p.transactions()).isEqualTo(2);
    assertThat(p.outsideTransactionRuns()).isEqualTo(1);
  }

  @Test
  void borrowsThatRanStatementsOutsideTransactionsAreCounted() {
    autocommitLoads(2);
    session.borrowEnded(); // outside: counted
    transaction();
    session.borrowEnded(); // all in a transaction: not counted
    run(readOnly, -1, AUTOCOMMIT_IDLE); // a probe under autocommit is no business statement
    session.borrowEnded();
    autocommitLoads(0);
    session.borrowEnded();
    TrafficProfile p = recorder.snapshot();
    assertThat(p.poolBorrows()).isEqualTo(4);
    assertThat(p.borrowsOutsideTransaction()).isEqualTo(2);
    assertThat(p.outsideTransactionRuns()).isEqualTo(2);
    assertThat(stats(owner).count(Via.OUTSIDE_TRANSACTION)).isEqualTo(2);
    assertThat(stats(visits).count(Via.OUTSIDE_TRANSACTION)).isEqualTo(2);
    assertThat(stats(readOnly).count(Via.OUTSIDE_TRANSACTION)).isZero();
    // Each statement under autocommit is still a transaction of its own.
    assertThat(p.transactions()).isEqualTo(5);
  }

  @Test
  void withoutBorrowsRunsOfStatementsOutsideTransactionsApproximateThem() {
    autocommitLoads(1); // borrow 1
    autocommitLoads(1); // borrow 2, back to back on the connection: the same run
    transaction(); // SET autocommit=0's reply ends the run
    autocommitLoads(1); // borrow 4: a new run
    TrafficProfile p = recorder.snapshot();
    assertThat(p.poolBorrows()).isZero();
    assertThat(p.borrowsOutsideTransaction()).isZero();
    assertThat(p.outsideTransactionRuns()).isEqualTo(2);
  }

  @Test
  void withoutBorrowsLoadsUnderAutocommitAreJudgedOneByOneAsBefore() {
    for (int b = 0; b < 3; b++) {
      autocommitLoads(4);
    }
    assertThat(stats(visits).patterns()).isEmpty();
  }

  @Test
  void nPlusOneLoadsUnderAutocommitAreJudgedPerBorrow() {
    session.borrowEnded(); // the collector sees borrows (an earlier one)
    for (int b = 0; b < 3; b++) {
      autocommitLoads(4);
      session.borrowEnded();
    }
    PatternStats p = stats(visits).patterns().iterator().next();
    assertThat(p.kind()).isEqualTo(PatternStats.Kind.N_PLUS_ONE);
    assertThat(p.transactions()).isEqualTo(3);
    assertThat(p.executions()).isEqualTo(12);
    assertThat(p.rows()).isEqualTo(24);
    assertThat(p.partner()).isEqualTo(owner.digest());
    // Transactions are counted as the server ran them: one per statement.
    assertThat(recorder.snapshot().transactions()).isEqualTo(15);
  }

  @Test
  void aSessionOfTheSameCollectorJudgesPerBorrowOnceAnyBorrowWasSeen() {
    WireSession other = new WireSession(recorder, budget, null);
    other.borrowEnded();
    autocommitLoads(3);
    session.borrowEnded();
    assertThat(stats(visits).patterns()).hasSize(1);
  }

  @Test
  void aTransactionEndsTheRunAndIsJudgedOnItsOwn() {
    session.borrowEnded();
    run(visits, 1, AUTOCOMMIT_IDLE);
    run(visits, 1, AUTOCOMMIT_IDLE);
    transaction(); // the run of two ends at SET autocommit=0: below N+1's minimum
    run(visits, 1, AUTOCOMMIT_IDLE);
    session.borrowEnded();
    // Only the pair the estimate prices (a batch fetch merges it), never an N+1.
    assertThat(stats(visits).patterns()).singleElement().satisfies(p -> {
      assertThat(p.kind()).isEqualTo(PatternStats.Kind.LOADED_TWICE);
      assertThat(p.executions()).isEqualTo(2);
      assertThat(p.transactions()).isEqualTo(1);
    });
  }

  @Test
  void aRunWithoutABorrowEndIsJudgedAtItsBound() {
    session.borrowEnded();
    for (int i = 0; i < TransactionPatterns.MAX_RUN_EXECUTIONS + 5; i++) {
      run(visits, 1, AUTOCOMMIT_IDLE);
    }
    PatternStats p = stats(visits).patterns().iterator().next();
    assertThat(p.executions()).isEqualTo(TransactionPatterns.MAX_RUN_EXECUTIONS);
    assertThat(p.transactions()).isEqualTo(1);
  }

  @Test
  void borrowCountsSurviveJsonAndMerge() throws Exception {
    autocommitLoads(1);
    session.borrowEnded();
    transaction();
    session.borrowEnded();
    TrafficProfile p = recorder.snapshot();
    String json = ProfileJson.toJson(p);
    assertThat(json).containsPattern("\"borrows\"\\s*:\\s*\\{\\s*\"returned\"\\s*:\\s*2")
        .containsPattern("\"outsideTransaction\"\\s*:\\s*1");
    TrafficProfile back = ProfileJson.fromJson(json);
    assertThat(back).isEqualTo(p);
    assertThat(back.poolBorrows()).isEqualTo(2);
    assertThat(back.borrowsOutsideTransaction()).isEqualTo(1);
    assertThat(back.outsideTransactionRuns()).isEqualTo(1);
    TrafficProfile merged = back.merge(p);
    assertThat(merged.borrowsOutsideTransaction()).isEqualTo(2);
    assertThat(merged.shape(visits.digest()).count(Via.OUTSIDE_TRANSACTION)).isEqualTo(2);
  }

  @Test
  void aProfileClaimingMoreOutsideBorrowsThanBorrowsIsRefused() {
    autocommitLoads(1);
    session.borrowEnded();
    String json = ProfileJson.toJson(recorder.snapshot())
        .replaceFirst("\"outsideTransaction\"\\s*:\\s*1(\\s*,\\s*\"outsideTransactionRuns\")",
            "\"outsideTransaction\" : 3$1");
    assertThat(json).contains("\"outsideTransaction\" : 3");
    assertThatThrownBy(() -> ProfileJson.fromJson(json))
        .hasMessageContaining("borrows.outsideTransaction");
  }
}
