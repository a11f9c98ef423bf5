package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Statement patterns judged per transaction ({@link TransactionPatterns} through {@link
 * WireSession}): fed as both collectors feed a session (the command, its record, then the reply's
 * rows and status flags).
 */
class TransactionPatternsTest {
  private static final int IN_TRANS = 0x0001 | 0x0000; // SERVER_STATUS_IN_TRANS, autocommit off
  private static final int AUTOCOMMIT_IDLE = 0x0002; // autocommit on, no transaction open
  private static final int IDLE = 0x0000; // autocommit off, transaction ended (COMMIT's OK)

  private final ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
  private final WireSession session =
      new WireSession(recorder, new WireSession.Budget(), null);

  private final ShapeHandle parents = recorder.shape("SELECT id, name FROM parent WHERE owner = 1");
  private final ShapeHandle child = recorder.shape("SELECT id, v FROM child WHERE parent_id = 5");
  private final ShapeHandle insert = recorder.shape("INSERT INTO child (id, v) VALUES (1, 'a')");
  private final ShapeHandle update =
      recorder.shape("UPDATE child SET parent_id = 7 WHERE id = 1");
  private final ShapeHandle commit = recorder.shape("COMMIT");

  /** One text statement: recorded, then its reply's rows (-1: an OK) and status flags. */
  private void run(ShapeHandle shape, long rows, int status) {
    session.command(CommandType.QUERY, 1_000);
    session.query(shape, 1_000, WireSession.NO_ERROR, null);
    session.result(rows, status);
  }

  private void commit() {
    run(commit, -1, IDLE);
  }

  private static PatternStats only(ShapeStats s) {
    assertThat(s.patterns()).hasSize(1);
    return s.patterns().iterator().next();
  }

  private ShapeStats stats(ShapeHandle h) {
    return recorder.snapshot().shape(h.digest());
  }

  @Test
  void aSelectRunOneRowAtATimeInATransactionIsNPlusOneAfterTheQueryBeforeIt() {
    for (int t = 0; t < 3; t++) {
      run(parents, 4, IN_TRANS);
      for (int i = 0; i < 4; i++) {
        run(child, i % 2, IN_TRANS); // lazy loads: one row, or none
      }
      commit();
    }
    PatternStats p = only(stats(child));
    assertThat(p.kind()).isEqualTo(PatternStats.Kind.N_PLUS_ONE);
    assertThat(p.partner()).isEqualTo(parents.digest());
    assertThat(p.transactions()).isEqualTo(3);
    assertThat(p.executions()).isEqualTo(12);
    assertThat(p.rows()).isEqualTo(6);
    assertThat(p.timed()).isEqualTo(12);
    assertThat(p.nanos()).isEqualTo(12_000);
    assertThat(stats(parents).patterns()).isEmpty();
    // Rows per execution, recorded for every result set read in full.
    assertThat(stats(child).rowsCounted()).isEqualTo(12);
    assertThat(stats(child).rows()).isEqualTo(6);
    assertThat(stats(parents).rows()).isEqualTo(12);
    assertThat(recorder.snapshot().transactions()).isEqualTo(3);
  }

  @Test
  void aSelectOfSeveralValuesReturningManyRowsEachTimeIsNotNPlusOne() {
    ShapeHandle range = recorder.shape("SELECT id, v FROM child WHERE parent_id BETWEEN 5 AND 9");
    for (int t = 0; t < 3; t++) {
      for (int i = 0; i < 10; i++) {
        run(range, 5, IN_TRANS);
      }
      commit();
    }
    assertThat(stats(range).patterns()).isEmpty();
    // One execution of many rows among one-row ones is enough to clear the transaction.
    for (int i = 0; i < 10; i++) {
      run(range, i == 3 ? 2 : 1, IN_TRANS);
    }
    commit();
    assertThat(stats(range).patterns()).isEmpty();
  }

  @Test
  void aCollectionLoadedOneParentAtATimeIsNPlusOne() {
    // spring-petclinic-rest's /vets: each vet's specialties, one vet at a time (0 to 2 rows each).
    for (int t = 0; t < 3; t++) {
      run(parents, 6, IN_TRANS);
      for (int i = 0; i < 6; i++) {
        run(child, i % 3, IN_TRANS);
      }
      commit();
    }
    assertThat(stats(child).values()).isEqualTo(1);
    PatternStats p = only(stats(child));
    assertThat(p.kind()).isEqualTo(PatternStats.Kind.N_PLUS_ONE);
    assertThat(p.partner()).isEqualTo(parents.digest());
    assertThat(p.executions()).isEqualTo(18);
    assertThat(p.rows()).isEqualTo(18);
  }

