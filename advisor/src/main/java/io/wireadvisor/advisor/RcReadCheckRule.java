package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.Locale;

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

  private static String normalize(String isolation) {
    return isolation.trim().toUpperCase(Locale.ROOT).replace(' ', '-').replace('_', '-');
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDBAtLeast(6, 0) || server.globalOn(VARIABLE)) {
      return null;
    }
    String isolation = isolation(profile, server);
    if (!"READ-COMMITTED".equals(isolation)) {
      return null;
    }
    Workload w = Workload.of(profile);
    if (w.businessExecutions < 100 || !(w.selectShare() >= 0.7)) {
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
        .evidence("Isolation READ-COMMITTED; " + Fmt.percent(w.selectShare()) + " of "
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
