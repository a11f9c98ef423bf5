package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, point 4: a proxy process with a 128 MiB heap and the default {@code
 * --max-connections}, attacked by 1,707 clients that each send a 68 KiB HandshakeResponse but its
 * last byte (which the proxy holds whole until it ends). Found: OutOfMemoryError within 2 s, the
 * process gone. Now the start-up check has lowered the default to what the heap holds, so the
 * clients past it get ERR 1040, the process stays up and serves a real client afterwards.
 */
@RealDatabase
class ProxyHeapIT {
  static final int ATTACKERS = 1707;
  /** The largest HandshakeResponse the proxy holds: {@code SessionTracker.MAX_HANDSHAKE_PACKET}. */
  static final int RESPONSE_BYTES = 68 * 1024;

  private final DatabaseServer server;

  ProxyHeapIT(DatabaseServer server) {
    this.server = server;
  }

  @Test
  void unauthenticatedClientsCannotExhaustA128MiBHeap() throws Exception {
    assertThat(SessionTracker.MAX_HANDSHAKE_PACKET).isEqualTo(RESPONSE_BYTES);
    int oldMax;
    try (Connection c = server.connect(null, null);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT @@max_connections")) {
      rs.next();
      oldMax = rs.getInt(1);
      // Every attacker must get an upstream connection, as it would from TiDB (no limit).
      st.execute("SET GLOBAL max_connections = " + (ATTACKERS + 300));
    }
    Path log = Files.createTempFile("proxy-heap-it", ".log");
    Process proxy = null;
    try {
      proxy = spawnProxy(log, "-Xmx128m",
          // the per-source and pre-login limits would turn most attackers away by themselves:
          // this test is about the heap check, so they are opened wide
          "--max-prelogin-per-source", "100000", "--max-prelogin-connections", "100000");
      int port = listenPort(proxy, log);
      Attack attack = attack(port);
      System.out.printf(
          "128 MiB heap: %d attackers got a greeting and sent %d bytes each, %d got ERR 1040, %d"
              + " failed otherwise; proxy alive: %s%n",
          attack.greeted, RESPONSE_BYTES - 1, attack.refused, attack.failed, proxy.isAlive());
      assertThat(proxy.isAlive()).as("the proxy survived the attack; its output:\n%s",
          Files.readString(log)).isTrue();
      Files.readString(log).lines().filter(l -> l.contains("lowered")).forEach(System.out::println);
      assertThat(Files.readString(log))
          .contains("wire-advisor-proxy: lowered to fit the heap: --max-connections ");
      assertThat(attack.refused).as("the attackers past the heap's limit were refused").isPositive();
      assertThat(attack.greeted).isPositive();
      // The attackers are gone: a real client logs in and queries.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      SQLException last = null;
      boolean served = false;
      while (!served && System.nanoTime() < deadline) {
        try (Connection c =
                DriverManager.getConnection(
                    ProxiedServer.url(port, null, "connectTimeout=5000&socketTimeout=10000"),
                    server.user(), server.password());
            Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT 41 + 1")) {
          rs.next();
          assertThat(rs.getInt(1)).isEqualTo(42);
          served = true;
        } catch (SQLException e) {
          last = e;
          Thread.sleep(200);
        }
      }
      assertThat(served).as("a real client served after the attack (last error: %s)", last).isTrue();
      assertThat(proxy.isAlive()).isTrue();
      assertThat(Files.readString(log)).doesNotContain("OutOfMemoryError");
    } finally {
      if (proxy != null) {
        proxy.destroy();
        proxy.waitFor(10, TimeUnit.SECONDS);
        proxy.destroyForcibly();
      }
      try (Connection c = server.connect(null, null);
          Statement st = c.createStatement()) {
        st.execute("SET GLOBAL max_connections = " + oldMax);
      }
      Files.deleteIfExists(log);
    }
  }

