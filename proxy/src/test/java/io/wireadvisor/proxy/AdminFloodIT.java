package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, point 3: a connection flood on the admin port, and on {@code --metrics-listen}, from
 * the same machine as the probe. Found: new connections closed the oldest ones whose request was
 * not in yet, the health probe among them (3 of 12 probes answered in a 10 s flood). Now a
 * connection that has sent its request line is never closed for a newcomer, and the connections
 * still waiting for theirs have room enough that a probe's request is read before its turn.
 */
@RealDatabase
class AdminFloodIT {
  private static final long FLOOD_MILLIS = 10_000;
  /** Sockets each flooding thread keeps open at once (its oldest closed past it). */
  private static final int FLOOD_OPEN_PER_THREAD = 400;
  /** Connections each flooding thread opens at most, however fast the machine. */
  private static final int FLOOD_MAX_PER_THREAD = 200_000;
  private static final int FLOOD_THREADS = 2;
  private static final long PROBE_EVERY_MILLIS = 200;
  private static final int PROBE_TIMEOUT_MILLIS = 1000;

  private final DatabaseServer server;

  AdminFloodIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void healthAnswersDuringAConnectionFloodOnTheAdminAndTheMetricsListener() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withAdmin("127.0.0.1", 0)
            .withLimits(ProxyLimits.defaults().withMetricsListen("127.0.0.1", 0));
    try (WireProxy proxy = WireProxy.start(config)) {
      AdminServer.Slots[] listeners = {proxy.admin().adminSlots(), proxy.admin().metricsSlots()};
      int[] ports = {proxy.adminPort(), proxy.metricsPort()};
      for (int i = 0; i < 2; i++) {
        int port = ports[i];
        AdminServer.Slots slots = listeners[i];
        FloodResult r = floodAndProbe(port);
        System.out.printf(
            "admin flood on port %d: %d connections opened by the flood, %d of %d probes answered"
                + " 200 within %d ms (slowest answered %d ms)%n",
            port, r.floodConnections, r.answered, r.probes, PROBE_TIMEOUT_MILLIS, r.slowestMillis);
        assertThat(r.floodConnections).as("the flood ran").isGreaterThan(1000);
        assertThat(r.probes).isGreaterThanOrEqualTo(8);
        assertThat(r.answered * 100L)
            .as("probes answered under 1 s on port %d (%d of %d)", port, r.answered, r.probes)
            .isGreaterThanOrEqualTo(95L * r.probes);
        // Bounded all along: the waiting connections, the busy ones, and so the open ones.
        System.out.printf(
            "  listener peaks: %d open, %d waiting (max %d), %d busy (max %d); %d evicted%n",
            slots.peakOpen(), slots.peakWaiting(), slots.maxWaiting, slots.peakBusy(),
            slots.maxBusy, slots.evicted());
        assertThat(slots.maxWaiting).isEqualTo(64);
        assertThat(slots.peakWaiting()).isLessThanOrEqualTo(slots.maxWaiting);
        assertThat(slots.peakBusy()).isLessThanOrEqualTo(slots.maxBusy).isPositive();
        assertThat(slots.peakOpen()).isLessThanOrEqualTo(slots.maxWaiting + slots.maxBusy);
        assertThat(slots.evicted()).as("the flood was evicted, not the probes").isPositive();
        FaultsIT.waitFor(slots::open, 0); // every flooding connection is gone again
      }
      // The flood is gone: /health answers at once again.
      assertThat(probe(proxy.adminPort()))
          .isTrue();
    }
  }

  record FloodResult(long floodConnections, int probes, int answered, long slowestMillis) {}

  /** Floods {@code port} from {@link #FLOOD_THREADS} threads while probing /health. */
  static FloodResult floodAndProbe(int port) throws InterruptedException {
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicLong opened = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < FLOOD_THREADS; t++) {
      Thread th = new Thread(() -> flood(port, flooding, opened), "admin-flood-" + t);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
    long end = System.nanoTime() + FLOOD_MILLIS * 1_000_000L;
    int probes = 0;
    int answered = 0;
    long slowest = 0;
    try {
      Thread.sleep(500); // the flood is under way
      while (System.nanoTime() < end) {
        long start = System.nanoTime();
        probes++;
        if (probe(port)) {
          long millis = (System.nanoTime() - start) / 1_000_000;
          if (millis < PROBE_TIMEOUT_MILLIS) {
            answered++;
            slowest = Math.max(slowest, millis);
          }
        }
        Thread.sleep(PROBE_EVERY_MILLIS);
      }
    } finally {
      flooding.set(false);
      for (Thread th : threads) {
        th.join(10_000);
      }
    }
    return new FloodResult(opened.get(), probes, answered, slowest);
  }

  /**
   * Opens connections as fast as it can until told to stop (or its count is reached): half send
   * nothing, half a partial request line, and each is held until the thread has opened {@link
   * #FLOOD_OPEN_PER_THREAD} newer ones.
   */
  private static void flood(int port, AtomicBoolean flooding, AtomicLong opened) {
    ArrayDeque<Socket> open = new ArrayDeque<>();
    byte[] partial = "GET /hea".getBytes(StandardCharsets.US_ASCII);
    try {
      for (int i = 0; i < FLOOD_MAX_PER_THREAD && flooding.get(); i++) {
        try {
          Socket s = new Socket();
          s.setSoLinger(true, 0); // closed with a reset: no TIME_WAIT pile-up on either side
          s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
          if ((i & 1) == 1) {
            s.getOutputStream().write(partial);
          }
          open.addLast(s);
          opened.incrementAndGet();
        } catch (IOException refusedOrReset) {
          // the proxy may close or refuse a flooding connection: the flood goes on
        }
        while (open.size() > FLOOD_OPEN_PER_THREAD) {
          closeQuietly(open.pollFirst());
        }
      }
    } finally {
      for (Socket s : open) {
        closeQuietly(s);
      }
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing a socket the peer reset
    }
  }

  /** One {@code GET /health}: true when a 200 came back within the probe timeout. */
  static boolean probe(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), PROBE_TIMEOUT_MILLIS);
      s.setSoTimeout(PROBE_TIMEOUT_MILLIS);
      s.getOutputStream()
          .write(
              "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[1024];
      for (int n; (n = in.read(buf)) > 0; ) {
        all.write(buf, 0, n);
      }
      String text = all.toString(StandardCharsets.UTF_8);
      return text.startsWith("HTTP/1.1 200") && text.contains("\"status\":\"UP\"");
    } catch (IOException e) {
      return false; // refused, reset, or no answer in time
    }
  }
}
