package io.wireadvisor.profile;

import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.sql.StatementKind;
import java.util.Arrays;
import java.util.List;

/**
 * One connection's current transaction as {@link WireSession} judges its statement patterns: the
 * business shapes it ran, in order of first execution, with their executions, rows and time. At
 * the transaction's end ({@link #end}) it tells the recorder:
 *
 * <ul>
 *   <li><b>N+1</b>: a SELECT shape run at least {@link WireSession#N_PLUS_ONE_MIN_EXECUTIONS} times
 *       with every execution's rows counted and either none returning more than one row (to-one
 *       loads) or, for a shape keyed by one value, at most {@link #COLLECTION_ROWS} rows per
 *       execution on average (a lazy collection loaded one parent at a time: found on
 *       spring-petclinic-rest, whose vets' specialties and pets' visits load so); its partner is
 *       the shape run just before its first execution (the query whose rows were then loaded one
 *       by one); such a shape run exactly twice is recorded as <b>loaded-twice</b>, without a
 *       partner: not judged, but batch fetching merges those pairs too (the estimate counts them);
 *   <li><b>insert-then-update</b>: an UPDATE of a table an INSERT (or REPLACE) of the same
 *       transaction wrote before the UPDATE's first execution; it covers at most as many UPDATEs
 *       as there were INSERTs. The collectors compare tables, not rows: an UPDATE of another row
 *       of the table counts too (the rule says so).
 * </ul>
 *
 * <p>Fixed size: at most {@link #MAX_SHAPES} shapes per transaction (further shapes are not
 * judged), in arrays made once per connection ({@link #ACCOUNTED_BYTES}); recording an execution
 * allocates nothing. Used by one thread at a time, as its session is.
 */
final class TransactionPatterns {
  /**
   * Rows per execution, on average, up to which a one-value SELECT run in a loop is a collection
   * loaded one parent at a time; above it the loop reads sizeable results, which batching saves
   * little of.
   */
  static final long COLLECTION_ROWS = 50;
  /** Distinct business shapes judged per transaction; an ORM transaction rarely runs more. */
  static final int MAX_SHAPES = 16;
  /**
   * Accounted bytes of one connection's window: seven arrays of {@link #MAX_SHAPES} slots (three
   * of longs, three of ints, one of references) with their headers, and the object itself,
   * rounded up (ThreadMXBean's allocation count is asserted against it in TransactionPatternsTest).
   */
  static final long ACCOUNTED_BYTES = 1024;
  /**
   * Executions a run of statements outside transactions holds at most before it is judged: a
   * connection used outside any pool (a migration tool's own connection) has no borrow to end it.
   */
  static final int MAX_RUN_EXECUTIONS = 1000;

  private final ShapeHandle[] shapes = new ShapeHandle[MAX_SHAPES];
  private final int[] executions = new int[MAX_SHAPES];
  private final int[] counted = new int[MAX_SHAPES];
  private final int[] before = new int[MAX_SHAPES];
  private final long[] rows = new long[MAX_SHAPES];
  private final long[] maxRows = new long[MAX_SHAPES];
  private final long[] timed = new long[MAX_SHAPES];
  private final long[] nanos = new long[MAX_SHAPES];
  private int size;
  /**
   * The window holds a run of statements outside transactions, each already counted as a
   * transaction, judged together when the run ends (a pool borrow's end, a statement with autocommit
   * off, a BEGIN) or reaches {@link #MAX_RUN_EXECUTIONS}.
   */
  private boolean run;
  private int runExecutions;
  /** The slot of the last execution recorded, -1 after a statement not judged. */
  private int last = -1;
  private boolean business;

  /**
   * One execution of {@code shape} in the current transaction, its rows not counted yet (see
   * {@link #rows}). A statement mostly repeats the last one (a loop): that takes a few field
   * updates here, the rest goes through {@link #executed(ShapeHandle, long, long)}.
   */
  void executed(ShapeHandle shape, long latencyNanos) {
    int i = last;
    if (i < 0 || !shapes[i].sameShape(shape)) {
      executed(shape, latencyNanos, -1);
      return;
    }
    business = true; // a run outside transactions may have cleared it since (see outside)
    executions[i]++;
    if (latencyNanos >= 0) {
      timed[i]++;
      nanos[i] += latencyNanos;
    }
  }