  @Test
  void anExplicitMaxConnectionsTheHeapCannotHoldStopsTheStart() throws Exception {
    Path log = Files.createTempFile("proxy-heap-it", ".log");
    Process proxy = null;
    try {
      proxy = spawnProxy(log, "-Xmx128m", "--max-connections", "2048");
      assertThat(proxy.waitFor(30, TimeUnit.SECONDS)).as("the proxy exits by itself").isTrue();
      String out = Files.readString(log);
      System.out.println("-Xmx128m --max-connections 2048: exit " + proxy.exitValue() + ", " + out
          .lines().filter(l -> l.contains("--max-connections")).findFirst().orElse(""));
      assertThat(proxy.exitValue()).isEqualTo(2);
      assertThat(out)
          .contains("--max-connections 2048 does not fit the heap")
          .doesNotContain("listening on");
    } finally {
      if (proxy != null) {
        proxy.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // started after all: not left behind
      }
      Files.deleteIfExists(log);
    }
  }

  /** The proxy in a JVM of its own, output to {@code log}. */
  Process spawnProxy(Path log, String heap, String... extra) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(heap);
    cmd.add("-XX:+ExitOnOutOfMemoryError"); // as the launcher runs it
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ProxyMain.class.getName());
    cmd.add("--listen");
    cmd.add("127.0.0.1:0");
    cmd.add("--upstream");
    cmd.add(server.host() + ":" + server.port());
    cmd.add("--admin");
    cmd.add("off");
    Collections.addAll(cmd, extra);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

  static int listenPort(Process proxy, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(log));
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      if (!proxy.isAlive()) {
        break;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the proxy did not start; its output:\n" + Files.readString(log));
  }

  record Attack(int greeted, int refused, int failed) {}

  /**
   * {@link #ATTACKERS} clients, 16 at a time: each reads the greeting and sends a HandshakeResponse
   * header announcing {@link #RESPONSE_BYTES} and all its bytes but the last, then holds the
   * socket until every attacker is in (bounded: 90 s at most), when all are closed.
   */
  static Attack attack(int port) throws InterruptedException {
    AtomicInteger greeted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    byte[] packet = new byte[4 + RESPONSE_BYTES - 1];
    packet[0] = (byte) RESPONSE_BYTES;
    packet[1] = (byte) (RESPONSE_BYTES >>> 8);
    packet[2] = (byte) (RESPONSE_BYTES >>> 16);
    packet[3] = 1;
    int caps = RawClient.CAPS;
    for (int i = 0; i < 4; i++) {
      packet[4 + i] = (byte) (caps >>> (8 * i));
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    for (int i = 0; i < ATTACKERS; i++) {
      pool.execute(() -> {
        try {
          Socket s = new Socket();
          sockets.add(s);
          s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
          s.setSoTimeout(10_000);
          DataInputStream in = new DataInputStream(s.getInputStream());
          byte[] header = new byte[4];
          in.readFully(header);
          int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
          byte[] payload = new byte[length];
          in.readFully(payload);
          if ((payload[0] & 0xff) == 0xff) {
            int code = (payload[1] & 0xff) | (payload[2] & 0xff) << 8;
            (code == 1040 ? refused : failed).incrementAndGet();
            return;
          }
          s.getOutputStream().write(packet);
          s.getOutputStream().flush();
          greeted.incrementAndGet();
        } catch (IOException e) {
          failed.incrementAndGet();
        }
      });
    }
    pool.shutdown();
    boolean done = pool.awaitTermination(90, TimeUnit.SECONDS);
    Thread.sleep(2000); // the proxy has read what was sent
    synchronized (sockets) {
      for (Socket s : sockets) {
        try {
          s.close();
        } catch (IOException ignored) {
          // already reset
        }
      }
    }
    pool.shutdownNow();
    assertThat(done).as("the attack finished within 90 s").isTrue();
    return new Attack(greeted.get(), refused.get(), failed.get());
  }
}
