package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;

/**
 * Rule 4: COM_STMT_CLOSE drops a statement's cached plan on TiDB. Where the application closes
 * statements it has just executed (no statement cache, setPoolable(false), over-limit SQL,
 * evictions), {@code tidb_ignore_prepared_cache_close_stmt=ON} keeps the plan (TiDB v6.0+).
 */
public final class CloseStmtRule implements Rule {
  public static final String ID = "tidb-ignore-close-stmt";
  static final String VARIABLE = "tidb_ignore_prepared_cache_close_stmt";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDBAtLeast(6, 0) || server.globalOn(VARIABLE)) {
      return null;
    }
    Workload w = Workload.of(profile);
    JdbcSettings jdbc = JdbcSettings.of(profile);
    boolean planned = w.prepares == 0 && w.preparesNowOrPlanned(profile, jdbc);
    double closesPerExecute = Workload.ratio(w.closes, w.executes);
    boolean closing = w.executes >= 100 && closesPerExecute >= 0.01;
    if (!planned && !closing) {
      return null;
    }
    Recommendation.Builder r =
        Recommendation.builder(
            ID,
            "Keep TiDB's cached plans when statements are closed (" + VARIABLE + ")",
            closing && closesPerExecute >= 0.5 ? Severity.HIGH : Severity.MEDIUM);
    if (closing) {
      r.evidence(
          Fmt.count(w.closes)
              + " COM_STMT_CLOSE for "
              + Fmt.count(w.executes)
              + " COM_STMT_EXECUTE (CLOSE per EXECUTE "
              + Fmt.ratio(closesPerExecute)
              + "): TiDB drops a statement's cached plan when it is closed, so statements that are"
              + " prepared, executed and closed never hit the plan cache.");
    } else {
      r.evidence(
          "The application is about to use server prepares (rule "
              + TextProtocolRule.ID
              + "); statements it still closes (cache evictions, over-limit SQL,"
              + " setPoolable(false), frameworks closing statements) would lose their cached"
              + " plans.");
    }
    String summary = SummaryMatch.of(profile, server).evidence();
    if (summary != null) {
      r.evidence(summary);
    }
    r.evidence(
        "Server: " + server.describe() + "; " + VARIABLE + " = "
            + (server.global(VARIABLE) == null ? "OFF (default)" : server.global(VARIABLE)) + ".");
    return r.change(
            Change.builder()
                .sql("SET GLOBAL " + VARIABLE + " = ON;")
                .note(
                    "Also SESSION-scoped: connections opened before the change keep OFF; recycle"
                        + " the pool (or wait for maxLifetime).")
                .note("Needs the plan cache on (rule " + PlanCacheRule.ID + ").")
                .build())
        .expectedEffect(
            "EXECUTEs of closed-and-reprepared statements hit the plan cache. In the study"
                + " (scenario 4, with the plan cache on) QPS rose from 19.7k to 22.1k and average"
                + " latency fell from 528 to 426 us.")
        .risk(
            "Plans of closed statements stay cached until LRU eviction (bounded by the session plan"
                + " cache size): a little more memory per session. Clients still send the CLOSE"
                + " round trip; the statement cache removes that.")
        .verify(
            "SELECT @@GLOBAL." + VARIABLE + " returns 1; in STATEMENTS_SUMMARY PLAN_CACHE_HITS"
                + " approaches EXEC_COUNT; tidb_server_plan_cache_miss_total stops growing; SELECT"
                + " @@last_plan_from_cache after an EXECUTE returns 1.")
        .expect(
            Expectation.serverSide(
                "PLAN_CACHE_HITS approach EXEC_COUNT for prepared statements (server-side)"))
        .build();
  }
}
