package io.wireadvisor.proxy;

import static io.wireadvisor.proxy.Wire.bytes;
import static io.wireadvisor.proxy.Wire.columnDef;
import static io.wireadvisor.proxy.Wire.concat;
import static io.wireadvisor.proxy.Wire.eof;
import static io.wireadvisor.proxy.Wire.err;
import static io.wireadvisor.proxy.Wire.int4;
import static io.wireadvisor.proxy.Wire.ok;
import static io.wireadvisor.proxy.Wire.prepareOk;
import static io.wireadvisor.proxy.Wire.query;
import static io.wireadvisor.proxy.Wire.stmt;
import static io.wireadvisor.proxy.Wire.textRow;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.agent.AgentFeed;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.wire.Replies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One trace, two collectors, one profile: the same packet traces, fed to the agent's hooks the way
 * Connector/J's advice feeds them (a command, its first reply packet, whether it failed) and to
 * the proxy's tracker the way the wire brings them (framed bytes from each side), must give the
 * same profile: commands by type, every shape's counts by route and errors, probes, and the
 * per-connection figures that size {@code prepStmtCacheSize}. Only what one collector alone can
 * see is left out: latencies, probe causes and isolation (the agent's).
 */
class TraceTwoCollectorsTest {
  private static final int COM_STMT_EXECUTE = 0x17;
  private static final int COM_STMT_CLOSE = 0x19;
  private static final int COM_STMT_RESET = 0x1a;
  private static final int COM_STMT_FETCH = 0x1c;
  private static final int COM_STMT_SEND_LONG_DATA = 0x18;
  private static final int COM_PING = 0x0e;
  private static final int COM_RESET_CONNECTION = 0x1f;
  private static final int CURSOR_READ_ONLY = 1;

  /** One command and the server's reply to it (empty for commands without one). */
  private record Exchange(byte[] command, List<byte[]> reply) {
    boolean failed() {
      for (byte[] p : reply) {
        if (Replies.errCode(p, p.length) >= 0) {
          return true;
        }
      }
      return false;
    }
  }

  private final List<Exchange> trace = new ArrayList<>();
  private AgentFeed agent;

  @AfterEach
  void turnTheHooksOff() {
    if (agent != null) {
      agent.close();
    }
  }

  private TraceTwoCollectorsTest send(byte[] command, byte[]... reply) {
    trace.add(new Exchange(command, List.of(reply)));
    return this;
  }

  private static byte[] execute(int id, int cursor) {
    return stmt(COM_STMT_EXECUTE, id, concat(bytes(cursor), int4(1)));
  }

  private static byte[][] resultSet(int status, String... rows) {
    List<byte[]> r = new ArrayList<>();
    r.add(bytes(1));
    r.add(columnDef("v"));
    r.add(eof(0));
    for (String row : rows) {
      r.add(textRow(row));
    }
    r.add(eof(status));
    return r.toArray(new byte[0][]);
  }

  private static byte[][] prepared(int id, int columns, int params) {
    List<byte[]> r = new ArrayList<>();
    r.add(prepareOk(id, columns, params));
    for (int i = 0; i < params; i++) {
      r.add(columnDef("?"));
    }
    if (params > 0) {
      r.add(eof(0));
    }
    for (int i = 0; i < columns; i++) {
      r.add(columnDef("c" + i));
    }
    if (columns > 0) {
      r.add(eof(0));
    }
    return r.toArray(new byte[0][]);
  }

  @Test
  void everyDriverModeGivesTheSameProfileFromBothCollectors() throws Exception {
    // Connection set-up probes and text statements, one failing.
    send(query("SELECT @@session.transaction_read_only"), resultSet(2, "0"));
    send(query("SET autocommit=0"), ok(3));
    send(query("SELECT balance FROM account WHERE id = 1"), resultSet(3, "10"));
    send(query("SELECT balance FROM account WHERE id = 2"), resultSet(3, "20"));
    send(query("UPDATE account SET balance = balance - 1 WHERE id = 1"), ok(3));
    send(query("SELECT * FROM missing_table"), err(1146, "Table 'bank.missing_table' doesn't exist"));
    send(query("COMMIT"), ok(2));
    // Server-side prepared statements: prepared, executed twice, closed (no reply).
    send(stmtPrepare("SELECT name FROM customer WHERE id = ?"), prepared(1, 1, 1));
    send(execute(1, 0), resultSet(2, "ann"));
    send(execute(1, 0), resultSet(2, "bob"));
    send(stmt(COM_STMT_CLOSE, 1, new byte[0]));
    // A refused prepare is a command and an error, never a statement of the connection.
    send(stmtPrepare("SELECT nope FROM customer WHERE id = ?"), err(1054, "Unknown column 'nope'"));
    // A statement prepared before the collector saw the connection: counted by type only.
    send(execute(99, 0), resultSet(2, "x"));
    // Cursor fetch: EXECUTE opens a cursor (no rows), FETCH brings them.
    send(stmtPrepare("SELECT id FROM ledger WHERE account_id = ?"), prepared(2, 1, 1));
    send(execute(2, CURSOR_READ_ONLY), bytes(1), columnDef("id"), eof(Replies.SERVER_STATUS_CURSOR_EXISTS | 2));
    send(stmt(COM_STMT_FETCH, 2, int4(100)), textRow("1"), textRow("2"), eof(2 | 0x80));
    // Long data, statement reset, and an execution that fails mid-result.
    send(stmtPrepare("INSERT INTO doc (id, body) VALUES (?, ?)"), prepared(3, 0, 2));
    send(stmt(COM_STMT_SEND_LONG_DATA, 3, concat(bytes(1, 0), "body".getBytes())));
    send(execute(3, 0), ok(2));
    send(stmt(COM_STMT_RESET, 3, new byte[0]), ok(2));
    send(execute(2, 0), bytes(1), columnDef("id"), eof(0), textRow("1"), err(1317, "Query execution was interrupted"));
    // Multi-statement text: two results in one reply.
    send(query("SELECT 1; SELECT 2"), concat3(resultSet(2 | Replies.SERVER_MORE_RESULTS_EXISTS, "1"), resultSet(2, "2")));
    // A ping, then the session reset: the server forgets every prepared statement.
    send(bytes(COM_PING), ok(2));
    send(bytes(COM_RESET_CONNECTION), ok(2));
    send(execute(3, 0), err(1243, "Unknown prepared statement handler (3) given to mysqld_stmt_execute"));
    send(stmtPrepare("SELECT name FROM customer WHERE id = ?"), prepared(4, 1, 1));
    send(execute(4, 0), resultSet(2, "ann"));

    TrafficProfile viaProxy = throughTheProxy();
    TrafficProfile viaAgent = throughTheAgent();

    Map<String, Long> proxy = comparable(viaProxy);
    Map<String, Long> agentView = comparable(viaAgent);
    assertThat(agentView).isEqualTo(proxy);

    // And what they agree on is right, not only equal.
    assertThat(proxy)
        .containsEntry("command STMT_PREPARE", 5L)
        .containsEntry("command STMT_EXECUTE", 8L)
        .containsEntry("command QUERY", 8L)
        .containsEntry("command QUIT", 1L)
        .containsEntry("connections", 1L)
        .containsEntry("connection preparedStatements", 4L)
        .containsEntry("connection distinctPreparedShapes", 3L)
        .containsEntry("connection commands", 28L) // 27 in the trace and COM_QUIT
        .containsEntry("shape select name from customer where id = ? PREPARES", 2L)
        .containsEntry("shape select name from customer where id = ? EXECUTES", 3L)
        .containsEntry("shape select nope from customer where id = ? ERRORS", 1L)
        .containsEntry("shape select nope from customer where id = ? ERR 1054 HY000", 1L)
        .containsEntry("shape select id from ledger where account_id = ? ERR 1317 HY000", 1L)
        .containsEntry("shape select id from ledger where account_id = ? FETCHES", 1L)
        .containsEntry("shape select id from ledger where account_id = ? ERRORS", 1L)
        .containsEntry("shape insert into doc (id, body) values ( ... ) SEND_LONG_DATA", 1L)
        .doesNotContainKey("shape insert into doc (id, body) values ( ... ) ERRORS");
    // Statements outside transactions (status: autocommit on, no transaction): the proxy counts
    // those answered by a result set too; an OK's the agent counts alike.
    assertThat(viaProxy.shape(shapeDigest(viaProxy, "select name from customer where id = ?"))
        .count(Via.OUTSIDE_TRANSACTION)).isEqualTo(3);
    assertThat(viaProxy.shape(shapeDigest(viaProxy, "select balance from account where id = ?"))
        .count(Via.OUTSIDE_TRANSACTION)).as("in a transaction").isZero();
    String insert = "insert into doc (id, body) values ( ... )";
    assertThat(viaAgent.shape(shapeDigest(viaAgent, insert)).count(Via.OUTSIDE_TRANSACTION))
        .isEqualTo(viaProxy.shape(shapeDigest(viaProxy, insert)).count(Via.OUTSIDE_TRANSACTION))
        .isEqualTo(1);
    assertThat(proxy.keySet()).anyMatch(k -> k.startsWith("probe "));
  }

  private static byte[][] concat3(byte[][] a, byte[][] b) {
    byte[][] all = new byte[a.length + b.length][];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static byte[] stmtPrepare(String sql) {
    return concat(bytes(0x16), sql.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private TrafficProfile throughTheProxy() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(TrackerHarness.BASE_CAPS);
    for (Exchange e : trace) {
      h.client(Wire.packet(0, e.command()));
      int seq = 1;
      for (byte[] p : e.reply()) {
        h.server(Wire.packet(seq++, p));
      }
    }
    h.client(Wire.packet(0, bytes(0x01)));
    h.tracker.close();
    return h.profile();
  }

  private TrafficProfile throughTheAgent() {
    agent = new AgentFeed();
    for (Exchange e : trace) {
      // The driver's exception carries the code and SQLSTATE of the ERR that ended the reply.
      byte[] last = e.reply().isEmpty() ? null : e.reply().get(e.reply().size() - 1);
      int code = last == null ? -1 : io.wireadvisor.wire.Replies.errCode(last, last.length);
      agent.command(e.command(), e.reply().isEmpty() ? null : e.reply().get(0), e.failed(), code,
          code < 0 ? null : io.wireadvisor.wire.Replies.errSqlState(last, last.length));
    }
    agent.quit();
    return agent.profile();
  }

  /** What both collectors can see: counts by command, by shape and route, probes, connections. */
  private static Map<String, Long> comparable(TrafficProfile p) {
    Map<String, Long> m = new TreeMap<>();
    for (CommandType t : CommandType.values()) {
      if (p.count(t) != 0) {
        m.put("command " + t, p.count(t));
      }
    }
    for (ShapeStats s : p.shapes().values()) {
      for (Via via : Via.values()) {
        // A result set's final status reaches the agent from the driver's result-set reader
        // (ResultsetReadAdvice, as its rows do), which AgentFeed does not play: compared where the
        // reply is an OK only, below; PoolBorrowsIT checks the agent's count on a real driver.
        if (via == Via.OUTSIDE_TRANSACTION) {
          continue;
        }
        if (s.count(via) != 0) {
          m.merge("shape " + s.digestText() + " " + via, s.count(via), Long::sum);
        }
      }
      s.errors().values().forEach(e -> m.merge("shape " + s.digestText() + " ERR " + e.code() + " "
          + e.sqlState(), e.count(), Long::sum));
    }
    p.probes().forEach((kind, stats) -> {
      if (stats.count() != 0) {
        m.put("probe " + kind, stats.count());
      }
    });
    m.put("connections", p.connections().connections());
    for (ConnectionMetric metric : ConnectionMetric.values()) {
      if (metric != ConnectionMetric.LIFETIME_MILLIS) {
        m.put("connection " + metric.jsonName(), (long) p.connections().distribution(metric).sum());
      }
    }
    return m;
  }

  private static String shapeDigest(TrafficProfile p, String digestText) {
    for (ShapeStats s : p.shapes().values()) {
      if (s.digestText().equals(digestText)) {
        return s.digest();
      }
    }
    throw new AssertionError("no shape " + digestText);
  }
}
