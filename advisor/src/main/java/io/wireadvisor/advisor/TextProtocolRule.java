package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerVersion;
import io.wireadvisor.server.ServerView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Rule 1: repeated statement shapes sent as COM_QUERY text. On TiDB the plan cache only serves
 * prepared statements (COM_STMT_EXECUTE), so every text statement is parsed and optimized anew.
 */
public final class TextProtocolRule implements Rule {
  public static final String ID = "server-prepared-statements";

  @Override
  public String id() {
    return ID;
  }

  /** True when repeated shapes dominate the traffic as text and useServerPrepStmts is not on. */
  static boolean textProtocolDominates(Workload w, JdbcSettings jdbc) {
    return !jdbc.isTrue(JdbcProperty.USE_SERVER_PREP_STMTS)
        && w.repeatedTextExecutions >= 100
        && w.repeatedTextExecutions >= 0.2 * w.businessExecutions;
  }

  /** On a Connector/J whose statement cache resets, the advice it withholds ({@link DriverUpgradeRule}). */
  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    ServerVersion driver = ConnectorJ.resettingDriver(profile);
    if (driver == null || !textProtocolDominates(Workload.of(profile), JdbcSettings.of(profile))) {
      return Collections.emptyList();
    }
    return Collections.singletonList(Withheld.because(ID, "useServerPrepStmts=true",
        ConnectorJ.resetReason(driver) + "; alone it costs PREPARE + EXECUTE + CLOSE per statement;"
            + " upgrade first (rule " + DriverUpgradeRule.ID + ")",
        "Connector/J " + ConnectorJ.RESET_FIXED + " or later", driver.toString()));
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    Workload w = Workload.of(profile);
    JdbcSettings jdbc = JdbcSettings.of(profile);
    if (!textProtocolDominates(w, jdbc) || ConnectorJ.resettingDriver(profile) != null) {
      return null;
    }
    // Server-aware without a connection: the profile records the server's version.
    boolean tidb = Estimates.serverKind(profile, server) == Outlook.ServerKind.TIDB;
    Recommendation.Builder r =
        Recommendation.builder(
                ID,
                "Use server-side prepared statements for repeated statements",
                tidb ? Severity.HIGH : Severity.MEDIUM)
            .evidence(
                Fmt.count(w.repeatedTextShapes)
                    + " of "
                    + Fmt.count(w.businessShapes)
                    + " statement shapes were sent as COM_QUERY text at least "
                    + Workload.REPEATED_MIN_EXECUTIONS
                    + " times each: "
                    + Fmt.count(w.repeatedTextExecutions)
                    + " executions, "
                    + Fmt.percent(Workload.ratio(w.repeatedTextExecutions, w.businessExecutions))
                    + " of "
                    + Fmt.count(w.businessExecutions)
                    + " statements ("
                    + Fmt.rate(w.businessExecutions / profile.windowSeconds())
                    + "/s).")
            .evidence(
                jdbc.known()
                    ? "useServerPrepStmts is not set to true (Connector/J default: false)."
                    : "The collector could not see JDBC properties; the traffic shows the text protocol.");
    for (ShapeStats s : topTextShapes(profile, 3)) {
      r.evidence(
          "  "
              + Fmt.count(s.count(Via.TEXT_EXECUTES))
              + " x "
              + Fmt.sql(s.digestText(), 100));
    }
    if (tidb) {
      r.evidence(
          "TiDB's plan cache serves only prepared statements: each of these statements was parsed"
              + " and optimized from scratch.");
      String summary = SummaryMatch.of(profile, server).evidence();
      if (summary != null) {
        r.evidence(summary);
      }
    }
    Change.Builder change =
        Change.builder()
            .jdbc(JdbcProperty.USE_SERVER_PREP_STMTS, "true")
            .note(
                "Apply together with the statement cache (rule "
                    + StatementCacheRule.ID
                    + "): without it every statement costs PREPARE + EXECUTE + CLOSE.")
            .note(
                "Statements run through java.sql.Statement stay text: repeated ones must become"
                    + " PreparedStatement with ? parameters in the code.");
    if (tidb && server != null && server.version().atLeast(7, 0)) {
      change.note(
          "If the application's URL cannot change: SET GLOBAL tidb_enable_non_prepared_plan_cache"
              + " = ON (TiDB v7.0+) caches plans of text statements too, but only simple ones"
              + " (e.g. no subqueries, window functions or partitioned tables, at most 200"
              + " parameters), and every text is still parsed; check PLAN_IN_CACHE in"
              + " STATEMENTS_SUMMARY.");
    }
    return r.change(change.build())
        .expectedEffect(
            tidb
                ? "Repeated statements reuse cached plans (no parse/optimize per execution); with"
                    + " the statement cache each statement is one COM_STMT_EXECUTE with binary"
                    + " parameters."
                : "The server parses each statement once per connection; with the statement cache"
                    + " each statement is one COM_STMT_EXECUTE with binary parameters.")
        .risk(
            "Alone, it costs three round trips per statement (the study's scenario 3: 24.2k -> 19.7k"
                + " QPS); each open server statement uses server memory (MySQL:"
                + " max_prepared_stmt_count). SQL the server cannot prepare falls back to text.")
        .verify(
            "A new profile shows COM_STMT_EXECUTE for these shapes and COM_QUERY only for the rest;"
                + (tidb
                    ? " tidb_server_query_total{type=\"StmtExecute\"} rises and STATEMENTS_SUMMARY"
                        + " PLAN_CACHE_HITS grows."
                    : " SHOW GLOBAL STATUS LIKE 'Com_stmt_execute' rises."))
        .expect(Expectation.atMost(Metric.TEXT_PROTOCOL_SHARE, profile, 0.1))
        .build();
  }

  private static List<ShapeStats> topTextShapes(TrafficProfile profile, int n) {
    List<ShapeStats> shapes = new ArrayList<>();
    for (ShapeStats s : profile.shapes().values()) {
      if (Workload.isBusiness(s) && s.count(Via.TEXT_EXECUTES) >= Workload.REPEATED_MIN_EXECUTIONS) {
        shapes.add(s);
      }
    }
    Collections.sort(
        shapes,
        new Comparator<ShapeStats>() {
          @Override
          public int compare(ShapeStats a, ShapeStats b) {
            int c = Long.compare(b.count(Via.TEXT_EXECUTES), a.count(Via.TEXT_EXECUTES));
            return c != 0 ? c : a.digest().compareTo(b.digest());
          }
        });
    return shapes.subList(0, Math.min(n, shapes.size()));
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.textProtocol();
  }
}