  @Test
  void aOneValueSelectReturningLargeResultsInALoopIsNotNPlusOne() {
    for (int t = 0; t < 3; t++) {
      for (int i = 0; i < 4; i++) {
        run(child, i == 0 ? 1 : TransactionPatterns.COLLECTION_ROWS * 2, IN_TRANS);
      }
      commit();
    }
    assertThat(stats(child).patterns()).isEmpty();
  }

  @Test
  void oneRowSelectsInDifferentTransactionsAreNotNPlusOne() {
    // Autocommit: each statement is a transaction of its own (the reply's status says so).
    for (int i = 0; i < 50; i++) {
      run(child, 1, AUTOCOMMIT_IDLE);
    }
    assertThat(stats(child).patterns()).isEmpty();
    // Explicit transactions with two executions each: below the minimum per transaction, kept as
    // pairs (what batch fetching merges too), not as N+1.
    for (int t = 0; t < 20; t++) {
      run(child, 1, IN_TRANS);
      run(child, 1, IN_TRANS);
      commit();
    }
    PatternStats pair = only(stats(child));
    assertThat(pair.kind()).isEqualTo(PatternStats.Kind.LOADED_TWICE);
    assertThat(stats(child).pattern(PatternStats.Kind.N_PLUS_ONE, "")).isNull();
    assertThat(recorder.snapshot().transactions()).isEqualTo(70);
  }

  @Test
  void aSelectLoadedTwiceInATransactionIsAPairWithoutPartnerUnderTheSameRowConditions() {
    // spring-petclinic-rest's owner with two pets: each pet's visits, then each pet's type.
    ShapeHandle many = recorder.shape("SELECT id, v FROM child WHERE parent_id BETWEEN 5 AND 9");
    for (int t = 0; t < 4; t++) {
      run(parents, 2, IN_TRANS);
      run(child, 6, IN_TRANS); // a one-value collection: up to 50 rows each on average
      run(child, 0, IN_TRANS);
      run(many, 5, IN_TRANS); // several values, many rows: not a load
      run(many, 5, IN_TRANS);
      commit();
    }
    run(child, 1, IN_TRANS); // once: nothing
    commit();
    PatternStats p = only(stats(child));
    assertThat(p.kind()).isEqualTo(PatternStats.Kind.LOADED_TWICE);
    assertThat(p.partner()).isEmpty();
    assertThat(p.transactions()).isEqualTo(4);
    assertThat(p.executions()).isEqualTo(8);
    assertThat(p.rows()).isEqualTo(24);
    assertThat(stats(many).patterns()).isEmpty();
    assertThat(stats(parents).patterns()).isEmpty();
  }

  @Test
  void aCommitEndsTheTransactionEvenWithoutStatusFlags() {
    for (int t = 0; t < 2; t++) {
      for (int i = 0; i < 3; i++) {
        run(child, 1, -1); // a collector without the flags (a pipelined reply)
      }
      run(commit, -1, -1);
    }
    PatternStats p = only(stats(child));
    assertThat(p.transactions()).isEqualTo(2);
    assertThat(p.executions()).isEqualTo(6);
  }

  @Test
  void rowsNotCountedLeaveTheSelectUnjudged() {
    for (int i = 0; i < 5; i++) {
      run(child, -1, IN_TRANS); // streamed or cursor: rows unknown
    }
    commit();
    assertThat(stats(child).patterns()).isEmpty();
    assertThat(stats(child).rowsCounted()).isZero();
  }

  @Test
  void anUpdateOfATableInsertedIntoBeforeIsInsertThenUpdateCountedAsOftenAsTheInserts() {
    for (int t = 0; t < 4; t++) {
      for (int i = 0; i < 3; i++) {
        run(insert, -1, IN_TRANS);
      }
      for (int i = 0; i < 3; i++) {
        run(update, -1, IN_TRANS);
      }
      run(update, -1, IN_TRANS); // one more UPDATE than INSERTs: not a pair
      commit();
    }
    PatternStats p = only(stats(update));
    assertThat(p.kind()).isEqualTo(PatternStats.Kind.INSERT_THEN_UPDATE);
    assertThat(p.partner()).isEqualTo(insert.digest());
    assertThat(p.transactions()).isEqualTo(4);
    assertThat(p.executions()).isEqualTo(12);
    assertThat(p.timed()).isEqualTo(12);
    assertThat(stats(insert).patterns()).isEmpty();
  }

