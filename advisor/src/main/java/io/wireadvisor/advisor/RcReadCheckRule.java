package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
    Map<String, Long> by = profile.statementsByIsolation();
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

  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDBAtLeast(6, 0) || server.globalOn(VARIABLE)
        || readCommittedEvidence(profile, server) == null) {
      return Collections.emptyList();
    }
    Workload w = Workload.of(profile);
    if (w.businessExecutions >= Evidence.RC_READ_CHECK_MIN_STATEMENTS) {
      return Collections.emptyList();
    }
    return Collections.singletonList(new Withheld(ID, VARIABLE + " for READ COMMITTED reads",
        "at least " + Fmt.count(Evidence.RC_READ_CHECK_MIN_STATEMENTS) + " statements",
        Fmt.count(w.businessExecutions)));
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
    if (w.businessExecutions < Evidence.RC_READ_CHECK_MIN_STATEMENTS || !(w.selectShare() >= 0.7)) {
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
        .evidence(isolationEvidence + "; " + Fmt.percent(w.selectShare()) + " of "
            + Fmt.count(w.businessExecutions) + " statements are SELECTs.")
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
            "When a read meets a newer write, TiDB refetches a TSO and retries the statement: under"
                + " write conflict this adds latency. Not for workloads using cursors or replica"
                + " read.")
        .verify(
            "SELECT @@GLOBAL." + VARIABLE + " on each tidb-server returns 1; the PD TSO request"
                + " rate (Grafana PD / TSO, pd_client_request_handle_requests_duration_seconds"
                + " count for tso) falls.")
        .expect(Expectation.serverSide("PD TSO requests per statement fall (server-side)"))
        .build();
  }
}
