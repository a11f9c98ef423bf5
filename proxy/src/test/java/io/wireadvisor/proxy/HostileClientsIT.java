package io.wireadvisor.proxy;

import io.wireadvisor.wire.Bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that stall, lie about packet lengths or just sit there cost the proxy their own
 * connection and no more: hundreds of stalled handshakes, a 16 MiB command sent a byte at a time,
 * thousands of idle sockets, and a normal client is still served, {@code /health} answers within
 * a second and the heap grows by less than a stated bound.
 */
@RealDatabase
class HostileClientsIT {
  /** What hundreds of hostile clients may add to the heap, all proxies of the test together. */
  private static final long HEAP_BOUND = 64L << 20;

  private final DatabaseServer server;

  HostileClientsIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void stalledAndLyingClientsCostTheirOwnConnectionOnly() throws Exception {
    String db = server.createDatabase("proxy_hostile");
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withAdmin("127.0.0.1", 0)
            // What stalled clients cost once let in: the pre-login limits, which would turn
            // most of them away from one address (PreloginLimitIT), are opened wide here.
            .withLimits(
                ProxyLimits.defaults()
                    .withHandshakeTimeoutMillis(60_000)
                    .withMaxPrelogin(5000, 5000));
    List<Socket> sockets = new ArrayList<>();
    AtomicBoolean dripping = new AtomicBoolean(true);
    Thread drip = null;
    try (BlackHole hole = new BlackHole();
        WireProxy idleProxy =
            WireProxy.start(
                ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", hole.port())
                    .withLimits(
                        ProxyLimits.defaults()
                            .withHandshakeTimeoutMillis(60_000)
                            .withMaxConnections(5000)
                            .withMaxPrelogin(5000, 5000)));
        ProxiedServer p = ProxiedServer.start(server, config)) {
      try (Connection warm = p.connect(db, "")) {
        warm.createStatement().execute("SELECT 1"); // classes loaded before the baseline
      }
      AdminHardeningIT.get(p.proxy.adminPort(), "/health", "127.0.0.1", null, 5000);
      long before = MemoryBoundsTest.usedHeapAfterGc();

      // 150 clients announce a 1 MiB HandshakeResponse: refused at the header (ERR 1835), each
      // of them formerly cost 1 MiB of heap at once.
      List<RawClient> liars = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        RawClient c = new RawClient(p.proxy.port(), 5000);
        liars.add(c);
        c.readPacket();
        c.write(new byte[] {0x00, 0x00, 0x10, 0x01, 0x05}); // 1 MiB announced, 1 byte sent
      }
      // 250 clients announce a 60 KiB one (under the cap) and stall after 1 byte.
      List<RawClient> stalled = new ArrayList<>();
      for (int i = 0; i < 250; i++) {
        RawClient c = new RawClient(p.proxy.port(), 5000);
        stalled.add(c);
        c.readPacket();
        c.write(new byte[] {0x00, (byte) 0xf0, 0x00, 0x01, 0x05});
      }
      // One logged-in client announces a 16 MiB COM_QUERY and sends it a byte every 100 ms.
      RawClient slow = new RawClient(p.proxy.port(), 5000);
      slow.login(server.user(), server.password(), db);
      slow.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x00, 0x03});
      drip =
          new Thread(
              () -> {
                try {
                  while (dripping.get()) {
                    slow.write(new byte[] {'S'});
                    Thread.sleep(100);
                  }
                } catch (Exception e) {
                  // the test is over
                }
              });
      drip.setDaemon(true);
      drip.start();
      // 2,000 idle sockets on a second proxy (in front of a server that never greets).
      for (int i = 0; i < 2000; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", idleProxy.port()), 5000);
        sockets.add(s);
      }
      FaultsIT.waitFor(idleProxy::upstreamConnections, 2000);

      for (RawClient c : liars) {
        byte[] err = c.readPacket();
        assertThat(err).isNotNull();
        assertThat(err[0] & 0xff).isEqualTo(0xff);
        assertThat(Bytes.uint16(err, 1)).isEqualTo(Packets.ER_MALFORMED_PACKET);
        assertThat(c.closedByPeer()).isTrue();
        c.close();
      }

      // A normal client is served, and /health answers within a second.
      long start = System.nanoTime();
      try (Connection c = p.connect(db, "connectTimeout=5000&socketTimeout=5000");
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT 41 + 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(42);
      }
      assertThat(System.nanoTime() - start).as("a normal client within 5 s").isLessThan(5_000_000_000L);
      long healthStart = System.nanoTime();
      AdminHardeningIT.Response health =
          AdminHardeningIT.get(p.proxy.adminPort(), "/health", "127.0.0.1", null, 1000);
      assertThat(health.status()).isEqualTo(200);
      assertThat(System.nanoTime() - healthStart).as("/health within 1 s").isLessThan(1_000_000_000L);

      long retained = MemoryBoundsTest.usedHeapAfterGc() - before;
      assertThat(retained)
          .as("heap retained by 400 stalled handshakes, a 16 MiB drip and 2,000 idle sockets")
          .isLessThan(HEAP_BOUND);
      assertThat(p.proxy.clientConnections()).isGreaterThanOrEqualTo(250); // stalled, still open
      for (RawClient c : stalled) {
        c.close();
      }
      dripping.set(false);
      drip.join(2000);
      slow.close();
    } finally {
      dripping.set(false);
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void pastMaxConnectionsClientsGetErr1040AndTheOthersGoOn() throws Exception {
    try (BlackHole hole = new BlackHole();
        WireProxy proxy =
            WireProxy.start(
                ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", hole.port())
                    .withLimits(ProxyLimits.defaults().withMaxConnections(3)))) {
      List<RawClient> admitted = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        admitted.add(new RawClient(proxy.port(), 500));
      }
      FaultsIT.waitFor(proxy::upstreamConnections, 3);
      try (RawClient refused = new RawClient(proxy.port(), 5000)) {
        byte[] err = refused.readPacket();
        assertThat(refused.lastSeq).isZero();
        assertThat(err[0] & 0xff).isEqualTo(0xff);
        assertThat(Bytes.uint16(err, 1)).isEqualTo(1040);
        assertThat(new String(err, 3, err.length - 3, java.nio.charset.StandardCharsets.UTF_8))
            .isEqualTo("Too many connections");
        assertThat(refused.closedByPeer()).isTrue();
      }
      assertThat(proxy.upstreamConnections()).isEqualTo(3); // no upstream for the refused one
      admitted.remove(0).close();
      FaultsIT.waitFor(proxy::clientConnections, 2);
      RawClient next = new RawClient(proxy.port(), 500);
      admitted.add(next);
      FaultsIT.waitFor(proxy::upstreamConnections, 3); // admitted again once one left
      for (RawClient c : admitted) {
        c.close();
      }
    }
  }

  @Test
  void aClientThatDoesNotLogInInTimeGetsAnErrAndIsClosed() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withLimits(ProxyLimits.defaults().withHandshakeTimeoutMillis(500));
    try (WireProxy proxy = WireProxy.start(config);
        RawClient c = new RawClient(proxy.port(), 5000)) {
      long start = System.nanoTime();
      byte[] err = c.readPacket(); // the greeting (then the client sends nothing)...
      if ((err[0] & 0xff) != 0xff) {
        err = c.readPacket(); // ...unless the deadline came first: the ERR replaces it
      }
      assertThat(err[0] & 0xff).isEqualTo(0xff);
      assertThat(Bytes.uint16(err, 1)).isEqualTo(Packets.ER_HANDSHAKE_ERROR);
      assertThat(c.closedByPeer()).isTrue();
      assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
      FaultsIT.waitFor(proxy::clientConnections, 0);
      FaultsIT.waitFor(proxy::upstreamConnections, 0);
      assertThat(proxy.stats().handshakeTimeouts.sum()).isEqualTo(1);
    }
  }

  @Test
  void idleClientsAreClosedButNotDuringALongCommand() throws Exception {
    String db = server.createDatabase("proxy_idle");
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withLimits(ProxyLimits.defaults().withIdleTimeoutMillis(400));
    try (WireProxy proxy = WireProxy.start(config)) {
      try (RawClient busy = new RawClient(proxy.port(), 5000)) {
        busy.login(server.user(), server.password(), db);
        // Silent for 1.5 s on both legs of the client's side, but a command is in flight.
        assertThat(busy.query("SELECT SLEEP(1.5)")).isGreaterThan(1); // the result, not a close
        try (RawClient idle = new RawClient(proxy.port(), 5000)) {
          idle.login(server.user(), server.password(), db);
          assertThat(idle.closedByPeer()).isTrue(); // well before the 5 s socket timeout
        }
        try (RawClient half = new RawClient(proxy.port(), 5000)) {
          half.login(server.user(), server.password(), db);
          half.write(new byte[] {100, 0, 0, 0, 0x03, 'S'}); // 1 byte of a 100-byte COM_QUERY
          assertThat(half.closedByPeer()).isTrue(); // a half-sent command is idle too
        }
      }
      assertThat(proxy.stats().idleTimeouts.sum()).isGreaterThanOrEqualTo(1);
    }
  }

  /** An upstream that accepts connections and never sends a byte. */
  static final class BlackHole implements AutoCloseable {
    private final ServerSocketChannel server;
    private final List<SocketChannel> accepted = new ArrayList<>();
    private final Thread acceptor;

    BlackHole() throws IOException {
      server = ServerSocketChannel.open();
      server.bind(new InetSocketAddress("127.0.0.1", 0), 4096);
      acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    SocketChannel ch = server.accept();
                    synchronized (accepted) {
                      accepted.add(ch);
                    }
                  }
                } catch (IOException e) {
                  // closed
                }
              },
              "black-hole");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() throws IOException {
      return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    @Override
    public void close() throws IOException {
      server.close();
      synchronized (accepted) {
        for (SocketChannel ch : accepted) {
          ch.close();
        }
      }
    }
  }
}
