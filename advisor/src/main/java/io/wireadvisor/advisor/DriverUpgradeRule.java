package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerVersion;
import io.wireadvisor.server.ServerView;

/**
 * Rule 0: the application's Connector/J misbehaves with the statement cache ({@link ConnectorJ}):
 * upgrade it first. Reports put it before every other change. While such a driver is recorded,
 * {@link TextProtocolRule} and {@link StatementCacheRule} withhold their settings (they would
 * raise the wire commands per statement: EXECUTE + RESET, or PREPARE + EXECUTE + CLOSE, instead of
 * one COM_QUERY).
 *
 * <p>Fires when a source recorded such a version and server prepares are in use or would be
 * advised; or, without a recorded version (the proxy), when the traffic itself shows
 * COM_STMT_RESET on at least half of at least 100 executions with no long data sent (long data is
 * the one legitimate reason for a reset per execution).
 */
public final class DriverUpgradeRule implements Rule {
  public static final String ID = "connector-j-upgrade";

  /** Without a recorded driver version: resets per execute from which the traffic tells. */
  static final double TRAFFIC_RESETS_PER_EXECUTE = 0.5;

  @Override
  public String id() {
    return ID;
  }

  /**
   * Why the statement cache must wait for a driver upgrade on the Connector/J this profile
   * recorded, for messages outside the report ({@code @WireBudget}); null when nothing blocks it.
   */
  public static String statementCacheBlocker(TrafficProfile profile) {
    ServerVersion v = ConnectorJ.resettingDriver(profile);
    return v == null
        ? null
        : ConnectorJ.resetReason(v) + ": upgrade Connector/J to " + ConnectorJ.RESET_FIXED
            + " or later before cachePrepStmts=true (rule " + ID + ")";
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    Workload w = Workload.of(profile);
    JdbcSettings jdbc = JdbcSettings.of(profile);
    ServerVersion driver = ConnectorJ.resettingDriver(profile);
    long resets = Math.max(w.resets, profile.count(CommandType.STMT_RESET));
    double resetsPerExecute = Workload.ratio(resets, w.executes);
    boolean cacheOn =
        jdbc.isTrue(JdbcProperty.USE_SERVER_PREP_STMTS) && jdbc.isTrue(JdbcProperty.CACHE_PREP_STMTS);
    boolean seen =
        w.executes >= 100 && resetsPerExecute >= TRAFFIC_RESETS_PER_EXECUTE && w.longData == 0;
    boolean planned = TextProtocolRule.textProtocolDominates(w, jdbc);
    if (driver == null ? !seen : !(cacheOn || w.prepares > 0 || planned)) {
      return null;
    }
    Recommendation.Builder r =
        Recommendation.builder(
            ID,
            "Upgrade Connector/J to "
                + ConnectorJ.RESET_FIXED
                + " or later before caching prepared statements",
            Severity.HIGH);
    if (driver != null) {
      r.evidence(
          "The application runs Connector/J "
              + driver
              + " (as the collector recorded it)"
              + (cacheOn ? " with useServerPrepStmts=true and cachePrepStmts=true." : "."));
    } else {
      r.evidence("The collector recorded no driver version; the traffic shows the pattern.");
    }
    if (w.executes > 0) {
      r.evidence(
          Fmt.count(resets)
              + " COM_STMT_RESET for "
              + Fmt.count(w.executes)
              + " COM_STMT_EXECUTE ("
              + Fmt.ratio(resetsPerExecute)
              + " per EXECUTE), with "
              + Fmt.count(w.longData)
              + " COM_STMT_SEND_LONG_DATA.");
    }
    r.evidence(
        "Connector/J 8.0.x to 8.2.0 with useServerPrepStmts=true and cachePrepStmts=true send a"
            + " COM_STMT_RESET before every execution of a statement taken back from the cache"
            + " (ServerPreparedQuery.clearParameters arms a reset whenever no long data was"
            + " sent); "
            + ConnectorJ.RESET_FIXED
            + " fixed it. Measured on the server's counters: 8.0.30, 8.0.33 and 8.2.0 send one"
            + " before every reuse, 8.3.0, 8.4.0 and 9.5.0 none.");
    r.evidence(
        "A TPC-C run on TiDB with 8.0.30 and this setting went from 1.19 to 2.08 wire commands per"
            + " statement and failed transactions with duplicate-key and foreign-key errors that"
            + " did not occur with the text protocol or with 9.5.0.");
    if (driver != null && !cacheOn) {
      r.evidence(
          "Withheld until the upgrade: "
              + (planned ? "useServerPrepStmts=true (rule " + TextProtocolRule.ID + ") and " : "")
              + "the statement cache (rule "
              + StatementCacheRule.ID
              + "); run the advisor again on the upgraded application.");
    }
    Change.Builder change =
        Change.builder()
            .note(
                "Upgrade com.mysql:mysql-connector-j to "
                    + ConnectorJ.RESET_FIXED
                    + " or later ("
                    + ConnectorJ.NEWEST_TESTED
                    + " is the version this advisor is tested with).");
    if (cacheOn || w.prepares > 0) {
      change.note(
          "If the driver cannot be upgraded now, weigh the two: useServerPrepStmts=false (one"
              + " COM_QUERY per statement) sends no RESET and had none of the errors above; keeping"
              + " server-side statements and the cache keeps the server's plan cache, which can"
              + " outweigh the extra round trip (BenchBase's SmallBank on TiDB with 8.0.30 ran about"
              + " 10% faster with them than with the text protocol, without errors). Check the"
              + " errors by statement in this report before keeping them.");
    }
    return r.change(change.build())
        .expectedEffect(
            "A statement taken from the cache is one COM_STMT_EXECUTE, no COM_STMT_RESET; the"
                + " statement cache (and on TiDB the plan cache) can then be advised safely.")
        .risk(
            "A driver upgrade changes more than this: read Connector/J's release notes from your"
                + " version on (e.g. 8.0.31 renamed the artifact to com.mysql:mysql-connector-j).")
        .verify(
            "A new profile shows the new driver version in its sources and COM_STMT_RESET per"
                + " EXECUTE near 0; on MySQL/MariaDB Com_stmt_reset stops growing, on TiDB"
                + " tidb_server_query_total{type=\"StmtReset\"}.")
        .expect(Expectation.atMost(Metric.RESETS_PER_EXECUTE, profile, 0.05))
        .build();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.resets();
  }
}
