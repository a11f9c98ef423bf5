package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * What a set of changes leaves of each session-state statement (probe) on the wire, as Connector/J
 * 8.0.33–9.x, HikariCP and Spring/Hibernate behave. One model for every rule that removes probes,
 * so that a recommendation's saving and the first screen's "after" (every change together) agree
 * and no probe is removed twice:
 *
 * <ul>
 *   <li>{@code useLocalSessionState} (maxPerformance): isolation and read-only reads answered
 *       locally; a {@code SET ... READ WRITE} only after a {@code READ ONLY} that succeeded
 *       ({@code ConnectionImpl.setReadOnlyInternal} updates its local flag only after the SET
 *       succeeded, so after a rejected one the reset to read-write is elided);
 *   <li>{@code readOnlyPropagatesToServer=false}: no read-only SET and no read-only read;
 *   <li>the pool's {@code autoCommit=false} (with Hibernate's {@code provider_disables_autocommit}):
 *       the framework's {@code setAutoCommit(false)}/{@code (true)} per transaction gone; the pool
 *       still sets it once per new connection; SETs the application sends itself stay;
 *   <li>an isolation level the server accepts (pool {@code transactionIsolation}, or TiDB's {@code
 *       tidb_skip_isolation_level_check}): the rejected isolation SETs gone;
 *   <li>pool validation: the validation queries gone.
 * </ul>
 */
final class StateModel {
  /** Which of the modelled changes are in effect (now, or with recommendations applied). */
  static final class Settings {
    boolean localSessionState;
    boolean readOnlyNotPropagated;
    boolean poolAutoCommitOff;
    boolean isolationAccepted;
    boolean validationOff;

    Settings copy() {
      Settings s = new Settings();
      s.localSessionState = localSessionState;
      s.readOnlyNotPropagated = readOnlyNotPropagated;
      s.poolAutoCommitOff = poolAutoCommitOff;
      s.isolationAccepted = isolationAccepted;
      s.validationOff = validationOff;
      return s;
    }

    /** These settings plus what {@code r}'s change sets. */
    Settings with(Recommendation r) {
      Settings s = copy();
      Change c = r.change();
      String configs = c.jdbcProperties().get(JdbcProperty.USE_CONFIGS.key());
      if ("true".equalsIgnoreCase(c.jdbcProperties().get(JdbcProperty.USE_LOCAL_SESSION_STATE.key()))
          || (configs != null && configs.toLowerCase(Locale.ROOT).contains("maxperformance"))) {
        s.localSessionState = true;
      }
      if ("false".equalsIgnoreCase(
          c.jdbcProperties().get(JdbcProperty.READ_ONLY_PROPAGATES_TO_SERVER.key()))) {
        s.readOnlyNotPropagated = true;
      }
      if ("false".equalsIgnoreCase(c.poolSettings().get(TransactionStateRule.POOL_AUTO_COMMIT))) {
        s.poolAutoCommitOff = true;
      }
      if (c.poolSettings().containsKey(ServerRejectsRule.POOL_ISOLATION)
          || ServerRejectsRule.ID.equals(r.id()) && ServerRejectsRule.changesIsolation(c)) {
        s.isolationAccepted = true;
      }
      if (PoolValidationRule.ID.equals(r.id())) {
        s.validationOff = true;
      }
      return s;
    }

    Settings with(Collection<Recommendation> rs) {
      Settings s = this;
      for (Recommendation r : rs) {
        s = s.with(r);
      }
      return s;
    }
  }

  private final TrafficProfile profile;
  private final Settings now;
  /** Successful {@code READ ONLY} SETs: what a {@code READ WRITE} follows under local state. */
  private final long readOnlySetsOk;
  private final long connections;
  /** Share of AUTOCOMMIT_SET probes the framework or pool sent (not the application's own SQL). */
  private final double autoCommitByFramework;