  @Test
  void anUpdateBeforeTheInsertOrInAnotherTransactionIsNoPair() {
    for (int t = 0; t < 3; t++) {
      run(update, -1, IN_TRANS);
      run(insert, -1, IN_TRANS);
      commit();
      run(insert, -1, IN_TRANS);
      commit();
      run(update, -1, IN_TRANS);
      commit();
      run(insert, -1, AUTOCOMMIT_IDLE);
      run(update, -1, AUTOCOMMIT_IDLE);
    }
    assertThat(stats(update).patterns()).isEmpty();
  }

  @Test
  void aResetConnectionForgetsTheOpenTransaction() {
    run(child, 1, IN_TRANS);
    run(child, 1, IN_TRANS);
    session.forgetStatements(); // COM_RESET_CONNECTION: the server rolled it back
    run(child, 1, IN_TRANS);
    commit();
    assertThat(stats(child).patterns()).isEmpty();
  }

  @Test
  void patternsSurviveJsonAndMergeAcrossSources() throws Exception {
    for (int t = 0; t < 2; t++) {
      run(parents, 3, IN_TRANS);
      for (int i = 0; i < 3; i++) {
        run(child, 1, IN_TRANS);
      }
      run(insert, -1, IN_TRANS);
      run(update, -1, IN_TRANS);
      commit();
      run(parents, 1, IN_TRANS);
      run(parents, 1, IN_TRANS);
      commit();
    }
    TrafficProfile p = recorder.snapshot();
    String json = ProfileJson.toJson(p);
    assertThat(json).contains("\"patterns\"").contains("\"n+1\"").contains("\"insert-then-update\"")
        .contains("\"loaded-twice\"")
        .containsPattern("\"transactions\"\\s*:\\s*2");
    TrafficProfile read = ProfileJson.fromJson(json);
    assertThat(read).isEqualTo(p);
    TrafficProfile merged = read.merge(p);
    PatternStats n = only(merged.shape(child.digest()));
    assertThat(n.executions()).isEqualTo(12);
    assertThat(n.transactions()).isEqualTo(4);
    assertThat(merged.shape(child.digest()).rows()).isEqualTo(12);
    assertThat(only(merged.shape(update.digest())).executions()).isEqualTo(4);
    assertThat(only(merged.shape(parents.digest())).kind()).isEqualTo(PatternStats.Kind.LOADED_TWICE);
    assertThat(only(merged.shape(parents.digest())).executions()).isEqualTo(8);
    assertThat(merged.transactions()).isEqualTo(8);
  }

  @Test
  void aShapeKeepsAtMostMaxPatternsAndFoldsTheRestWithoutPartner() {
    ShapeStats s = stats(child).copy();
    for (int i = 0; i < 20; i++) {
      s.addPattern(PatternStats.Kind.N_PLUS_ONE, "partner" + i, 1, 3, 3, 3, 30);
    }
    assertThat(s.patterns()).hasSizeLessThanOrEqualTo(ShapeStats.MAX_PATTERNS);
    long executions = 0;
    for (PatternStats p : s.patterns()) {
      executions += p.executions();
    }
    assertThat(executions).isEqualTo(60); // nothing lost
    assertThat(s.pattern(PatternStats.Kind.N_PLUS_ONE, "")).isNotNull();
  }

  @Test
  void theWindowIsBoundedInShapesAndBytesAndAllocatesNothingOnceMade() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = mx.getThreadAllocatedBytes(id);
    TransactionPatterns window = new TransactionPatterns();
    long made = mx.getThreadAllocatedBytes(id) - before;
    assertThat(made).isLessThanOrEqualTo(TransactionPatterns.ACCOUNTED_BYTES);
    assertThat(session.patternBytes()).isEqualTo(WireSession.PATTERN_WINDOW_BYTES);

    ShapeHandle[] many = new ShapeHandle[200];
    for (int i = 0; i < many.length; i++) {
      many[i] = recorder.shape("SELECT v FROM t" + i + " WHERE id = 1").compact();
    }
    // Warm: one transaction through every path.
    for (ShapeHandle h : many) {
      window.executed(h, 10, 1);
    }
    window.clear();
    int largest = 0;
    long start = mx.getThreadAllocatedBytes(id);
    for (int t = 0; t < 1_000; t++) {
      for (ShapeHandle h : many) {
        window.executed(h, 10, 1); // 200 shapes: only the first MAX_SHAPES are kept
      }
      largest = Math.max(largest, window.size());
      window.clear();
    }
    long allocated = mx.getThreadAllocatedBytes(id) - start;
    assertThat(largest).isEqualTo(TransactionPatterns.MAX_SHAPES);
    assertThat(allocated).isLessThan(4096);
  }
}
