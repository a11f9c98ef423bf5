package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, point 6: clients that connect and never log in. Found: 600 stalled sockets from one
 * machine each held a client slot and an upstream connection for the whole handshake timeout.
 * Now at most {@code --max-prelogin-per-source} (32) from one address and {@code
 * --max-prelogin-connections} (128) in all are not logged in at once; past that ERR 1040 at once
 * and no upstream connection, while clients from elsewhere, and logged-in ones, go on.
 */
@RealDatabase
class PreloginLimitIT {
  private final DatabaseServer server;

  PreloginLimitIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void stalledClientsFromOneAddressCannotLockOutOthersAndOpenNoUpstreamPastTheLimit()
      throws Exception {
    ProxyConfig config = ProxyConfig.of("127.0.0.1", 0, server.host(), server.port());
    List<Socket> stalled = new ArrayList<>();
    try (WireProxy proxy = WireProxy.start(config)) {
      int greeted = 0;
      int refused = 0;
      for (int i = 0; i < 40; i++) {
        Socket s = connect("127.0.0.1", proxy.port());
        stalled.add(s);
        int first = firstPacketByte(s);
        if (first == 0x0a) {
          greeted++; // a greeting: then nothing, as a stalled client
        } else if (first == 1040) {
          refused++;
        }
      }
      System.out.printf("40 stalled clients from 127.0.0.1: %d greeted, %d got ERR 1040,"
          + " %d upstream connections%n", greeted, refused, proxy.upstreamConnections());
      assertThat(greeted).isEqualTo(ProxyLimits.DEFAULT_MAX_PRELOGIN_PER_SOURCE);
      assertThat(refused).isEqualTo(40 - ProxyLimits.DEFAULT_MAX_PRELOGIN_PER_SOURCE);
      FaultsIT.waitFor(proxy::upstreamConnections, ProxyLimits.DEFAULT_MAX_PRELOGIN_PER_SOURCE);
      // A client from another address logs in at once, stalled ones notwithstanding.
      long start = System.nanoTime();
      try (Connection c =
              DriverManager.getConnection(
                  ProxiedServer.url(proxy.port(), null,
                      "localSocketAddress=127.0.0.2&connectTimeout=3000&socketTimeout=5000"),
                  server.user(), server.password());
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT 6 * 7")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(42);
      }
      assertThat(System.nanoTime() - start).isLessThan(3_000_000_000L);
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
  }

  @Test
  void loggedInClientsDoNotCountAndTheTotalBoundsEverySourceTogether() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withLimits(ProxyLimits.defaults().withMaxPrelogin(4, 2));
    List<Socket> stalled = new ArrayList<>();
    List<Connection> loggedIn = new ArrayList<>();
    try (WireProxy proxy = WireProxy.start(config)) {
      for (int i = 0; i < 6; i++) {
        loggedIn.add(DriverManager.getConnection(
            ProxiedServer.url(proxy.port(), null, "connectTimeout=3000"), server.user(),
            server.password()));
      }
      FaultsIT.waitFor(proxy.prelogin()::total, 0); // 6 logged in, more than either limit
      // Per source: a third stalled client from 127.0.0.1 is refused...
      for (String from : new String[] {"127.0.0.1", "127.0.0.1"}) {
        Socket s = connect(from, proxy.port());
        stalled.add(s);
        assertThat(firstPacketByte(s)).as("greeting for %s", from).isEqualTo(0x0a);
      }
      Socket third = connect("127.0.0.1", proxy.port());
      stalled.add(third);
      assertThat(firstPacketByte(third)).isEqualTo(1040);
      assertThat(proxy.stats().preloginRefusedSource.sum()).isEqualTo(1);
      for (String from : new String[] {"127.0.0.2", "127.0.0.2"}) {
        Socket s = connect(from, proxy.port());
        stalled.add(s);
        assertThat(firstPacketByte(s)).as("greeting for %s", from).isEqualTo(0x0a);
      }
      // ...and in total, a client from a third address is refused too.
      Socket other = connect("127.0.0.3", proxy.port());
      stalled.add(other);
      assertThat(firstPacketByte(other)).isEqualTo(1040);
      assertThat(proxy.stats().preloginRefusedTotal.sum()).isEqualTo(1);
      assertThat(proxy.prelogin().total()).isEqualTo(4);
      assertThat(proxy.prelogin().sources()).isEqualTo(2);
      FaultsIT.waitFor(proxy::upstreamConnections, 6 + 4); // none for the refused two
      // The logged-in clients go on meanwhile.
      for (Connection c : loggedIn) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
          assertThat(rs.next()).isTrue();
        }
      }
      for (Socket s : stalled) {
        s.close();
      }
      FaultsIT.waitFor(proxy.prelogin()::total, 0);
      assertThat(proxy.prelogin().sources()).as("no source left in the map").isZero();
      for (Connection c : loggedIn) {
        c.close();
      }
      FaultsIT.waitFor(proxy::clientConnections, 0);
      assertThat(proxy.prelogin().total()).isZero();
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
      for (Connection c : loggedIn) {
        c.close();
      }
    }
  }

  private static Socket connect(String from, int port) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    s.connect(new InetSocketAddress("127.0.0.1", port), 3000);
    s.setSoTimeout(5000);
    return s;
  }

  /** 0x0a for a greeting, the error code for an ERR packet. */
  private static int firstPacketByte(Socket s) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    byte[] header = new byte[4];
    in.readFully(header);
    int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
    byte[] payload = new byte[length];
    in.readFully(payload);
    if ((payload[0] & 0xff) == 0xff) {
      return (payload[1] & 0xff) | (payload[2] & 0xff) << 8;
    }
    return payload[0] & 0xff;
  }
}
