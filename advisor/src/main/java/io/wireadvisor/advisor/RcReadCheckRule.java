package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.sql.StatementKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rule 6: READ COMMITTED, read-heavy, little write conflict on TiDB: {@code
 * tidb_rc_read_check_ts=ON} lets reads reuse the last timestamp instead of asking PD for a new TSO
 * per statement (v6.0+; instance-scoped since v6.3).
 */
public final class RcReadCheckRule implements Rule {
  public static final String ID = "tidb-rc-read-check-ts";
  static final String VARIABLE = "tidb_rc_read_check_ts";

  @Override
  public String id() {
    return ID;
  }

  /** The isolation the application runs with: its sources' if recorded, else the server's global. */
  static String isolation(TrafficProfile profile, ServerView server) {
    String found = null;
    for (Source s : profile.sources()) {
      if (s.isolation() != null) {
        String iso = normalize(s.isolation());
        if (found != null && !found.equals(iso)) {
          return "MIXED";
        }
        found = iso;
      }
    }
    if (found == null && server != null && server.isolation() != null) {
      found = normalize(server.isolation());
    }
    return found;
  }

  /**
   * Whether the traffic runs under READ COMMITTED, judged on the statements themselves where the
   * collector counted them by isolation (a migration connection at REPEATABLE-READ beside a READ
   * COMMITTED pool is a small share, not a veto); else on the sources and the server's global.
   * Returns the evidence line, or null when the traffic does not run under READ COMMITTED.
   */
  static String readCommittedEvidence(TrafficProfile profile, ServerView server) {
    Map<String, Long> by = resolveDefault(profile.statementsByIsolation(), server);
    long total = 0;
    for (long n : by.values()) {
      total += n;
    }
    if (total > 0) {
      Long rc = by.get("READ-COMMITTED");
      double share = rc == null ? 0 : (double) rc / total;
      if (share < Evidence.RC_READ_CHECK_MIN_RC_SHARE) {
        return null;
      }
      StringBuilder rest = new StringBuilder();
      for (Map.Entry<String, Long> e : by.entrySet()) {
        if (!e.getKey().equals("READ-COMMITTED")) {
          rest.append(rest.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(Fmt.count(e.getValue()));
        }
      }
      return Fmt.percent(share) + " of " + Fmt.count(total) + " statements ran under READ-COMMITTED"
          + (rest.length() == 0 ? "" : " (the rest: " + rest + ")");
    }
    return "READ-COMMITTED".equals(isolation(profile, server)) ? "Isolation READ-COMMITTED" : null;
  }

  /**
   * Statements counted under {@code default} (the session's isolation at login, which the proxy
   * does not see) under the server's global isolation, which a new session takes; left as they
   * are without a server view.
   */
  static Map<String, Long> resolveDefault(Map<String, Long> by, ServerView server) {
    Long atDefault = by.get(DEFAULT);
    if (atDefault == null || server == null || server.isolation() == null) {
      return by;
    }
    Map<String, Long> resolved = new java.util.TreeMap<>(by);
    resolved.remove(DEFAULT);
    String global = normalize(server.isolation());
    Long v = resolved.get(global);
    resolved.put(global, (v == null ? 0 : v) + atDefault);
    return resolved;
  }

  /** The key of statements at the session's login isolation (see {@code ProfileRecorder}). */
  static final String DEFAULT = "default";

  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDBAtLeast(6, 0) || server.globalOn(VARIABLE)
        || readCommittedEvidence(profile, server) == null) {
      return Collections.emptyList();
    }
    Workload w = Workload.of(profile);
    if (w.businessExecutions >= Evidence.RC_READ_CHECK_MIN_STATEMENTS) {
      Contention c = Contention.of(profile);
      if (readHeavy(w) && c.hotRows()) {
        return Collections.singletonList(Withheld.because(ID, VARIABLE + " = ON",
            "hot rows: " + c.summary() + "; TiDB advises the check only where reads rarely meet"
                + " newer writes (each read that does is retried with a new TSO)",
            "under " + Fmt.percent(Evidence.RC_READ_CHECK_MAX_LOCKED_READ_SHARE)
                + " of non-locking reads on locked tables",
            Fmt.percent(c.lockedReadShare())));
      }
      return Collections.emptyList();
    }
    return Collections.singletonList(new Withheld(ID, VARIABLE + " for READ COMMITTED reads",
        "at least " + Fmt.count(Evidence.RC_READ_CHECK_MIN_STATEMENTS) + " statements",
        Fmt.count(w.businessExecutions)));
  }

  /** Non-locking reads (only they take the check) are at least 70% of the statements. */
  static boolean readHeavy(Workload w) {
    return w.nonLockingReadShare() >= 0.7;
  }

  private static String normalize(String isolation) {
    return isolation.trim().toUpperCase(Locale.ROOT).replace(' ', '-').replace('_', '-');
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDBAtLeast(6, 0) || server.globalOn(VARIABLE)) {
      return null;
    }
    String isolationEvidence = readCommittedEvidence(profile, server);
    if (isolationEvidence == null) {
      return null;
    }
    Workload w = Workload.of(profile);
    // Locking reads (SELECT ... FOR UPDATE) take a TSO for their locks whatever the variable says:
    // only plain reads count toward read-heavy.
    if (w.businessExecutions < Evidence.RC_READ_CHECK_MIN_STATEMENTS || !readHeavy(w)) {
      return null;
    }
    Contention contention = Contention.of(profile);
    if (contention.hotRows()) {
      return null;
    }
    double conflict = Workload.ratio(w.writeErrors, w.writeExecutions);
    if (conflict >= 0.01) {
      return null;
    }
    // Cursors and follower/replica reads are where the check is unsafe or ignored.
    if (w.fetches > 0) {
      return null;
    }
    String replicaRead = server.global("tidb_replica_read");
    if (replicaRead != null && !"leader".equalsIgnoreCase(replicaRead.trim())) {
      return null;
    }
    return Recommendation.builder(
            ID, "Save TSO requests under READ COMMITTED (" + VARIABLE + ")", Severity.MEDIUM)
        .evidence(isolationEvidence + "; " + Fmt.percent(w.nonLockingReadShare()) + " of "
            + Fmt.count(w.businessExecutions) + " statements are non-locking reads"
            + (w.lockingReadExecutions == 0
                ? "."
                : " (" + Fmt.count(w.lockingReadExecutions) + " locking reads, SELECT ... FOR UPDATE"
                    + " / FOR SHARE / LOCK IN SHARE MODE, left out: the check does not apply to"
                    + " them)."))
        .evidence("Reads that may meet newer writes: " + contention.summary() + ".")
        .evidence(
            "Write errors: "
                + Fmt.count(w.writeErrors)
                + " of "
                + Fmt.count(w.writeExecutions)
                + " writes ("
                + Fmt.percent(Double.isNaN(conflict) ? 0 : conflict)
                + "): little write conflict; no cursor fetches.")
        .evidence("Server: " + server.describe() + "; " + VARIABLE + " = "
            + (server.global(VARIABLE) == null ? "OFF (default)" : server.global(VARIABLE)) + ".")
        .change(
            Change.builder()
                .sql("SET GLOBAL " + VARIABLE + " = ON;")
                .note(
                    server.version().atLeast(6, 3)
                        ? "Instance-scoped since v6.3: the SET applies to the tidb-server you are"
                            + " connected to; run it on every tidb-server (connect to each"
                            + " directly, not through the load balancer)."
                        : "Before v6.3 the variable is cluster-wide GLOBAL.")
                .build())
        .expectedEffect(
            "Point reads and range reads under READ COMMITTED reuse the previous timestamp instead"
                + " of fetching a TSO from PD per statement. In the study (scenario 6) QPS rose"
                + " from 30.9k to 34.9k.")
        .risk(
            "When a read meets a newer write, TiDB refetches a TSO and retries the statement (or"
                + " returns an error if it already sent rows): with hot rows, rows read while"
                + " others write them, this costs more than it saves, and TiDB advises it only"
                + " where read-write conflicts are rare."
                + (contention.hotTables().isEmpty()
                    ? ""
                    : " Watch " + contention.hotTables() + ", written or locked in this window.")
                + " Not for workloads using cursors or replica read.")
        .verify(
            "SELECT @@GLOBAL." + VARIABLE + " on each tidb-server returns 1; the PD TSO request"
                + " rate (Grafana PD / TSO, pd_client_request_handle_requests_duration_seconds"
                + " count for tso) falls.")
        .expect(Expectation.serverSide("PD TSO requests per statement fall (server-side)"))
        .build();
  }

  /**
   * Which tables the non-locking reads share with writes and locks in the window: the profile sees
   * tables, not rows, so this bounds the hot-row risk from above. A table locked by the
   * application's own SELECT ... FOR UPDATE is where it expects concurrent writers; when at least
   * {@link Evidence#RC_READ_CHECK_MAX_LOCKED_READ_SHARE} of the plain reads read such tables, the
   * rule withholds the variable.
   */
  static final class Contention {
    /** table -> {writes, locking reads, non-locking reads}. */
    final Map<String, long[]> tables = new HashMap<>();
    long reads;
    long readsOfWritten;
    long readsOfLocked;

    static Contention of(TrafficProfile p) {
      Contention c = new Contention();
      for (ShapeStats s : p.shapes().values()) {
        if (!Workload.isBusiness(s)) {
          continue;
        }
        long n = s.executions();
        if (s.kind() == StatementKind.SELECT && s.lockingRead()) {
          for (String t : s.tablesRead()) {
            c.table(t)[1] += n;
          }
        } else if (s.kind() != StatementKind.SELECT) {
          for (String t : s.tablesWritten()) {
            c.table(t)[0] += n;
          }
        }
      }
      for (ShapeStats s : p.shapes().values()) {
        if (!Workload.isBusiness(s) || s.kind() != StatementKind.SELECT || s.lockingRead()) {
          continue;
        }
        long n = s.executions();
        c.reads += n;
        boolean written = false;
        boolean locked = false;
        for (String t : s.tablesRead()) {
          long[] v = c.tables.get(t);
          if (v != null) {
            v[2] += n;
            written |= v[0] > 0;
            locked |= v[1] > 0;
          }
        }
        c.readsOfWritten += written || locked ? n : 0;
        c.readsOfLocked += locked ? n : 0;
      }
      return c;
    }

    private long[] table(String t) {
      long[] v = tables.get(t);
      if (v == null) {
        v = new long[3];
        tables.put(t, v);
      }
      return v;
    }

    /** Share of the non-locking reads that read a table the application locks. */
    double lockedReadShare() {
      return reads == 0 ? 0 : (double) readsOfLocked / reads;
    }

    boolean hotRows() {
      return lockedReadShare() >= Evidence.RC_READ_CHECK_MAX_LOCKED_READ_SHARE;
    }

    /** The (up to three) tables both read and written or locked, most writes and locks first. */
    List<String> hotTables() {
      List<String> names = new ArrayList<>();
      for (Map.Entry<String, long[]> e : tables.entrySet()) {
        if (e.getValue()[2] > 0) {
          names.add(e.getKey());
        }
      }
      Collections.sort(names, new Comparator<String>() {
        @Override
        public int compare(String a, String b) {
          long[] x = tables.get(a);
          long[] y = tables.get(b);
          int c = Long.compare(y[0] + y[1], x[0] + x[1]);
          return c != 0 ? c : a.compareTo(b);
        }
      });
      return names.subList(0, Math.min(3, names.size()));
    }

    String summary() {
      StringBuilder sb = new StringBuilder();
      sb.append(Fmt.count(readsOfWritten)).append(" of ").append(Fmt.count(reads))
          .append(" non-locking reads (").append(Fmt.percent(reads == 0 ? 0 : (double) readsOfWritten / reads))
          .append(") read tables written or locked in the window, ").append(Fmt.count(readsOfLocked))
          .append(" (").append(Fmt.percent(lockedReadShare())).append(") tables locked by SELECT ... FOR UPDATE");
      List<String> hot = hotTables();
      if (!hot.isEmpty()) {
        sb.append(": ");
        for (int i = 0; i < hot.size(); i++) {
          long[] v = tables.get(hot.get(i));
          sb.append(i == 0 ? "" : ", ").append(hot.get(i)).append(" (").append(Fmt.count(v[0]))
              .append(" writes, ").append(Fmt.count(v[1])).append(" locking reads, ")
              .append(Fmt.count(v[2])).append(" reads)");
        }
      }
      return sb.toString();
    }
  }
}
