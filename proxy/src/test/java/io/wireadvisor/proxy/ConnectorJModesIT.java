package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.epoll.Epoll;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerCounters;
import io.wireadvisor.testkit.ServerKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connector/J in every mode, once directly and once through the proxy: the results must be
 * identical, and the proxy's per-command counts must equal the server's own counter deltas.
 */
@RealDatabase
class ConnectorJModesIT {
  private final DatabaseServer server;
  private final ServerCounters counters;
  private final String db;
  /** TiDB has no stored procedures: multiple result sets come from multi-statements alone. */
  private final boolean procedures;

  ConnectorJModesIT(DatabaseServer server) throws SQLException {
    this.server = server;
    this.counters = server.counters();
    this.db = server.createDatabase("proxy_modes");
    this.procedures = server.kind() != ServerKind.TIDB;
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(64), balance DECIMAL(12,2),"
          + " note TEXT, data LONGBLOB)");
      if (procedures) {
        s.execute("CREATE PROCEDURE two_results(IN n INT) BEGIN"
            + " SELECT id, owner FROM acct WHERE id <= n ORDER BY id;"
            + " SELECT COUNT(*) AS c FROM acct; END");
      }
    }
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "useServerPrepStmts=false",
        "useServerPrepStmts=true&cachePrepStmts=false",
        "useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=5",
        "useConfigs=maxPerformance&useServerPrepStmts=true",
        "useConfigs=maxPerformance",
        "rewriteBatchedStatements=true",
        "useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=3",
        "useServerPrepStmts=true&cachePrepStmts=true&useCursorFetch=true&defaultFetchSize=2",
      })
  void resultsMatchDirectAndCountsMatchTheServer(String properties) throws Exception {
    ProxyConfig config = ProxyConfig.of("127.0.0.1", 0, server.host(), server.port());
    String transport = assertMatchesDirect(properties, config);
    // The default takes Linux's native epoll wherever it loads (the jar ships x86_64 only).
    assertThat(transport).isEqualTo(Epoll.isAvailable() ? "epoll" : "nio");
  }

  /** The portable NIO transport forwards and classifies the same as the default. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "useServerPrepStmts=false",
        "useServerPrepStmts=true&cachePrepStmts=true&useCursorFetch=true&defaultFetchSize=2",
      })
  void nioTransportMatchesDirectAndCountsMatchTheServer(String properties) throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()).withTransport("nio");
    assertThat(assertMatchesDirect(properties, config)).isEqualTo("nio");
  }

  /** Runs the workload direct and through a proxy with {@code config}; returns its transport. */
  private String assertMatchesDirect(String properties, ProxyConfig config) throws Exception {
    List<String> direct;
    try (Connection c = server.connect(db, properties)) {
      direct = workload(c);
    }
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      CounterSnapshot before = counters.snapshot();
      List<String> proxied;
      TrafficProfile profile;
      CounterSnapshot delta;
      try (Connection c = p.connect(db, properties)) {
        proxied = workload(c);
        // Before close(): COM_QUIT shows up in MariaDB's Questions, not in any exact counter.
        delta = counters.snapshot().minus(before);
        profile = p.proxy.profile();
      }
      assertThat(proxied).isEqualTo(direct);
      p.assertCountsEqual(profile, delta);
      assertShapesAccountForEveryCommand(profile);
      // Each ERR by the server's code and SQLSTATE, as the client saw it ("error 1054").
      assertThat(proxied).contains("error 1054");
      ShapeStats unknownColumn = shapeOf(profile, "select nope from acct");
      assertThat(unknownColumn.errors()).containsOnlyKeys(1054);
      // One ERR, or two where a cursor-fetch Statement prepares first and then falls back to text.
      assertThat(unknownColumn.errors().get(1054).count())
          .isEqualTo(unknownColumn.count(Via.ERRORS)).isBetween(1L, 2L);
      assertThat(unknownColumn.errors().get(1054).sqlState()).isEqualTo("42S22");
      assertThat(p.proxy.clientProtocolErrors()).isZero();
      return p.proxy.transport();
    }
  }

  @Test
  void streamingResultSetIsIdenticalAndCounted() throws Exception {
    String props = "useServerPrepStmts=false";
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection direct = server.connect(db, props);
        Connection proxied = p.connect(db, props)) {
      reset(direct);
      CounterSnapshot before = counters.snapshot();
      long queriesBefore = p.proxy.profile().count(CommandType.QUERY);
      List<String> a = streamAll(direct);
      List<String> b = streamAll(proxied);
      assertThat(b).isEqualTo(a).hasSize(200);
      CounterSnapshot delta = counters.snapshot().minus(before);
      // Both connections sent the same commands (the SELECT, and Connector/J's SETs of
      // net_write_timeout around a streaming result); the proxy saw only its own half.
      long proxiedQueries = p.proxy.profile().count(CommandType.QUERY) - queriesBefore;
      assertThat(proxiedQueries).isGreaterThanOrEqualTo(1);
      assertThat(delta.get("COM_QUERY")).isEqualTo(2 * proxiedQueries);
    }
  }

  @Test
  void multiStatementAndMultipleResultSetsAreFollowed() throws Exception {
    String props = "allowMultiQueries=true&useServerPrepStmts=false";
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection direct = server.connect(db, props);
        Connection proxied = p.connect(db, props)) {
      reset(direct);
      List<String> a = multiResults(direct);
      List<String> b = multiResults(proxied);
      assertThat(b).isEqualTo(a);
      assertThat(a).hasSizeGreaterThan(4);
      TrafficProfile profile = p.proxy.profile();
      // Two multi-result COM_QUERYs plus a final check query: every one matched to its end.
      ShapeStats check = shapeOf(profile, "select ? as after_multi");
      assertThat(check.count(Via.TEXT_EXECUTES)).isEqualTo(1);
      // The CALL through a server-side prepared statement (multiple results on EXECUTE).
      assertThat(profile.total(Via.EXECUTES)).isEqualTo(procedures ? 1 : 0);
    }
  }

  @Test
  void loadDataLocalInfileIsForwardedAndCounted() throws Exception {
    String props = "allowLoadLocalInfile=true&useServerPrepStmts=false";
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection c = p.connect(db, props);
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS loaded");
      s.execute("CREATE TABLE loaded (id INT, name VARCHAR(20))");
      StringBuilder file = new StringBuilder();
      for (int i = 0; i < 1000; i++) {
        file.append(i).append('\t').append("name").append(i).append('\n');
      }
      ((com.mysql.cj.jdbc.JdbcStatement) s)
          .setLocalInfileInputStream(
              new ByteArrayInputStream(file.toString().getBytes(StandardCharsets.UTF_8)));
      int rows = s.executeUpdate("LOAD DATA LOCAL INFILE 'ignored.tsv' INTO TABLE loaded");
      assertThat(rows).isEqualTo(1000);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id) FROM loaded")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(1000);
        assertThat(rs.getLong(2)).isEqualTo(999L * 1000 / 2);
      }
      TrafficProfile profile = p.proxy.profile();
      ShapeStats load = shapeOf(profile, "load data local infile ? into table loaded");
      assertThat(load.count(Via.TEXT_EXECUTES)).isEqualTo(1);
      assertThat(load.count(Via.ERRORS)).isZero();
    }
  }

  @Test
  void longDataResetAndChangeUserAreFollowed() throws Exception {
    String props = "useServerPrepStmts=true&cachePrepStmts=false";
    try (ProxiedServer p = ProxiedServer.start(server)) {
      CounterSnapshot before = counters.snapshot();
      CounterSnapshot delta;
      TrafficProfile profile;
      try (Connection c = p.connect(db, props)) {
        reset(c);
        try (PreparedStatement ps = c.prepareStatement("UPDATE acct SET data = ? WHERE id = ?")) {
          ps.setBinaryStream(1, new ByteArrayInputStream(new byte[70_000]));
          ps.setInt(2, 1);
          assertThat(ps.executeUpdate()).isEqualTo(1);
          ps.clearParameters();
          ps.setBinaryStream(1, new ByteArrayInputStream(new byte[10]));
          ps.setInt(2, 2);
          assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        // COM_CHANGE_USER with the same account: a new session, prepared statements dropped.
        ((com.mysql.cj.jdbc.JdbcConnection) c).changeUser(server.user(), server.password());
        try (PreparedStatement ps = c.prepareStatement("SELECT LENGTH(data) FROM acct WHERE id = ?")) {
          ps.setInt(1, 1);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(70_000);
          }
        }
        delta = counters.snapshot().minus(before);
        profile = p.proxy.profile();
      }
      p.assertCountsEqual(profile, delta);
      assertShapesAccountForEveryCommand(profile);
      assertThat(profile.count(CommandType.CHANGE_USER)).isEqualTo(1);
      assertThat(profile.count(CommandType.STMT_SEND_LONG_DATA)).isGreaterThanOrEqualTo(2);
      assertThat(profile.count(CommandType.STMT_RESET)).isEqualTo(1);
    }
  }

  /** The same statements every mode runs: text, prepared, batches, failures, procedures. */
  private List<String> workload(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    reset(c);
    try (PreparedStatement ps = c.prepareStatement("SELECT id, owner, balance FROM acct WHERE id = ?")) {
      for (int i = 1; i <= 12; i++) {
        ps.setInt(1, i);
        try (ResultSet rs = ps.executeQuery()) {
          out.addAll(rows(rs));
        }
      }
    }
    for (int i = 0; i < 3; i++) {
      try (PreparedStatement ps =
          c.prepareStatement("UPDATE acct SET balance = balance + ? WHERE id = ?")) {
        ps.setBigDecimal(1, new java.math.BigDecimal("1.25"));
        ps.setInt(2, i + 1);
        out.add("updated " + ps.executeUpdate());
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO acct (id, owner, balance) VALUES (?, ?, ?)")) {
      for (int i = 1000; i < 1020; i++) {
        ps.setInt(1, i);
        ps.setString(2, "batch" + i);
        ps.setInt(3, i);
        ps.addBatch();
      }
      for (int n : ps.executeBatch()) {
        out.add("batch " + (n > 0 || n == Statement.SUCCESS_NO_INFO));
      }
    }
    try (Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT id, owner, balance, note FROM acct ORDER BY id")) {
        out.addAll(rows(rs));
      }
      try (ResultSet rs = s.executeQuery("SELECT * FROM acct WHERE id < 0")) {
        out.addAll(rows(rs));
        out.add("columns " + rs.getMetaData().getColumnCount());
      }
      try {
        s.executeQuery("SELECT nope FROM acct");
      } catch (SQLException e) {
        out.add("error " + e.getErrorCode());
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT owner FROM no_such_table WHERE id = ?")) {
      ps.setInt(1, 1);
      ps.executeQuery();
    } catch (SQLException e) {
      out.add("error " + e.getErrorCode());
    }
    try (PreparedStatement ps =
        c.prepareStatement("SELECT id, owner FROM acct WHERE id BETWEEN ? AND ? ORDER BY id")) {
      ps.setFetchSize(4);
      ps.setInt(1, 1000);
      ps.setInt(2, 1013);
      try (ResultSet rs = ps.executeQuery()) {
        out.addAll(rows(rs));
      }
    }
    if (procedures) {
      callTwoResults(c, out);
    }
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM acct WHERE id >= 1010");
    }
    c.rollback();
    c.setAutoCommit(true);
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM acct")) {
      out.addAll(rows(rs));
    }
    return out;
  }

  private static void reset(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DELETE FROM acct");
      StringBuilder sql = new StringBuilder("INSERT INTO acct (id, owner, balance, note) VALUES ");
      for (int i = 1; i <= 200; i++) {
        sql.append(i > 1 ? "," : "")
            .append('(').append(i).append(", 'owner").append(i).append("', ")
            .append(i * 10).append(".50, ")
            .append(i % 3 == 0 ? "NULL" : "'note " + "x".repeat(i) + "'")
            .append(')');
      }
      s.execute(sql.toString());
    }
  }

  private static List<String> streamAll(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s =
        c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      s.setFetchSize(Integer.MIN_VALUE);
      try (ResultSet rs = s.executeQuery("SELECT id, owner, note FROM acct ORDER BY id")) {
        out.addAll(rows(rs));
      }
    }
    return out;
  }

  private static void callTwoResults(Connection c, List<String> out) throws SQLException {
    try (CallableStatement cs = c.prepareCall("{CALL two_results(?)}")) {
      cs.setInt(1, 3);
      drain(cs, cs.execute(), false, out);
    }
  }

  private List<String> multiResults(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement()) {
      boolean isResult =
          s.execute("SELECT id FROM acct WHERE id < 4; UPDATE acct SET note = 'm' WHERE id = 1;"
              + " SELECT owner FROM acct WHERE id = 2"
              + (procedures ? "; CALL two_results(2)" : ""));
      drain(s, isResult, true, out);
      try (ResultSet rs = s.executeQuery("SELECT 1 AS after_multi")) {
        out.addAll(rows(rs));
      }
    }
    if (!procedures) {
      return out;
    }
    try (PreparedStatement ps =
        c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).serverPrepareStatement("CALL two_results(?)")) {
      ps.setInt(1, 3);
      drain(ps, ps.execute(), false, out);
    }
    return out;
  }

  /**
   * Reads every result of {@code st} after its execute returned {@code isResult}, and its update
   * counts when {@code updateCounts}.
   */
  private static void drain(Statement st, boolean isResult, boolean updateCounts, List<String> out)
      throws SQLException {
    while (isResult || st.getUpdateCount() != -1) {
      if (isResult) {
        try (ResultSet rs = st.getResultSet()) {
          out.addAll(rows(rs));
        }
      } else if (updateCounts) {
        out.add("update " + st.getUpdateCount());
      }
      isResult = st.getMoreResults();
    }
  }

  private static List<String> rows(ResultSet rs) throws SQLException {
    List<String> out = new ArrayList<>();
    ResultSetMetaData md = rs.getMetaData();
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        row.append(md.getColumnLabel(i)).append('=').append(rs.getString(i)).append(';');
      }
      out.add(row.toString());
    }
    return out;
  }

  private static ShapeStats shapeOf(TrafficProfile profile, String digestText) {
    return profile.shapes().values().stream()
        .filter(s -> s.digestText().equals(digestText))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no shape '" + digestText + "' in " + digestTexts(profile)));
  }

  private static List<String> digestTexts(TrafficProfile profile) {
    List<String> texts = new ArrayList<>();
    profile.shapes().values().forEach(s -> texts.add(s.digestText()));
    return texts;
  }


  /** Statement ids were followed: every statement command is attributed to a shape. */
  private static void assertShapesAccountForEveryCommand(TrafficProfile profile) {
    assertThat(profile.total(Via.TEXT_EXECUTES)).isEqualTo(profile.count(CommandType.QUERY));
    assertThat(profile.total(Via.PREPARES)).isEqualTo(profile.count(CommandType.STMT_PREPARE));
    assertThat(profile.total(Via.EXECUTES)).isEqualTo(profile.count(CommandType.STMT_EXECUTE));
    assertThat(profile.total(Via.FETCHES)).isEqualTo(profile.count(CommandType.STMT_FETCH));
    assertThat(profile.total(Via.RESETS)).isEqualTo(profile.count(CommandType.STMT_RESET));
    assertThat(profile.total(Via.SEND_LONG_DATA))
        .isEqualTo(profile.count(CommandType.STMT_SEND_LONG_DATA));
    for (CommandType type : profile.commands().keySet()) {
      if (type != CommandType.QUIT && type != CommandType.STMT_CLOSE
          && type != CommandType.STMT_SEND_LONG_DATA) {
        assertThat(profile.commands().get(type).latency())
            .as("latency of %s", type)
            .isNotNull();
        assertThat(profile.commands().get(type).latency().count())
            .isEqualTo(profile.commands().get(type).count());
      }
    }
  }
}
