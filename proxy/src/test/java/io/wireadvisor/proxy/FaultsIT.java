package io.wireadvisor.proxy;

import io.wireadvisor.wire.Bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Faults: an unreachable or dying upstream, vanishing clients, clients that break the protocol. */
@RealDatabase
class FaultsIT {
  private final DatabaseServer server;
  private final String db;

  FaultsIT(DatabaseServer server) throws SQLException {
    this.server = server;
    this.db = server.createDatabase("proxy_faults");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE wide (id INT PRIMARY KEY, pad VARCHAR(200))");
      StringBuilder sql = new StringBuilder("INSERT INTO wide VALUES ");
      for (int i = 0; i < 1000; i++) {
        sql.append(i == 0 ? "" : ",").append('(').append(i).append(", REPEAT('p', 200))");
      }
      s.execute(sql.toString());
    }
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void unreachableUpstreamGivesAnErrorAndTheProxyRecoversWhenItReturns() throws Exception {
    int upstreamPort = freePort();
    try (WireProxy front = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", upstreamPort))) {
      String url = ProxiedServer.url(front.port(), db, "connectTimeout=20000&socketTimeout=20000");
      assertThatThrownBy(() -> DriverManager.getConnection(url, server.user(), server.password()))
          .isInstanceOf(SQLException.class)
          .hasStackTraceContaining("cannot reach upstream 127.0.0.1:" + upstreamPort);
      // The upstream comes back (here: a second proxy, in front of the real server).
      try (WireProxy upstream =
          WireProxy.start(ProxyConfig.of("127.0.0.1", upstreamPort, server.host(), server.port()))) {
        assertThat(selectOne(url)).isEqualTo(1);
      }
      waitFor(front::upstreamConnections, 0);
      waitFor(front::clientConnections, 0);
    }
  }

  @Test
  void upstreamDyingMidQueryGivesTheClientAnErrorNotAHang() throws Exception {
    int upstreamPort = freePort();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (WireProxy front = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", upstreamPort))) {
      WireProxy upstream =
          WireProxy.start(ProxyConfig.of("127.0.0.1", upstreamPort, server.host(), server.port()));
      String url = ProxiedServer.url(front.port(), db, "socketTimeout=120000");
      try (Connection c = DriverManager.getConnection(url, server.user(), server.password())) {
        Future<?> sleeping =
            pool.submit(
                () -> {
                  try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT SLEEP(60)");
                    return null;
                  }
                });
        waitFor(this::sleepingQueries, 1); // the SLEEP runs on the server
        upstream.close(); // the upstream dies while SLEEP(60) runs
        // Well before the 60 s sleep or the 120 s socket timeout: the proxy answered with ERR.
        assertThatThrownBy(() -> sleeping.get(20, java.util.concurrent.TimeUnit.SECONDS))
            .hasStackTraceContaining("upstream server closed the connection during the command");
      }
      assertThat(front.stats().upstreamLostMidCommand.sum()).isEqualTo(1);
      try (WireProxy back =
          WireProxy.start(ProxyConfig.of("127.0.0.1", upstreamPort, server.host(), server.port()))) {
        assertThat(selectOne(url)).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
      // The server may go on sleeping after its client went: TiDB counts the query (its
      // tidb_server_query_total) only when SLEEP(60) ends, a minute later, in another test's
      // window of counters (UpstreamTlsIT's COM_QUERY 7 against the server's 8, in .ci/run).
      killSleepingQueries();
      waitFor(this::sleepingQueries, 0);
      assertThat(sleepingQueries()).as("SELECT SLEEP(60) left on the server").isZero();
    }
  }

