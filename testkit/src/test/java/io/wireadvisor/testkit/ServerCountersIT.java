package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Proves which of the server's counters equal what a client sent: every assertion is an exact
 * equality over all of {@link ServerCounters#exactCommands()}.
 */
@RealDatabase
class ServerCountersIT {
  /** Server-side prepares, nothing cached, no session-state probes: every JDBC call is one command. */
  private static final String PLAIN_PS =
      "useServerPrepStmts=true&cachePrepStmts=false&useLocalSessionState=true";

  private final DatabaseServer server;
  private final ServerCounters counters;
  private final String db;

  ServerCountersIT(DatabaseServer server) throws SQLException {
    this.server = server;
    this.counters = server.counters();
    this.db = server.createDatabase("counters");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, b LONGBLOB)");
      s.execute("INSERT INTO t (id) VALUES (1), (2), (3), (4), (5)");
    }
  }

  @Test
  void exactCommandsOnMariaDbCoverQueryAndEveryStatementCommand() {
    assumeTrue(server.kind() == ServerKind.MARIADB, "MariaDB-specific");
    assertThat(counters.exactCommands())
        .containsExactlyInAnyOrder(
            Commands.COM_QUERY,
            Commands.COM_STMT_PREPARE,
            Commands.COM_STMT_EXECUTE,
            Commands.COM_STMT_CLOSE,
            Commands.COM_STMT_RESET,
            Commands.COM_STMT_SEND_LONG_DATA,
            Commands.COM_STMT_FETCH);
  }

  @Test
  void backToBackSnapshotsCountNothing() throws SQLException {
    CounterSnapshot before = counters.snapshot();
    CounterSnapshot after = counters.snapshot();
    assertExactly(after.minus(before), Map.of());
  }

  @Test
  void knownSequenceOfQueriesPreparesExecutesAndClosesIsCountedExactly() throws SQLException {
    int queries = 7;
    int prepares = 3;
    int executesEach = 4;
    try (Connection c = server.connect(db, PLAIN_PS)) {
      CounterSnapshot before = counters.snapshot();
      try (Statement s = c.createStatement()) {
        for (int i = 0; i < queries; i++) {
          try (ResultSet rs = s.executeQuery("SELECT id FROM t WHERE id = " + (i % 5 + 1))) {
            rs.next();
          }
        }
      }
      for (int p = 0; p < prepares; p++) {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM t WHERE id = ? + " + p)) {
          for (int e = 0; e < executesEach; e++) {
            ps.setInt(1, e);
            ps.executeQuery().close();
          }
        }
      }
      CounterSnapshot delta = counters.snapshot().minus(before);
      assertExactly(
          delta,
          Map.of(
              Commands.COM_QUERY, (long) queries,
              Commands.COM_STMT_PREPARE, (long) prepares,
              Commands.COM_STMT_EXECUTE, (long) prepares * executesEach,
              Commands.COM_STMT_CLOSE, (long) prepares));
    }
  }

  @Test
  void multiRowResultsCountOneCommandEach() throws SQLException {
    try (Connection c = server.connect(db, PLAIN_PS);
        Statement s = c.createStatement();
        PreparedStatement ps = c.prepareStatement("SELECT id FROM t WHERE id >= ?")) {
      CounterSnapshot before = counters.snapshot();
      int rows = 0;
      try (ResultSet rs = s.executeQuery("SELECT id FROM t")) {
        while (rs.next()) {
          rows++;
        }
      }
      ps.setInt(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows++;
        }
      }
      CounterSnapshot delta = counters.snapshot().minus(before);
      assertThat(rows).isEqualTo(10);
      assertExactly(delta, Map.of(Commands.COM_QUERY, 1L, Commands.COM_STMT_EXECUTE, 1L));
    }
  }

  @Test
  void failingQueryAndFailingPrepareAreCounted() throws SQLException {
    try (Connection c = server.connect(db, PLAIN_PS);
        Statement s = c.createStatement()) {
      CounterSnapshot before = counters.snapshot();
      try {
        s.executeQuery("SELECT * FROM no_such_table");
      } catch (SQLException expected) {
        // The server answered with an error packet; the command was still sent.
      }
      try {
        c.prepareStatement("SELECT * FROM no_such_table WHERE id = ?");
      } catch (SQLException expected) {
        // Same for COM_STMT_PREPARE.
      }
      CounterSnapshot delta = counters.snapshot().minus(before);
      // Connector/J follows a failed prepare with COM_STMT_CLOSE (of statement id 0). TiDB counts
      // every command it receives; MariaDB and MySQL count a close only of a statement they know.
      long closes = server.kind() == ServerKind.TIDB ? 1L : 0L;
      assertExactly(
          delta,
          Map.of(
              Commands.COM_QUERY, 1L,
              Commands.COM_STMT_PREPARE, 1L,
              Commands.COM_STMT_CLOSE, closes));
    }
  }

  @Test
  void longDataResetAndCursorFetchAreCounted() throws SQLException {
    try (Connection c = server.connect(db, PLAIN_PS);
        Connection cursor = server.connect(db, PLAIN_PS + "&useCursorFetch=true")) {
      CounterSnapshot before = counters.snapshot();
      try (PreparedStatement ps = c.prepareStatement("UPDATE t SET b = ? WHERE id = 1")) {
        // A stream parameter goes as COM_STMT_SEND_LONG_DATA; clearing after it sends COM_STMT_RESET.
        ps.setBinaryStream(1, new ByteArrayInputStream(new byte[100]));
        ps.executeUpdate();
        ps.clearParameters();
        ps.setBinaryStream(1, new ByteArrayInputStream(new byte[100]));
        ps.executeUpdate();
      }
      try (PreparedStatement ps = cursor.prepareStatement("SELECT id FROM t")) {
        ps.setFetchSize(2);
        int rows = 0;
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows++;
          }
        }
        assertThat(rows).isEqualTo(5);
      }
      CounterSnapshot delta = counters.snapshot().minus(before);
      Map<String, Long> expected = new LinkedHashMap<>();
      expected.put(Commands.COM_STMT_PREPARE, 2L);
      expected.put(Commands.COM_STMT_SEND_LONG_DATA, 2L);
      expected.put(Commands.COM_STMT_EXECUTE, 3L);
      expected.put(Commands.COM_STMT_RESET, 1L);
      // 5 rows, 2 per fetch: 2 + 2 + 1 (the last one also says "no more rows").
      expected.put(Commands.COM_STMT_FETCH, 3L);
      expected.put(Commands.COM_STMT_CLOSE, 2L);
      assertExactly(delta, expected);
    }
  }

  @Test
  void multiStatementQueryCountsOncePerStatementOnMariaDb() throws SQLException {
    assumeTrue(server.kind() == ServerKind.MARIADB, "Questions semantics are MariaDB's");
    try (Connection c = server.connect(db, "allowMultiQueries=true&useLocalSessionState=true");
        Statement s = c.createStatement()) {
      CounterSnapshot before = counters.snapshot();
      s.execute("SELECT 1; SELECT 2; SELECT 3");
      while (s.getMoreResults() || s.getUpdateCount() != -1) {
        // Drain every result so the connection is idle before the snapshot.
      }
      CounterSnapshot delta = counters.snapshot().minus(before);
      // One COM_QUERY on the wire, three statements in Questions: documented, not hidden.
      assertExactly(delta, Map.of(Commands.COM_QUERY, 3L));
    }
  }

  @Test
  void sqlLevelPrepareIsCountedAsQueriesNotAsStatementCommandsOnMariaDb() throws SQLException {
    assumeTrue(server.kind() == ServerKind.MARIADB, "Com_*_sql are MariaDB/MySQL counters");
    try (Connection c = server.connect(db, "useLocalSessionState=true");
        Statement s = c.createStatement()) {
      CounterSnapshot before = counters.snapshot();
      s.execute("PREPARE x FROM 'SELECT 1'");
      s.execute("EXECUTE x");
      s.execute("DEALLOCATE PREPARE x");
      CounterSnapshot delta = counters.snapshot().minus(before);
      assertExactly(delta, Map.of(Commands.COM_QUERY, 3L));
    }
  }

  @Test
  void queryWithSyntaxErrorIsCounted() throws SQLException {
    try (Connection c = server.connect(db, "useLocalSessionState=true");
        Statement s = c.createStatement()) {
      CounterSnapshot before = counters.snapshot();
      try {
        // execute(), not executeQuery(): the driver sends it instead of judging it first.
        s.execute("SELEC 1");
      } catch (SQLException expected) {
        // MariaDB counts Questions in dispatch_command, before parsing.
      }
      CounterSnapshot delta = counters.snapshot().minus(before);
      assertExactly(delta, Map.of(Commands.COM_QUERY, 1L));
    }
  }

  @Test
  void closingAConnectionAddsOneToDerivedQueryOnMariaDb() throws Exception {
    assumeTrue(server.kind() == ServerKind.MARIADB, "a MariaDB Questions rule");
    Connection c = server.connect(db, "useLocalSessionState=true");
    CounterSnapshot before = counters.snapshot();
    c.close();
    // COM_QUIT gets no reply, so the server may count it after close() returns.
    long query = 0;
    for (int i = 0; i < 50 && query == 0; i++) {
      Thread.sleep(20);
      query = counters.snapshot().minus(before).get(Commands.COM_QUERY);
    }
    // COM_QUIT is in Questions and has no counter to subtract: the caveat documented on COM_QUERY.
    assertThat(query).isEqualTo(1);
    assertThat(counters.countedAsQuery()).contains(Commands.COM_QUIT);
  }

  /** Every exact command's delta equals the expected value (absent means 0); nothing else is checked. */
  private void assertExactly(CounterSnapshot delta, Map<String, Long> expected) {
    assertThat(counters.exactCommands()).as("exact commands on %s", server).isNotEmpty();
    Map<String, Long> actual = new TreeMap<>();
    Map<String, Long> want = new TreeMap<>();
    for (String command : counters.exactCommands()) {
      actual.put(command, delta.get(command));
      want.put(command, expected.getOrDefault(command, 0L));
    }
    assertThat(actual).as("counter deltas on %s", server).isEqualTo(want);
  }
}
