package io.wireadvisor.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds a {@link ServerView} from a live server, read-only: {@code SELECT VERSION()}, {@code SHOW
 * GLOBAL VARIABLES}, {@code information_schema.TABLES}, and on TiDB {@code
 * information_schema.STATEMENTS_SUMMARY} and (optionally) the status port's {@code /metrics}. It
 * runs only SELECT/SHOW statements and never changes anything.
 */
public final class ServerInspector {
  /** Metric families read from the TiDB status port. */
  static final String[] METRIC_FAMILIES = {
    "tidb_server_query_total",
    "tidb_server_plan_cache_miss_total",
    "tidb_server_read_from_tablecache_total",
    "tidb_executor_statement_total"
  };

  /**
   * Statement summaries kept per scope, most executed first: the inspected schema's and every other
   * schema's, so a view holds at most twice this many.
   */
  static final int MAX_STATEMENTS = 500;

  /**
   * Rows of {@code STATEMENTS_SUMMARY_HISTORY} read per statement kept, for a profile's window (one
   * statement has a row per interval), most executed first, before they are merged.
   */
  static final int HISTORY_ROWS_PER_STATEMENT = 4;

  /** Added to each side of a profile's window: the application's clock and TiDB's may differ. */
  static final long CLOCK_MARGIN_MILLIS = 60_000;

  private ServerInspector() {}

  /**
   * Connects with a JDBC URL (a MySQL-protocol driver must be on the class path) and inspects.
   *
   * @param statusUrl TiDB status port base URL ({@code http://host:10080}), or null
   */
  public static ServerView inspect(String jdbcUrl, String user, String password, String statusUrl)
      throws SQLException, IOException {
    return inspect(jdbcUrl, user, password, statusUrl, 0, 0);
  }

