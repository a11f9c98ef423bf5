package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerVersion;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rule 2: session-variable probes ({@code SELECT @@session.transaction_isolation}, {@code SET
 * autocommit}, ...) that Connector/J sends because it does not track session state locally.
 */
public final class SessionProbeRule implements Rule {
  public static final String ID = "session-probes";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    Workload w = Workload.of(profile);
    JdbcSettings jdbc = JdbcSettings.of(profile);
    if (jdbc.isTrue(JdbcProperty.USE_LOCAL_SESSION_STATE)
        || w.sessionProbes < 50
        || w.sessionProbes < 0.05 * w.businessExecutions) {
      return null;
    }
    double perStatement = Workload.ratio(w.sessionProbes, w.businessExecutions);
    Recommendation.Builder r =
        Recommendation.builder(
                ID,
                "Stop session-variable probes with useConfigs=maxPerformance",
                perStatement >= 0.5 ? Severity.HIGH : Severity.MEDIUM)
            .evidence(
                Fmt.count(w.sessionProbes)
                    + " session probes for "
                    + Fmt.count(w.businessExecutions)
                    + " statements: "
                    + Fmt.ratio(perStatement)
                    + " per statement, each a round trip.");
    Map<String, Long> causes = new TreeMap<>();
    for (Map.Entry<ProbeKind, ProbeStats> e : profile.probes().entrySet()) {
      if (e.getKey() == ProbeKind.VALIDATION_QUERY) {
        continue;
      }
      r.evidence("  " + e.getKey() + ": " + Fmt.count(e.getValue().count()));
      for (Map.Entry<String, Long> c : e.getValue().causes().entrySet()) {
        Long old = causes.get(c.getKey());
        causes.put(c.getKey(), old == null ? c.getValue() : old + c.getValue());
      }
    }
    if (!causes.isEmpty()) {
      StringBuilder sb = new StringBuilder("Caused by: ");
      boolean first = true;
      for (Map.Entry<String, Long> c : causes.entrySet()) {
        sb.append(first ? "" : ", ").append(c.getKey()).append(" (").append(Fmt.count(c.getValue()))
            .append(')');
        first = false;
      }
      r.evidence(sb.append('.').toString());
    }
    ServerVersion driver = jdbc.parsedDriverVersion();
    Change.Builder change = Change.builder();
    // maxPerformance turns the statement cache on: with server prepares on a driver whose cache
    // resets (ConnectorJ), that would add a COM_STMT_RESET per statement.
    boolean cacheWouldReset =
        ConnectorJ.resetsCachedStatements(driver)
            && jdbc.isTrue(JdbcProperty.USE_SERVER_PREP_STMTS)
            && !jdbc.isTrue(JdbcProperty.CACHE_PREP_STMTS);
    if (driver == null || (driver.compareTo(new ServerVersion(8, 0, 33)) >= 0 && !cacheWouldReset)) {
      change.jdbc(JdbcProperty.USE_CONFIGS, "maxPerformance");
      if (driver == null) {
        change.note(
            "useConfigs=maxPerformance needs Connector/J >= 8.0.33 (driver version unknown); on"
                + " older drivers set useLocalSessionState=true, cacheServerConfiguration=true,"
                + " elideSetAutoCommits=true, alwaysSendSetIsolation=false instead.");
      }
      change.note(
          "maxPerformance also sets cachePrepStmts=true but keeps prepStmtCacheSize=25 and"
              + " prepStmtCacheSqlLimit=256; size them too (rule "
              + StatementCacheRule.ID
              + ").");
    } else {
      r.evidence(
          cacheWouldReset
              ? "Not useConfigs=maxPerformance: it turns on cachePrepStmts, and "
                  + ConnectorJ.resetReason(driver) + " (rule " + DriverUpgradeRule.ID + ")."
              : "Connector/J " + jdbc.driverVersion()
                  + " predates maxPerformance as TiDB documents it (8.0.33).");
      change
          .jdbc(JdbcProperty.USE_LOCAL_SESSION_STATE, "true")
          .jdbc(JdbcProperty.CACHE_SERVER_CONFIGURATION, "true")
          .jdbc(JdbcProperty.ELIDE_SET_AUTO_COMMITS, "true")
          .jdbc(JdbcProperty.ALWAYS_SEND_SET_ISOLATION, "false");
    }
    Long app = causes.get("application");
    if (app != null && app > w.sessionProbes / 2) {
      change.note(
          "Most probes come from the application's own SQL: driver settings cannot remove those;"
              + " use Connection.setAutoCommit/setTransactionIsolation instead of SET statements.");
    }
    long sets = w.sessionProbes - w.stateReads;
    r.change(change.build())
        .expectedEffect(
            "The driver answers getTransactionIsolation/isReadOnly from local state ("
                + Fmt.count(w.stateReads)
                + " round trips fewer in this window) and skips SETs that would not change the"
                + " session's state (up to "
                + Fmt.count(sets)
                + " more; a SET that does change it, such as a transaction's setAutoCommit(false)"
                + " and back, is still sent). In the study, business throughput rose while raw QPS"
                + " fell (56.3k -> 24.2k) because the cheap probes were gone.")
        .risk(
            "useLocalSessionState trusts the driver's view: if the application changes isolation,"
                + " autocommit or read-only with SQL (SET SESSION ...) instead of JDBC calls, the"
                + " view goes stale. maxPerformance also sets enableQueryTimeouts=false"
                + " (Statement.setQueryTimeout no longer cancels) and connectionAttributes=none.")
        .verify(
            "A new profile shows ISOLATION_READ/READ_ONLY_READ near zero and fewer COM_QUERY per"
                + " statement.");
    if (w.stateReads > 0) {
      // Only the reads are a promise: which SETs were redundant, the profile cannot tell.
      r.expect(
          Expectation.atMost(
              Metric.STATE_READS_PER_STATEMENT,
              profile,
              0.1 * Workload.ratio(w.stateReads, w.businessExecutions)));
    }
    return r.build();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.stateSaving(r,
        "reads of isolation and read-only state are answered by the driver, and a READ WRITE"
            + " reset follows only a READ ONLY the server accepted (after a rejected one the"
            + " driver's local flag never changed)");
  }
}