  /**
   * One execution of {@code shape} in the current transaction, {@code rows} < 0 when its result
   * rows are not counted (yet: see {@link #rows}).
   */
  void executed(ShapeHandle shape, long latencyNanos, long resultRows) {
    if (!shape.judged()) {
      last = -1;
      return;
    }
    business = true;
    // A statement mostly repeats the last one (a loop): its slot then needs no search.
    int i = last >= 0 && shapes[last].sameShape(shape) ? last : slotOf(shape);
    if (i < 0) {
      if (size == MAX_SHAPES) {
        last = -1;
        return;
      }
      i = size++;
      shapes[i] = shape.compact();
      executions[i] = 0;
      counted[i] = 0;
      rows[i] = 0;
      maxRows[i] = 0;
      timed[i] = 0;
      nanos[i] = 0;
      before[i] = last;
    }
    executions[i]++;
    if (latencyNanos >= 0) {
      timed[i]++;
      nanos[i] += latencyNanos;
    }
    last = i;
    if (resultRows >= 0) {
      rows(resultRows);
    }
  }

  /** The last execution recorded returned {@code n} rows (a collector that reads them after). */
  void rows(long n) {
    if (last < 0) {
      return;
    }
    counted[last]++;
    rows[last] += n;
    maxRows[last] = Math.max(maxRows[last], n);
  }

  /** Shapes in the window now. */
  int size() {
    return size;
  }

  /** The transaction ended: its patterns go to their shapes, and the window empties. */
  void end(ProfileRecorder recorder) {
    if (business && recorder != null) {
      recorder.transaction();
    }
    if ((business || run) && recorder != null) {
      judge();
    }
    clear();
  }

  /**
   * A business statement ended outside any transaction (under autocommit): a transaction of its
   * own, counted now. {@code perBorrow}: the collector sees pool borrows, so the window stays open
   * and the statements of the run (up to the borrow's end) are judged together, as the
   * transaction the pool's {@code autoCommit=false} would make of them; else judged now.
   */
  void outside(ProfileRecorder recorder, boolean perBorrow) {
    if (!perBorrow) {
      end(recorder);
      return;
    }
    if (business && recorder != null) {
      recorder.transaction();
    }
    business = false;
    run = true;
    if (++runExecutions >= MAX_RUN_EXECUTIONS) {
      end(recorder);
    }
  }

  /** Whether the window holds a run of statements outside transactions ({@link #outside}). */
  boolean inRun() {
    return run;
  }

  /** Forgets the transaction without judging it (the connection ended or was reset). */
  void clear() {
    Arrays.fill(shapes, 0, size, null); // keep no shape of an old window alive
    size = 0;
    last = -1;
    business = false;
    run = false;
    runExecutions = 0;
  }

  private void judge() {
    for (int i = 0; i < size; i++) {
      ShapeStats s = shapes[i].stats();
      if (s.kind() == StatementKind.SELECT
          && executions[i] >= 2
          && counted[i] == executions[i]
          && (maxRows[i] <= 1 || (s.values() == 1 && rows[i] <= COLLECTION_ROWS * executions[i]))) {
        boolean loop = executions[i] >= WireSession.N_PLUS_ONE_MIN_EXECUTIONS;
        shapes[i].recordPattern(loop ? PatternStats.Kind.N_PLUS_ONE : PatternStats.Kind.LOADED_TWICE,
            !loop || before[i] < 0 ? "" : shapes[before[i]].digest(), executions[i], rows[i],
            timed[i], nanos[i]);
      } else if (s.kind() == StatementKind.UPDATE) {
        int insert = insertBefore(i);
        if (insert >= 0) {
          long n = Math.min(executions[i], executions[insert]);
          long t = Math.min(timed[i], n);
          long ns = timed[i] == 0 ? 0 : nanos[i] / timed[i] * t;
          shapes[i].recordPattern(PatternStats.Kind.INSERT_THEN_UPDATE, shapes[insert].digest(),
              n, 0, t, ns);
        }
      }
    }
  }

  /** The first INSERT or REPLACE before slot {@code update} writing a table it updates, or -1. */
  private int insertBefore(int update) {
    List<String> updated = shapes[update].stats().tablesWritten();
    for (int i = 0; i < update; i++) {
      ShapeStats s = shapes[i].stats();
      if (s.kind() != StatementKind.INSERT && s.kind() != StatementKind.REPLACE) {
        continue;
      }
      List<String> inserted = s.tablesWritten();
      for (int a = 0; a < updated.size(); a++) {
        for (int b = 0; b < inserted.size(); b++) {
          if (updated.get(a).equals(inserted.get(b))) {
            return i;
          }
        }
      }
    }
    return -1;
  }

  private int slotOf(ShapeHandle shape) {
    for (int i = 0; i < size; i++) {
      if (shapes[i].sameShape(shape)) {
        return i;
      }
    }
    return -1;
  }
}
