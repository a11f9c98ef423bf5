package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerVersion;
import io.wireadvisor.server.ServerView;
import java.util.Collections;

/**
 * Rule 3: server prepares without a (big enough) Connector/J statement cache: PREPARE and CLOSE
 * per EXECUTE. Fires also when cachePrepStmts is on but the cache is smaller than the statements a
 * connection uses, or its SQL limit is below the statements' length (maxPerformance leaves the
 * 25/256 defaults: the study's scenario 3).
 */
public final class StatementCacheRule extends JudgedRule {
  public static final String ID = "prepared-statement-cache";

  @Override
  public String id() {
    return ID;
  }

  /**
   * The recommendation is made once; on a Connector/J whose statement cache resets it is withheld
   * instead ({@link DriverUpgradeRule}).
   */
  @Override
  public Judgment judge(TrafficProfile profile, ServerView server) {
    Recommendation r = recommend(profile);
    ServerVersion driver = ConnectorJ.resettingDriver(profile);
    if (r == null || driver == null) {
      return new Judgment(r, Collections.<Withheld>emptyList());
    }
    return new Judgment(null, Collections.singletonList(Withheld.because(ID, "the statement cache (cachePrepStmts)",
        ConnectorJ.resetReason(driver) + "; upgrade first (rule " + DriverUpgradeRule.ID + ")",
        "Connector/J " + ConnectorJ.RESET_FIXED + " or later", driver.toString())));
  }

