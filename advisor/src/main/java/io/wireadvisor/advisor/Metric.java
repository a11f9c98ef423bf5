package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.util.Locale;

/** A ratio computed from a profile, used by {@link Expectation}s and reports. NaN = not defined. */
public enum Metric {
  /** Business statements sent as COM_QUERY text, per business statement. */
  TEXT_PROTOCOL_SHARE("COM_QUERY text share of statements") {
    @Override
    public double compute(TrafficProfile p) {
      return Workload.of(p).textShare();
    }
  },
  /** Session-variable probes per business statement. */
  PROBES_PER_STATEMENT("session probes per statement") {
    @Override
    public double compute(TrafficProfile p) {
      Workload w = Workload.of(p);
      return Workload.ratio(w.sessionProbes, w.businessExecutions);
    }
  },
  /**
   * Reads of the isolation level and read-only flag per business statement: the probes
   * {@code useLocalSessionState} answers locally. SETs are not counted: the driver still sends
   * those that change the session's state.
   */
  STATE_READS_PER_STATEMENT("isolation/read-only reads per statement") {
    @Override
    public double compute(TrafficProfile p) {
      Workload w = Workload.of(p);
      return Workload.ratio(w.stateReads, w.businessExecutions);
    }
  },
  /** COM_STMT_PREPARE per COM_STMT_EXECUTE. */
  PREPARES_PER_EXECUTE("PREPARE per EXECUTE") {
    @Override
    public double compute(TrafficProfile p) {
      Workload w = Workload.of(p);
      return Workload.ratio(w.prepares, w.executes);
    }
  },
  /** COM_STMT_CLOSE per COM_STMT_EXECUTE. */
  CLOSES_PER_EXECUTE("CLOSE per EXECUTE") {
    @Override
    public double compute(TrafficProfile p) {
      Workload w = Workload.of(p);
      return Workload.ratio(w.closes, w.executes);
    }
  },
  /** COM_STMT_RESET per COM_STMT_EXECUTE. */
  RESETS_PER_EXECUTE("RESET per EXECUTE") {
    @Override
    public double compute(TrafficProfile p) {
      Workload w = Workload.of(p);
      return Workload.ratio(w.resets, w.executes);
    }
  },
  /** Wire executions of batched INSERT shapes per statement added to a batch. */
  COMMANDS_PER_BATCHED_INSERT("wire commands per batched INSERT row") {
    @Override
    public double compute(TrafficProfile p) {
      long wire = 0;
      long batched = 0;
      for (ShapeStats s : p.shapes().values()) {
        if (s.kind() == StatementKind.INSERT && s.count(Via.BATCHED_STATEMENTS) > 0) {
          wire += s.executions();
          batched += s.count(Via.BATCHED_STATEMENTS);
        }
      }
      return Workload.ratio(wire, batched);
    }
  },
  /** COM_PING plus validation queries per business statement. */
  VALIDATIONS_PER_STATEMENT("connection validations per statement") {
    @Override
    public double compute(TrafficProfile p) {
      Workload w = Workload.of(p);
      return Workload.ratio(p.count(CommandType.PING) + w.validationProbes, w.businessExecutions);
    }
  },
  /**
   * Transaction-state changes per business statement: executions of {@code SET autocommit} and
   * {@code SET SESSION TRANSACTION READ ONLY|READ WRITE} (what {@link TransactionStateRule}'s
   * settings remove).
   */
  STATE_CHANGES_PER_STATEMENT("autocommit/read-only SETs per statement") {
    @Override
    public long count(TrafficProfile p) {
      long n = 0;
      for (ShapeStats s : p.shapes().values()) {
        if (s.probe() == ProbeKind.AUTOCOMMIT_SET || s.probe() == ProbeKind.READ_ONLY_SET) {
          n += s.executions();
        }
      }
      return n;
    }
  },
  /**
   * ERR replies to the session-state statements a driver, pool or framework sends (probes), per
   * business statement: what {@link ServerRejectsRule} removes.
   */
  REJECTED_STATE_CHANGES_PER_STATEMENT("rejected session-state statements per statement") {
    @Override
    public long count(TrafficProfile p) {
      long n = 0;
      for (ShapeStats s : p.shapes().values()) {
        if (s.probe() != null) {
          n += s.count(Via.ERRORS);
        }
      }
      return n;
    }
  },
  /** ERR replies of any statement per business statement. */
  ERRORS_PER_STATEMENT("ERR replies per statement") {
    @Override
    public long count(TrafficProfile p) {
      long n = 0;
      for (ShapeStats s : p.shapes().values()) {
        n += s.count(Via.ERRORS);
      }
      return n;
    }
  },
  /**
   * Executions that belong to statement patterns (N+1 loading, UPDATEs after INSERTs), per
   * transaction: what {@link StatementPatternRule}'s mapping changes remove. NaN when the profile
   * counted no transactions.
   */
  PATTERN_EXECUTIONS_PER_TRANSACTION("N+1 and UPDATE-after-INSERT executions per transaction") {
    @Override
    public double compute(TrafficProfile p) {
      long n = 0;
      for (ShapeStats s : p.shapes().values()) {
        for (io.wireadvisor.profile.PatternStats pattern : s.patterns()) {
          if (pattern.kind() != io.wireadvisor.profile.PatternStats.Kind.LOADED_TWICE) {
            n += pattern.executions(); // pairs are below N+1's minimum: not judged
          }
        }
      }
      return Workload.ratio(n, p.transactions());
    }
  },
  /** Wire commands of any type per business statement. */
  COMMANDS_PER_STATEMENT("wire commands per statement") {
    @Override
    public double compute(TrafficProfile p) {
      return Workload.ratio(p.totalCommands(), Workload.of(p).businessExecutions);
    }
  },
  /**
   * Autocommit and read-only SETs plus ROLLBACKs per business statement: what {@code
   * transaction-state} changes, counting the ROLLBACKs the pool's {@code autoCommit=false} adds
   * (HikariCP's, for borrows that ran statements outside a transaction).
   */
  STATE_CHANGES_AND_ROLLBACKS_PER_STATEMENT("autocommit/read-only SETs and ROLLBACKs per statement") {
    @Override
    public long count(TrafficProfile p) {
      long n = 0;
      for (ShapeStats s : p.shapes().values()) {
        if (s.probe() == ProbeKind.AUTOCOMMIT_SET || s.probe() == ProbeKind.READ_ONLY_SET
            || s.probe() == null && s.kind() == StatementKind.ROLLBACK) {
          n += s.executions();
        }
      }
      return n;
    }
  },
  /**
   * N+1 executions per business statement: for the same traffic the count of statements stays,
   * so the ratio follows the loads themselves, not how many transactions carried them.
   */
  N_PLUS_ONE_PER_STATEMENT("N+1 executions per statement") {
    @Override
    public long count(TrafficProfile p) {
      return patternExecutions(p, io.wireadvisor.profile.PatternStats.Kind.N_PLUS_ONE);
    }
  },
  /** UPDATE-after-INSERT executions per business statement (as {@link #N_PLUS_ONE_PER_STATEMENT}). */
  INSERT_THEN_UPDATE_PER_STATEMENT("UPDATE-after-INSERT executions per statement") {
    @Override
    public long count(TrafficProfile p) {
      return patternExecutions(p, io.wireadvisor.profile.PatternStats.Kind.INSERT_THEN_UPDATE);
    }
  };

  /**
   * The numerator of a metric that counts executions (shown beside the ratio by {@code diff}), -1
   * for the others.
   */
  public long count(TrafficProfile p) {
    return -1;
  }

  /**
   * The value on a profile; NaN when its denominator is zero. A metric that counts executions is
   * that count per business statement; the others override this.
   */
  public double compute(TrafficProfile p) {
    long n = count(p);
    if (n < 0) {
      throw new IllegalStateException(name() + " neither counts executions nor computes its ratio");
    }
    return Workload.ratio(n, Workload.of(p).businessExecutions);
  }

  static long patternExecutions(TrafficProfile p, io.wireadvisor.profile.PatternStats.Kind kind) {
    long n = 0;
    for (ShapeStats s : p.shapes().values()) {
      for (io.wireadvisor.profile.PatternStats pattern : s.patterns()) {
        if (pattern.kind() == kind) {
          n += pattern.executions();
        }
      }
    }
    return n;
  }

  private final String label;

  Metric(String label) {
    this.label = label;
  }

  /** Human name, e.g. "CLOSE per EXECUTE". */
  public String label() {
    return label;
  }

  /** A value formatted for reports: "n/a" for NaN, else two decimals. */
  public static String format(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
  }
}