  StateModel(TrafficProfile profile, JdbcSettings jdbc) {
    this.profile = profile;
    this.now = new Settings();
    now.localSessionState = jdbc.isTrue(JdbcProperty.USE_LOCAL_SESSION_STATE);
    now.readOnlyNotPropagated = jdbc.isFalse(JdbcProperty.READ_ONLY_PROPAGATES_TO_SERVER);
    long ok = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (readOnlyDirection(s) > 0) {
        ok += Math.max(0, s.executions() - s.count(Via.ERRORS));
      }
    }
    this.readOnlySetsOk = ok;
    this.connections = Math.max(1, profile.connections().connections());
    this.autoCommitByFramework = frameworkShare(profile.probes().get(ProbeKind.AUTOCOMMIT_SET));
  }

  /** The settings in effect in the profile. */
  Settings now() {
    return now;
  }

  /**
   * Of the AUTOCOMMIT_SET probes, the share a pool or framework caused through {@code
   * setAutoCommit} (the agent records causes); without causes (the proxy), all of them.
   */
  static double frameworkShare(ProbeStats stats) {
    if (stats == null || stats.causes().isEmpty()) {
      return 1;
    }
    long all = 0;
    long framework = 0;
    for (Map.Entry<String, Long> c : stats.causes().entrySet()) {
      all += c.getValue();
      if (c.getKey().endsWith("setAutoCommit") && !c.getKey().startsWith("hikari.setup")) {
        framework += c.getValue();
      }
    }
    return all == 0 ? 1 : (double) framework / all;
  }

  /** +1 for {@code SET ... READ ONLY}, -1 for {@code READ WRITE}, 0 for neither (or unknown). */
  static int readOnlyDirection(ShapeStats s) {
    if (s.probe() != ProbeKind.READ_ONLY_SET) {
      return 0;
    }
    String t = s.digestText().toLowerCase(Locale.ROOT);
    return t.contains("read only") ? 1 : t.contains("read write") ? -1 : 0;
  }

  /** Executions of probe shape {@code s} left on the wire under {@code settings}. */
  long after(ShapeStats s, Settings settings) {
    long n = s.executions();
    ProbeKind k = s.probe();
    if (k == null) {
      return n;
    }
    switch (k) {
      case ISOLATION_READ:
        return settings.localSessionState ? 0 : n;
      case READ_ONLY_READ:
        return settings.localSessionState || settings.readOnlyNotPropagated ? 0 : n;
      case READ_ONLY_SET:
        if (settings.readOnlyNotPropagated) {
          return 0;
        }
        if (settings.localSessionState && !now.localSessionState && readOnlyDirection(s) < 0) {
          return Math.min(n, readOnlySetsOk);
        }
        return n;
      case AUTOCOMMIT_SET:
        if (settings.poolAutoCommitOff && !now.poolAutoCommitOff) {
          long framework = Math.round(n * autoCommitByFramework);
          return Math.min(n, n - framework + connections);
        }
        return n;
      case ISOLATION_SET:
        return settings.isolationAccepted && !now.isolationAccepted
            ? n - Math.min(n, s.count(Via.ERRORS))
            : n;
      case VALIDATION_QUERY:
        return settings.validationOff ? 0 : n;
      default:
        return n;
    }
  }

  /** Probe executions removed under {@code settings}, and the nanoseconds they took. */
  long[] removed(Settings settings) {
    long removed = 0;
    double nanos = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() == null) {
        continue;
      }
      long n = s.executions();
      long gone = n - after(s, settings);
      if (gone > 0 && n > 0) {
        removed += gone;
        nanos += Estimates.timeOf(s) * gone / (double) n;
      }
    }
    return new long[] {removed, Math.round(nanos)};
  }

  // ---- ROLLBACKs the pool's autoCommit=false adds ----------------------------------------------

  /**
   * Pool borrows that ran business statements outside any transaction, and how they were counted:
   * the agent sees HikariCP's borrows end ({@link TrafficProfile#borrowsOutsideTransaction()});
   * without them (the proxy, a profile from before) runs of consecutive statements outside
   * transactions on a connection ({@link TrafficProfile#outsideTransactionRuns()}), which count
   * back-to-back borrows on one connection once.
   */
  static long borrowsOutsideTransaction(TrafficProfile profile) {
    return profile.poolBorrows() > 0
        ? profile.borrowsOutsideTransaction()
        : profile.outsideTransactionRuns();
  }

  /** What one of {@link #borrowsOutsideTransaction} is, in words. */
  static String borrowUnit(TrafficProfile profile) {
    return profile.poolBorrows() > 0
        ? "pool borrow"
        : "run of statements outside transactions on a connection (no pool borrows seen: an"
            + " approximation that counts back-to-back borrows on one connection once)";
  }

  /** How {@link #borrowsOutsideTransaction} was counted, in words. */
  static String borrowsCountedBy(TrafficProfile profile) {
    return profile.poolBorrows() > 0
        ? "pool borrows (of " + Fmt.count(profile.poolBorrows()) + ", seen by the agent at HikariCP's"
            + " close)"
        : "runs of consecutive statements outside transactions on a connection (no pool borrows"
            + " seen: an approximation that counts back-to-back borrows on one connection once)";
  }

  /**
   * ROLLBACKs {@code settings} add: with the pool's {@code autoCommit=false} (not in effect now),
   * a borrow that ran statements outside any transaction leaves them in a transaction nobody
   * commits, and HikariCP rolls it back when the connection is returned ("Executed rollback due to
   * dirty commit state on close()"): one ROLLBACK per such borrow (found on spring-petclinic on
   * TiDB: 282 new ROLLBACKs for 2,057 statements, the whole gap between estimate and measurement).
   */
  long addedRollbacks(Settings settings) {
    if (!settings.poolAutoCommitOff || now.poolAutoCommitOff) {
      return 0;
    }
    return borrowsOutsideTransaction(profile);
  }

  /**
   * Nanoseconds one added ROLLBACK is taken to cost: the measured time per execution of the
   * profile's COMMITs and ROLLBACKs (a round trip that ends a transaction), 0 when none was timed.
   */
  double rollbackNanos() {
    double nanos = 0;
    long n = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.kind() == io.wireadvisor.sql.StatementKind.COMMIT
          || s.kind() == io.wireadvisor.sql.StatementKind.ROLLBACK) {
        nanos += Estimates.timeOf(s);
        n += s.executions();
      }
    }
    return n == 0 ? 0 : nanos / n;
  }

  /**
   * Shapes that ran outside transactions ({@link Via#OUTSIDE_TRANSACTION}), most executions first,
   * at most {@code max}: what to put in a transaction ({@code @Transactional(readOnly = true)}).
   */
  java.util.List<ShapeStats> outsideTransactionShapes(int max) {
    java.util.List<ShapeStats> l = new java.util.ArrayList<>();
    for (ShapeStats s : profile.shapes().values()) {
      if (s.count(Via.OUTSIDE_TRANSACTION) > 0) {
        l.add(s);
      }
    }
    l.sort((a, b) -> Long.compare(b.count(Via.OUTSIDE_TRANSACTION), a.count(Via.OUTSIDE_TRANSACTION)));
    return l.size() > max ? new java.util.ArrayList<>(l.subList(0, max)) : l;
  }
}