  /** The recommendation whatever the driver version ({@link #judge} checks that after). */
  private Recommendation recommend(TrafficProfile profile) {
    Workload w = Workload.of(profile);
    JdbcSettings jdbc = JdbcSettings.of(profile);
    if (!(w.prepares > 0 || TextProtocolRule.textProtocolDominates(w, jdbc))) {
      return null;
    }
    boolean planned = w.prepares == 0;
    long perConnection = w.shapesPerConnectionP99(profile);
    int longest = w.longestPreparableSql();
    boolean cache = jdbc.isTrue(JdbcProperty.CACHE_PREP_STMTS);
    long size = jdbc.minLong(JdbcProperty.PREP_STMT_CACHE_SIZE);
    long limit = jdbc.minLong(JdbcProperty.PREP_STMT_CACHE_SQL_LIMIT);
    boolean sizeTooSmall = size < perConnection;
    // Connector/J caches a statement only if sql.length() < prepStmtCacheSqlLimit.
    boolean limitTooLow = limit <= longest;
    double preparesPerExecute = Workload.ratio(w.prepares, w.executes);
    double closesPerExecute = Workload.ratio(w.closes, w.executes);
    boolean fires;
    if (jdbc.known()) {
      fires = !cache || sizeTooSmall || limitTooLow;
    } else {
      // Without properties, only the traffic can tell: statements prepared again and again, or
      // text statements about to be prepared (rule text-protocol), for which the cache is part of
      // the change: server-side prepares without it cost PREPARE + EXECUTE + CLOSE each (the
      // study's scenario 2; replay --config stepwise measured 3.64 -> 5.64 commands per
      // statement for that step alone from a proxy's profile).
      fires =
          planned
              || (w.executes >= 100 && (preparesPerExecute >= 0.1 || closesPerExecute >= 0.1));
    }
    if (!fires) {
      return null;
    }
    long newSize = Math.max(25, Fmt.roundUp((long) Math.ceil(perConnection * 1.25)));
    long newLimit = Math.max(256, Fmt.powerOfTwoAtLeast(longest + 1L));
    Recommendation.Builder r =
        Recommendation.builder(
            ID,
            "Cache prepared statements per connection (cachePrepStmts, prepStmtCacheSize,"
                + " prepStmtCacheSqlLimit)",
            planned ? Severity.HIGH : preparesPerExecute >= 0.5 ? Severity.HIGH : Severity.MEDIUM);
    if (planned) {
      r.evidence(
          "Prepared statements are about to be used (rule "
              + TextProtocolRule.ID
              + "); without a cache each statement would cost PREPARE + EXECUTE + CLOSE.");
    } else {
      r.evidence(
          Fmt.count(w.prepares)
              + " COM_STMT_PREPARE and "
              + Fmt.count(w.closes)
              + " COM_STMT_CLOSE for "
              + Fmt.count(w.executes)
              + " COM_STMT_EXECUTE: PREPARE per EXECUTE "
              + Fmt.ratio(preparesPerExecute)
              + ", CLOSE per EXECUTE "
              + Fmt.ratio(closesPerExecute)
              + ".");
    }
    r.evidence(
        "99th percentile of distinct "
            + (planned ? "" : "prepared ")
            + "statements per connection: "
            + Fmt.count(perConnection)
            + " over "
            + Fmt.count(profile.connections().connections())
            + " connections"
            + (jdbc.known()
                ? "; prepStmtCacheSize in effect: " + size + (cache ? "" : " (cache off)")
                : "")
            + ".");
    long over = 0;
    long overExecutions = 0;
    long executions = 0;
    for (ShapeStats s : profile.shapes().values()) {
      boolean relevant =
          planned
              ? Workload.isBusiness(s) && s.count(Via.TEXT_EXECUTES) >= Workload.REPEATED_MIN_EXECUTIONS
              : s.count(Via.PREPARES) > 0;
      if (!relevant) {
        continue;
      }
      executions += s.executions();
      if (s.maxSqlLength() >= limit) {
        over++;
        overExecutions += s.executions();
      }
    }
    r.evidence(
        "Longest "
            + (planned ? "repeated" : "prepared")
            + " SQL: "
            + Fmt.count(longest)
            + " chars; "
            + Fmt.count(over)
            + " shapes ("
            + Fmt.percent(Workload.ratio(overExecutions, executions))
            + " of their executions) are not shorter than prepStmtCacheSqlLimit="
            + limit
            + " and are never cached.");
    Change.Builder change = Change.builder();
    if (!cache) {
      change.jdbc(JdbcProperty.CACHE_PREP_STMTS, "true");
    }
    if (sizeTooSmall || !jdbc.known()) {
      change.jdbc(JdbcProperty.PREP_STMT_CACHE_SIZE, Long.toString(newSize));
    }
    if (limitTooLow || !jdbc.known()) {
      change.jdbc(JdbcProperty.PREP_STMT_CACHE_SQL_LIMIT, Long.toString(newLimit));
    }
    if (!cache && !ConnectorJ.driverRecorded(profile)) {
      change.note(
          "The collector recorded no driver version: Connector/J 8.0.x to 8.2.0 send a"
              + " COM_STMT_RESET before every reuse of a cached statement (fixed in "
              + ConnectorJ.RESET_FIXED
              + "); on those, upgrade first (rule "
              + DriverUpgradeRule.ID
              + "). diff shows it as more commands per statement.");
    }
    long connections = profile.connections().connections();
    return r.change(change.build())
        .expectedEffect(
            "Closing a PreparedStatement returns it to the cache: one COM_STMT_EXECUTE per"
                + " statement, PREPARE only on first use per connection, no CLOSE. In the study"
                + " (scenario 5) QPS rose from 22.1k to 30.9k.")
        .risk(
            "Each connection keeps up to prepStmtCacheSize statements open on the server"
                + (connections > 0
                    ? " (" + Fmt.count(connections) + " connections x " + newSize + " = "
                        + Fmt.count(connections * newSize) + " server statements)"
                    : "")
                + "; MySQL caps them with max_prepared_stmt_count (16382 by default), TiDB holds"
                + " memory per session. Client memory grows with the SQL length kept.")
        .verify(
            "A new profile shows PREPARE and CLOSE per EXECUTE near 0;"
                + " on TiDB tidb_server_query_total{type=\"StmtPrepare\"} nearly stops growing.")
        .expect(Expectation.atMost(Metric.PREPARES_PER_EXECUTE, profile, 0.05))
        .expect(Expectation.atMost(Metric.CLOSES_PER_EXECUTE, profile, 0.05))
        .build();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.statementCache();
  }
}