  /** Kills the connections still running this test's {@code SELECT SLEEP(60)} on the server. */
  private void killSleepingQueries() throws SQLException {
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      java.util.List<Long> ids = new java.util.ArrayList<>();
      try (ResultSet rs =
          s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(60)'")) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      for (long id : ids) {
        try {
          s.execute("KILL " + id);
        } catch (SQLException gone) {
          // It ended between the two statements.
        }
      }
    }
  }

  @Test
  void clientVanishingMidResultSetClosesItsUpstreamConnection() throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server)) {
      Connection c = p.connect(db, "useServerPrepStmts=false");
      Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      s.setFetchSize(Integer.MIN_VALUE);
      // 1000 x 1000 rows of ~200 bytes: far more than socket buffers, so the server is mid-send.
      ResultSet rs = s.executeQuery("SELECT a.id, b.pad FROM wide a, wide b");
      for (int i = 0; i < 10; i++) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(p.proxy.upstreamConnections()).isEqualTo(1);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        c.abort(pool); // drops the socket without COM_QUIT
      } finally {
        pool.shutdown();
      }
      waitFor(p.proxy::clientConnections, 0);
      waitFor(p.proxy::upstreamConnections, 0);
      assertThat(p.proxy.profile().connections().connections()).isEqualTo(1);
    }
  }

  @Test
  void clientThatStopsReadingHoldsTheServerBackInsteadOfFillingTheProxy() throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server);
        RawClient raw = new RawClient(p.proxy.port(), 30_000)) {
      raw.login(server.user(), server.password(), db);
      long before = p.proxy.stats().bytesFromServer.sum();
      // About 209 MB of rows; the client reads none of it for a while.
      raw.write(Wire.packet(0, Wire.query("SELECT a.id, b.pad FROM wide a, wide b")));
      Thread.sleep(1500);
      long buffered = p.proxy.stats().bytesFromServer.sum() - before;
      // Only socket buffers and the proxy's water mark fill up, not the result.
      assertThat(buffered).isLessThan(32L << 20);
      assertThat(raw.readResult()).isEqualTo(1 + 2 + 1 + 1000 * 1000 + 1);
      assertThat(p.proxy.stats().bytesFromServer.sum() - before).isGreaterThan(200_000_000L);
    }
  }

  @Test
  void outOfSequenceOrMalformedPacketsCloseOnlyThatConnection() throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection good = p.connect(db, null)) {
      byte[][] bad = {
        Wire.packet(3, Wire.query("SELECT 1")), // sequence id must be 0
        Wire.packet(0, new byte[0]), // empty command
        Wire.packet(0, Wire.bytes(0x17, 1, 0)), // EXECUTE without a statement id
      };
      int[] codes = {Packets.ER_NET_PACKETS_OUT_OF_ORDER, Packets.ER_MALFORMED_PACKET, Packets.ER_MALFORMED_PACKET};
      for (int i = 0; i < bad.length; i++) {
        try (RawClient raw = new RawClient(p.proxy.port(), 5000)) {
          raw.login(server.user(), server.password(), db);
          assertThat(raw.query("SELECT 1")).isGreaterThan(1);
          raw.write(bad[i]);
          byte[] reply = raw.readPacket();
          assertThat(reply).isNotNull();
          assertThat(reply[0] & 0xff).isEqualTo(0xff);
          assertThat(Bytes.uint16(reply, 1)).as("error code for case %d", i).isEqualTo(codes[i]);
          assertThat(new String(reply, 9, reply.length - 9)).contains("wire-advisor proxy closed");
          assertThat(raw.closedByPeer()).isTrue();
        }
        try (Statement s = good.createStatement();
            ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM wide")) {
          rs.next();
          assertThat(rs.getInt(1)).isEqualTo(1000);
        }
      }
      assertThat(p.proxy.clientProtocolErrors()).isEqualTo(bad.length);
      waitFor(p.proxy::upstreamConnections, 1);
    }
  }

  private int sleepingQueries() {
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(60)'")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private int selectOne(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, server.user(), server.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  static int freePort() throws java.io.IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Polls (up to 10 s) until {@code value} equals {@code expected}; fails with the last value. */
  static void waitFor(IntSupplier value, int expected) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    int v = value.getAsInt();
    while (v != expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
      v = value.getAsInt();
    }
    assertThat(v).isEqualTo(expected);
  }
}
