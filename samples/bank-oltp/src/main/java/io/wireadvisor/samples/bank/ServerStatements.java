package io.wireadvisor.samples.bank;

import io.wireadvisor.testkit.DatabaseServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Statement-level counters next to the command counters: SELECTs and SETs executed (to derive the
 * session-variable probes), the prepared-plan-cache hits and the table-cache reads (TiDB only).
 *
 * <p>MySQL/MariaDB: {@code Com_select} and {@code Com_set_option} from {@code SHOW GLOBAL STATUS},
 * which counts every executed SELECT, text or prepared. TiDB: {@code tidb_executor_statement_total}
 * by type, {@code tidb_server_read_from_tablecache_total}, and {@code PLAN_CACHE_HITS}, {@code
 * EXEC_COUNT} and {@code SUM_LATENCY} summed over this schema's rows of {@code
 * information_schema.STATEMENTS_SUMMARY}.
 *
 * <p>Readings go over their own connection; the runner takes them outside the command-counter
 * window so that they do not show up in it.
 */
final class ServerStatements implements AutoCloseable {
  /** Cumulative values; null where the server has no such counter. */
  record Reading(
      Long selects, Long sets, Long planExecutions, Long planCacheHits, Long tableCacheReads, Long execNanos) {
    Reading(Long selects, Long sets, Long planExecutions, Long planCacheHits, Long tableCacheReads) {
      this(selects, sets, planExecutions, planCacheHits, tableCacheReads, null);
    }

    Reading minus(Reading earlier) {
      Long exec = d(planExecutions, earlier.planExecutions);
      Long hits = d(planCacheHits, earlier.planCacheHits);
      Long nanos = d(execNanos, earlier.execNanos);
      if (backwards(planExecutions, earlier.planExecutions) || backwards(planCacheHits, earlier.planCacheHits)
          || backwards(execNanos, earlier.execNanos)) {
        // One STATEMENTS_SUMMARY row set: when the summary began a new interval within the window
        // (every 30 min by default) one column can still grow while another fell; none is known
        // then (found by the CI pass on TiDB: executions known, hits not, a NullPointerException).
        exec = null;
        hits = null;
        nanos = null;
      }
      return new Reading(
          d(selects, earlier.selects), d(sets, earlier.sets), exec, hits,
          d(tableCacheReads, earlier.tableCacheReads), nanos);
    }

    private static boolean backwards(Long a, Long b) {
      return a != null && b != null && a < b;
    }

    private static Long d(Long a, Long b) {
      // STATEMENTS_SUMMARY starts a new interval now and then; a negative delta means unknown.
      return a == null || b == null || a - b < 0 ? null : a - b;
    }
  }

  private final DatabaseServer server;
  private final String database;
  private final TiDBMetrics metrics;
  private Connection admin;

  ServerStatements(DatabaseServer server, String database) {
    this.server = server;
    this.database = database;
    this.metrics = server.statusUrl().map(TiDBMetrics::new).orElse(null);
  }

  /**
   * @param metricsFirst on TiDB, scrape before querying STATEMENTS_SUMMARY (at a window's end) or
   *     after (at its start), so that the query itself falls outside the window
   */
  Reading read(boolean metricsFirst) throws SQLException {
    if (admin == null || admin.isClosed()) {
      admin = server.connect(null, null);
    }
    if (!server.isTiDB()) {
      long selects = 0;
      long sets = 0;
      try (Statement s = admin.createStatement();
          ResultSet rs =
              s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select', 'Com_set_option')")) {
        while (rs.next()) {
          if (rs.getString(1).equalsIgnoreCase("Com_select")) {
            selects = rs.getLong(2);
          } else {
            sets = rs.getLong(2);
          }
        }
      }
      return new Reading(selects, sets, null, null, null);
    }
    String text = metricsFirst ? scrape() : null;
    Long exec = null;
    Long hits = null;
    Long execNanos = null;
    try (PreparedStatement ps =
        admin.prepareStatement(
            // The application's statements only: SET autocommit and COMMIT never use the plan
            // cache, and COMMIT's time is the transaction's, not a statement's.
            "SELECT COALESCE(SUM(EXEC_COUNT), 0), COALESCE(SUM(PLAN_CACHE_HITS), 0), COALESCE(SUM(SUM_LATENCY), 0)"
                + " FROM information_schema.STATEMENTS_SUMMARY WHERE SCHEMA_NAME = ?"
                + " AND STMT_TYPE IN ('Select', 'Insert', 'Update', 'Delete', 'Replace')")) {
      ps.setString(1, database);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          exec = rs.getLong(1);
          hits = rs.getLong(2);
          // TiDB's own time per statement, parse to last row (ns): what execution costs without the wire.
          execNanos = rs.getLong(3);
        }
      }
    }
    Long selects = null;
    Long sets = null;
    Long tableCache = null;
    if (text == null) {
      text = scrape();
    }
    if (text != null) {
      selects = (long) TiDBMetrics.sum(text, "tidb_executor_statement_total", "type=\"Select\"");
      sets = (long) TiDBMetrics.sum(text, "tidb_executor_statement_total", "type=\"Set\"");
      tableCache = (long) TiDBMetrics.sum(text, "tidb_server_read_from_tablecache_total", "");
    }
    return new Reading(selects, sets, exec, hits, tableCache, execNanos);
  }

  private String scrape() throws SQLException {
    if (metrics == null) {
      return null;
    }
    try {
      return metrics.scrape();
    } catch (IOException e) {
      throw new SQLException("cannot read TiDB metrics", e);
    }
  }

  @Override
  public void close() {
    if (admin != null) {
      try {
        admin.close();
      } catch (SQLException ignored) {
        // Going away anyway.
      }
      admin = null;
    }
  }
}