  /**
   * As {@link #inspect(String, String, String, String)}, with TiDB's statement summary read for a
   * profile's window (epoch milliseconds; 0, 0 for TiDB's current interval only).
   */
  public static ServerView inspect(
      String jdbcUrl, String user, String password, String statusUrl, long fromMillis, long toMillis)
      throws SQLException, IOException {
    try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
      return inspect(c, statusUrl, fromMillis, toMillis);
    }
  }

  /** Inspects over an open connection (not closed here); TiDB's current summary interval only. */
  public static ServerView inspect(Connection c, String statusUrl) throws SQLException, IOException {
    return inspect(c, statusUrl, 0, 0);
  }

  /**
   * Inspects over an open connection (not closed here). With a window ({@code fromMillis <
   * toMillis}, epoch milliseconds: a profile's start and end), TiDB's statements are read from
   * {@code STATEMENTS_SUMMARY_HISTORY} for every interval that overlaps it (the history holds the
   * current interval too), so a summary that rotated after the profile was taken still has it; a
   * statement's rows of several intervals are added up; the window is widened by a minute each side
   * for clocks that differ. Without a window, or on a TiDB without a readable history table, {@code
   * STATEMENTS_SUMMARY} (the current interval) is read.
   */
  public static ServerView inspect(Connection c, String statusUrl, long fromMillis, long toMillis)
      throws SQLException, IOException {
    return inspect(c, statusUrl, fromMillis, toMillis, MAX_STATEMENTS);
  }

  /** As {@link #inspect(Connection, String, long, long)}, keeping at most {@code maxStatements} per scope. */
  static ServerView inspect(Connection c, String statusUrl, long fromMillis, long toMillis, int maxStatements)
      throws SQLException, IOException {
    ServerView.Builder b;
    try (Statement st = c.createStatement()) {
      String version;
      String database;
      try (ResultSet rs = st.executeQuery("SELECT VERSION(), DATABASE()")) {
        rs.next();
        version = rs.getString(1);
        database = rs.getString(2);
      }
      b = ServerView.builder(version).defaultSchema(database);
      try (ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES")) {
        while (rs.next()) {
          b.global(rs.getString(1), rs.getString(2));
        }
      }
      ServerView partial = b.build();
      String iso = partial.global("transaction_isolation");
      if (iso == null) {
        iso = partial.global("tx_isolation");
      }
      b.isolation(iso);
      try (ResultSet rs =
          st.executeQuery(
              "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, DATA_LENGTH, INDEX_LENGTH,"
                  + " CREATE_OPTIONS, TABLE_ROWS FROM information_schema.TABLES WHERE LOWER(TABLE_SCHEMA) NOT IN"
                  + " ('mysql','information_schema','performance_schema','sys','metrics_schema')")) {
        while (rs.next()) {
          String type = upper(rs.getString(3));
          if (type.equals("SEQUENCE")) {
            continue; // TiDB lists sequences here; they are not tables to judge.
          }
          String options = rs.getString(6) == null ? "" : rs.getString(6).toLowerCase(Locale.ROOT);
          b.table(
              new TableInfo(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getLong(4),
                  rs.getLong(5),
                  options.contains("partitioned"),
                  type.contains("TEMPORARY"),
                  type.contains("VIEW"),
                  options.contains("cached=on"),
                  rs.getObject(7) == null ? -1 : rs.getLong(7)));
        }
      }
      if (partial.isTiDB()) {
        // Columns that came with later TiDB versions are read where the server has them.
        Set<String> columns = summaryColumns(st);
        String unqualified = columns.contains("PLAN_CACHE_UNQUALIFIED") ? "PLAN_CACHE_UNQUALIFIED" : "-1";
        String reason =
            columns.contains("PLAN_CACHE_UNQUALIFIED_LAST_REASON") ? "PLAN_CACHE_UNQUALIFIED_LAST_REASON" : "NULL";
        String parse = columns.contains("AVG_PARSE_LATENCY") ? "AVG_PARSE_LATENCY" : "-1";
        String compile = columns.contains("AVG_COMPILE_LATENCY") ? "AVG_COMPILE_LATENCY" : "-1";
        String columnList =
            "SCHEMA_NAME, DIGEST_TEXT, EXEC_COUNT, PLAN_CACHE_HITS, PLAN_IN_CACHE, SUM_LATENCY, DIGEST,"
                + " AVG_PROCESSED_KEYS, " + unqualified + ", " + reason + ", " + parse + ", " + compile;
        boolean history = fromMillis > 0 && toMillis >= fromMillis;
        List<StatementSummary> rows = null;
        if (history) {
          rows = history(c, columnList, database, fromMillis - CLOCK_MARGIN_MILLIS, toMillis + CLOCK_MARGIN_MILLIS,
              maxStatements);
          history = rows != null;
        }
        if (rows == null) {
          rows = current(c, columnList, database, maxStatements);
        }
        for (StatementSummary row : rows) {
          b.statement(row);
        }
        // The window those counts cover (every client's, from the first interval read to now),
        // for the reports to set beside the profile's own window.
        String windowSource = history
            ? "information_schema.STATEMENTS_SUMMARY_HISTORY WHERE " + historyWindow(fromMillis - CLOCK_MARGIN_MILLIS,
                toMillis + CLOCK_MARGIN_MILLIS)
            : "information_schema.STATEMENTS_SUMMARY";
        try (ResultSet rs = st.executeQuery("SELECT DATE_FORMAT(MIN(SUMMARY_BEGIN_TIME), '%Y-%m-%d %H:%i:%s'),"
            + " DATE_FORMAT(NOW(), '%Y-%m-%d %H:%i:%s'), COUNT(DISTINCT SUMMARY_BEGIN_TIME) FROM " + windowSource)) {
          if (rs.next()) {
            b.summaryWindow(rs.getString(1), rs.getString(2));
            b.summaryIntervals(history ? Math.max(1, rs.getInt(3)) : 0);
          }
        }
      }
    }
    if (statusUrl != null && !statusUrl.trim().isEmpty()) {
      readMetrics(b, statusUrl.trim());
    }
    return b.build();
  }

  private static StatementSummary row(ResultSet rs) throws SQLException {
    return new StatementSummary(
            rs.getString(1),
            rs.getString(2),
            rs.getLong(3),
            rs.getLong(4),
            rs.getBoolean(5),
            rs.getLong(6),
            rs.getString(7),
            rs.getDouble(8))
        .withPlanCacheFacts(rs.getLong(9), rs.getString(10), rs.getLong(11), rs.getLong(12));
  }

  /**
   * The scopes a summary is read in, each with its own limit: the inspected schema's rows first,
   * then every other schema's. On a server many applications share, the schema's own statements
   * would otherwise be crowded out of the most-executed rows by busier ones elsewhere (a report that
   * then names none of its plan-cache refusals). Without a schema, one scope: every row.
   */
  private static String[] scopes(String schema) {
    return schema == null
        ? new String[] {"1 = 1"}
        : new String[] {"LOWER(SCHEMA_NAME) = LOWER(?)", "(SCHEMA_NAME IS NULL OR LOWER(SCHEMA_NAME) <> LOWER(?))"};
  }

  /** TiDB's current summary interval: at most {@code max} rows per scope, most executed first. */
  private static List<StatementSummary> current(Connection c, String columnList, String schema, int max)
      throws SQLException {
    List<StatementSummary> rows = new ArrayList<StatementSummary>();
    for (String scope : scopes(schema)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + columnList
          + " FROM information_schema.STATEMENTS_SUMMARY WHERE " + scope + " ORDER BY EXEC_COUNT DESC LIMIT " + max)) {
        if (schema != null) {
          ps.setString(1, schema);
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(row(rs));
          }
        }
      }
    }
    return rows;
  }

  /**
   * The summary rows of the intervals overlapping [from, to], merged per schema and digest (empty
   * when nothing ran then: the current interval is not the window's); null when this TiDB has no
   * readable history table. Per scope, at most {@code 4 * max} rows are read and at most {@code max}
   * kept after merging. Interval times are compared in the session's time zone, in which TiDB shows
   * them and FROM_UNIXTIME converts.
   */
  private static List<StatementSummary> history(
      Connection c, String columnList, String schema, long fromMillis, long toMillis, int max) throws SQLException {
    List<StatementSummary> merged = new ArrayList<StatementSummary>();
    for (String scope : scopes(schema)) {
      List<StatementSummary> rows = new ArrayList<StatementSummary>();
      List<Long> ends = new ArrayList<Long>();
      String sql =
          "SELECT " + columnList + ", UNIX_TIMESTAMP(SUMMARY_END_TIME) FROM information_schema.STATEMENTS_SUMMARY_HISTORY"
              + " WHERE " + historyWindow(fromMillis, toMillis) + " AND " + scope
              + " ORDER BY EXEC_COUNT DESC LIMIT " + (HISTORY_ROWS_PER_STATEMENT * max);
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        if (schema != null) {
          ps.setString(1, schema);
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(row(rs));
            ends.add(rs.getLong(13));
          }
        }
      } catch (SQLException e) {
        return null; // no history on this TiDB: the current interval is read
      }
      Integer[] order = new Integer[rows.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      java.util.Arrays.sort(order, (x, y) -> Long.compare(ends.get(x), ends.get(y)));
      List<StatementSummary> oldestFirst = new ArrayList<StatementSummary>(rows.size());
      for (Integer i : order) {
        oldestFirst.add(rows.get(i));
      }
      merged.addAll(StatementSummary.merge(oldestFirst, max));
    }
    return merged;
  }

  /** The history intervals that overlap {@code [fromMillis, toMillis]}. */
  private static String historyWindow(long fromMillis, long toMillis) {
    return "SUMMARY_END_TIME >= FROM_UNIXTIME(" + (fromMillis / 1000) + ")"
        + " AND SUMMARY_BEGIN_TIME <= FROM_UNIXTIME(" + ((toMillis + 999) / 1000) + ")";
  }

  /** The column names of STATEMENTS_SUMMARY on this server, upper case. */
  private static Set<String> summaryColumns(Statement st) throws SQLException {
    Set<String> names = new HashSet<String>();
    try (ResultSet rs = st.executeQuery("SELECT * FROM information_schema.STATEMENTS_SUMMARY LIMIT 0")) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        names.add(upper(md.getColumnLabel(i)));
      }
    }
    return names;
  }

  private static String upper(String s) {
    return s == null ? "" : s.toUpperCase(Locale.ROOT);
  }

  /** Reads the metric families this project uses from {@code <statusUrl>/metrics}. */
  static void readMetrics(ServerView.Builder b, String statusUrl) throws IOException {
    String base = statusUrl.endsWith("/") ? statusUrl.substring(0, statusUrl.length() - 1) : statusUrl;
    HttpURLConnection http = (HttpURLConnection) new URL(base + "/metrics").openConnection();
    http.setConnectTimeout(5000);
    http.setReadTimeout(10000);
    try {
      if (http.getResponseCode() != 200) {
        throw new IOException(base + "/metrics answered HTTP " + http.getResponseCode());
      }
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(http.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          parseMetricLine(b, line);
        }
      }
    } finally {
      http.disconnect();
    }
  }

  /** Keeps one Prometheus text-format sample line if it belongs to a family of interest. */
  static void parseMetricLine(ServerView.Builder b, String line) {
    if (line.isEmpty() || line.charAt(0) == '#') {
      return;
    }
    for (String family : METRIC_FAMILIES) {
      if (line.startsWith(family) && line.length() > family.length()
          && (line.charAt(family.length()) == '{' || line.charAt(family.length()) == ' ')) {
        int space = line.lastIndexOf(' ');
        try {
          b.metric(line.substring(0, space).trim(), Double.parseDouble(line.substring(space + 1)));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
          // Not a sample line we understand; the view simply lacks it.
        }
        return;
      }
    }
  }
}
