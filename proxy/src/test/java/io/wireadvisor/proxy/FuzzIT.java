package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Throws random and mutated packets at the proxy for a bounded time, before and after login,
 * then checks that a normal client still works and that no connection or buffer is left behind.
 *
 * <p>Mutations after login keep the command byte within harmless commands: a random byte could
 * otherwise be COM_SHUTDOWN or COM_PROCESS_KILL, which the proxy forwards like any command.
 */
@RealDatabase
class FuzzIT {
  private static final long BUDGET_NANOS = 4_000_000_000L;
  private static final int[] SAFE_COMMANDS = {0x00, 0x03, 0x0e, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1c, 0x40, 0xee};

  private final DatabaseServer server;

  FuzzIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void randomAndMutatedPacketsNeverStopANormalClient() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String db = server.createDatabase("proxy_fuzz");
    int rounds = 0;
    try (ProxiedServer p = ProxiedServer.start(server)) {
      long deadline = System.nanoTime() + BUDGET_NANOS;
      while (System.nanoTime() < deadline) {
        rounds++;
        try (RawClient raw = new RawClient(p.proxy.port(), 300)) {
          switch (random.nextInt(4)) {
            case 0 -> raw.write(randomBytes(random, 1 + random.nextInt(200))); // before login
            case 1 -> {
              raw.readPacket();
              raw.write(mutate(random, Wire.packet(1, Wire.handshakeResponse(RawClient.CAPS, "root", new byte[20], "mysql_native_password"))));
            }
            default -> {
              raw.login(server.user(), server.password(), db);
              for (int i = 0; i < 1 + random.nextInt(5); i++) {
                raw.write(commandPacket(random));
              }
            }
          }
          raw.closedByPeer(); // read whatever comes back, up to the socket timeout
        } catch (IOException e) {
          // Closed or reset by the proxy: expected for garbage.
        }
      }
      try (Connection c = p.connect(db, "useServerPrepStmts=true");
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT 40 + 2")) {
        rs.next();
        assertThat(rs.getInt(1)).as("seed %d", seed).isEqualTo(42);
      }
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      FaultsIT.waitFor(p.proxy::upstreamConnections, 0);
      assertThat(rounds).isGreaterThan(10);
      assertThat(p.proxy.clientProtocolErrors()).as("seed %d", seed).isPositive();
    }
  }

  /**
   * A malicious upstream: fuzzed greetings, auth switches with garbage, result sets whose lengths
   * lie (a column count of 2^60, a row announced as 16 MiB and never sent, packets cut short),
   * greetings announcing 16 MiB. The proxy closes only that connection, never dies, holds no
   * more than its caps, and serves the next client.
   */
  @Test
  void aLyingUpstreamCostsOnlyItsOwnConnection() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    java.util.concurrent.atomic.AtomicBoolean honest = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger served = new java.util.concurrent.atomic.AtomicInteger();
    try (java.net.ServerSocket fake = new java.net.ServerSocket(0, 200, java.net.InetAddress.getLoopbackAddress())) {
      Thread serverThread =
          new Thread(
              () -> {
                Random r = new Random(seed + 1);
                while (!fake.isClosed()) {
                  try (java.net.Socket s = fake.accept()) {
                    s.setSoTimeout(200);
                    served.incrementAndGet();
                    lie(r, s, honest.get());
                  } catch (IOException e) {
                    // the proxy closed it, or the test ended
                  }
                }
              },
              "lying-upstream");
      serverThread.setDaemon(true);
      serverThread.start();
      ProxyConfig config = ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", fake.getLocalPort());
      try (WireProxy proxy = WireProxy.start(config)) {
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int rounds = 0;
        while (System.nanoTime() < deadline) {
          rounds++;
          try (RawClient raw = new RawClient(proxy.port(), 200)) {
            byte[] greeting = raw.readPacket();
            if (greeting != null && greeting.length > 0 && (greeting[0] & 0xff) == 0x0a) {
              raw.write(Wire.packet(1, Wire.handshakeResponse(RawClient.CAPS, "root", new byte[20], "mysql_native_password")));
              byte[] answer = raw.readPacket();
              if (answer != null && answer.length > 0 && answer[0] == 0) {
                raw.write(Wire.packet(0, Wire.query("SELECT " + random.nextInt())));
              }
            }
            raw.closedByPeer();
          } catch (IOException e) {
            // closed or reset: expected
          }
        }
        honest.set(true);
        try (RawClient raw = new RawClient(proxy.port(), 5000)) {
          byte[] greeting = raw.readPacket();
          assertThat(greeting).as("seed %d", seed).isNotNull();
          assertThat(greeting[0] & 0xff).as("seed %d", seed).isEqualTo(0x0a);
        }
        FaultsIT.waitFor(proxy::clientConnections, 0);
        FaultsIT.waitFor(proxy::upstreamConnections, 0);
        assertThat(rounds).isGreaterThan(5);
        assertThat(served.get()).isGreaterThan(5);
      }
    }
  }

  /** One connection of the lying upstream (or an honest greeting). */
  private static void lie(Random r, java.net.Socket s, boolean honest) throws IOException {
    java.io.OutputStream out = s.getOutputStream();
    java.io.InputStream in = s.getInputStream();
    byte[] greeting = Wire.packet(0, Wire.greeting("8.0.11-TiDB-v8.5.3", TrackerHarness.BASE_CAPS, "mysql_native_password"));
    if (honest) {
      out.write(greeting);
      out.flush();
      in.read();
      return;
    }
    switch (r.nextInt(6)) {
      case 0 -> out.write(mutate(r, greeting));
      case 1 -> out.write(Wire.concat(Wire.header(0xffffff, 0), randomBytes(r, 100))); // 16 MiB greeting
      case 2 -> out.write(randomBytes(r, 1 + r.nextInt(300)));
      default -> {
        out.write(greeting);
        out.flush();
        in.read(new byte[4096]);
        byte[] next = switch (r.nextInt(3)) {
          case 0 -> Wire.packet(2, Wire.concat(Wire.bytes(0xfe), randomBytes(r, r.nextInt(80)))); // auth switch
          case 1 -> Wire.packet(2, randomBytes(r, r.nextInt(80)));
          default -> Wire.packet(2, Wire.ok(2));
        };
        out.write(r.nextInt(3) == 0 ? mutate(r, next) : next);
        out.flush();
        in.read(new byte[4096]);
        byte[] result = switch (r.nextInt(4)) {
          case 0 -> Wire.packet(1, Wire.bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f)); // 2^60 columns
          case 1 -> Wire.concat(Wire.packet(1, Wire.lenenc(1)), Wire.packet(2, Wire.columnDef("a")), Wire.packet(3, Wire.eof(2)), Wire.header(0xffffff, 4), randomBytes(r, 10));
          case 2 -> Wire.concat(Wire.packet(1, Wire.lenenc(2)), Wire.header(5000, 2), randomBytes(r, 20)); // cut short
          default -> randomBytes(r, 1 + r.nextInt(200));
        };
        out.write(result);
      }
    }
    out.flush();
    in.read(new byte[4096]); // until the proxy closes or the timeout
  }

  private static byte[] commandPacket(Random random) {
    int command = SAFE_COMMANDS[random.nextInt(SAFE_COMMANDS.length)];
    byte[] body = switch (command) {
      case 0x03, 0x16 -> Wire.ascii(random.nextBoolean() ? "SELECT " + random.nextInt() : new String(randomAscii(random)));
      default -> randomBytes(random, random.nextInt(40));
    };
    byte[] packet = Wire.packet(random.nextInt(8) == 0 ? random.nextInt(256) : 0, Wire.concat(Wire.bytes(command), body));
    return random.nextInt(3) == 0 ? mutate(random, packet) : packet;
  }

  /** Flips, truncates or extends a packet, never touching the command byte at offset 4. */
  private static byte[] mutate(Random random, byte[] packet) {
    byte[] b = packet.clone();
    switch (random.nextInt(4)) {
      case 0 -> b[random.nextInt(4)] = (byte) random.nextInt(256); // header: length or sequence
      case 1 -> {
        if (b.length > 5) {
          b[5 + random.nextInt(b.length - 5)] ^= (byte) (1 + random.nextInt(255));
        }
      }
      case 2 -> b = java.util.Arrays.copyOf(b, Math.max(5, random.nextInt(b.length + 1)));
      default -> b = Wire.concat(b, randomBytes(random, 1 + random.nextInt(64)));
    }
    return b;
  }

  private static byte[] randomBytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static char[] randomAscii(Random random) {
    char[] c = new char[random.nextInt(60)];
    for (int i = 0; i < c.length; i++) {
      c[i] = (char) (32 + random.nextInt(95));
    }
    return c;
  }
}
