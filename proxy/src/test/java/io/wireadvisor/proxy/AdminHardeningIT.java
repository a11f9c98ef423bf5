package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint against peers that stall, lie about the host, or lack the token: none of
 * them blocks {@code /health}, and {@code /profile} is only served to who may see it.
 */
@RealDatabase
class AdminHardeningIT {
  private static final String TOKEN = "t0ken-" + Long.toHexString(System.nanoTime());
  private final DatabaseServer server;

  AdminHardeningIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void stalledPartialRequestsFillingEverySlotDoNotStarveHealth() throws Exception {
    // Found in review: 16 sockets sending "GET /hea" took every admin slot, and /health answered
    // nothing until they timed out (renewed every 5 s, for good). A new connection now closes the
    // oldest one whose request is not in yet.
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withAdmin("127.0.0.1", 0)
            .withLimits(ProxyLimits.defaults().withAdminTimeoutMillis(30_000));
    try (WireProxy proxy = WireProxy.start(config)) {
      int slots = ProxyLimits.defaults().adminMaxConnections();
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < slots; i++) {
          Socket s = new Socket("127.0.0.1", proxy.adminPort());
          s.getOutputStream().write("GET /hea".getBytes(StandardCharsets.US_ASCII));
          s.getOutputStream().flush();
          stalled.add(s);
        }
        Thread.sleep(200); // every stalled socket accepted and holding its slot
        for (int i = 0; i < 3; i++) {
          Response health = get(proxy.adminPort(), "/health", "127.0.0.1", null, 1000);
          assertThat(health.status).as("health %d with every slot stalled", i).isEqualTo(200);
        }
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
    }
  }

  @Test
  void stalledPartialRequestsDoNotBlockHealthAndAreClosedAfterTheTimeout() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withAdmin("127.0.0.1", 0)
            .withLimits(ProxyLimits.defaults().withAdminTimeoutMillis(1500));
    try (WireProxy proxy = WireProxy.start(config)) {
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < 10; i++) {
          Socket s = new Socket("127.0.0.1", proxy.adminPort());
          s.getOutputStream().write("GET /hea".getBytes(StandardCharsets.US_ASCII));
          s.getOutputStream().flush();
          stalled.add(s);
        }
        for (int i = 0; i < 3; i++) {
          long start = System.nanoTime();
          Response health = get(proxy.adminPort(), "/health", "127.0.0.1", null, 1000);
          assertThat(health.status).isEqualTo(200);
          assertThat(health.body).contains("\"status\":\"UP\"");
          assertThat(System.nanoTime() - start).as("answered within 1 s").isLessThan(1_000_000_000L);
        }
        for (Socket s : stalled) {
          s.setSoTimeout(5000); // closed by the proxy after its 1.5 s admin timeout
          assertThat(s.getInputStream().read()).isEqualTo(-1);
        }
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
    }
  }

  @Test
  void foreignHostHeadersAreRefusedAndTheTokenIsRequiredButNotForHealthAndMetrics()
      throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withAdmin("127.0.0.1", 0)
            .withLimits(
                ProxyLimits.defaults()
                    .withAdminToken(TOKEN)
                    .withAdminHosts(List.of("proxy.internal")));
    try (WireProxy proxy = WireProxy.start(config)) {
      int port = proxy.adminPort();
      // DNS rebinding: a page on attacker.example whose name now resolves to 127.0.0.1.
      assertThat(get(port, "/health", "attacker.example:" + port, null, 2000).status).isEqualTo(421);
      assertThat(get(port, "/profile", "attacker.example", TOKEN, 2000).status).isEqualTo(421);
      assertThat(get(port, "/health", null, null, 2000).status).isEqualTo(421);
      assertThat(get(port, "/health", "proxy.internal:" + port, null, 2000).status).isEqualTo(200);
      assertThat(get(port, "/health", "localhost:" + port, null, 2000).status).isEqualTo(200);

      assertThat(get(port, "/metrics", "127.0.0.1", null, 2000).status).isEqualTo(200);
      Response noToken = get(port, "/profile", "127.0.0.1", null, 2000);
      assertThat(noToken.status).isEqualTo(401);
      assertThat(noToken.head).containsIgnoringCase("WWW-Authenticate: Bearer");
      assertThat(noToken.body).doesNotContain("shapes");
      assertThat(get(port, "/report", "127.0.0.1", TOKEN + "x", 2000).status).isEqualTo(401);
      assertThat(get(port, "/report", "127.0.0.1", TOKEN.substring(1), 2000).status).isEqualTo(401);
      Response profile = get(port, "/profile", "127.0.0.1", TOKEN, 5000);
      assertThat(profile.status).isEqualTo(200);
      assertThat(profile.body).contains("\"shapes\"");
      assertThat(get(port, "/report?format=markdown", "127.0.0.1", TOKEN, 5000).status).isEqualTo(200);
    }
  }

  @Test
  void metricsCanBeServedOnAListenerOfTheirOwn() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withAdmin("127.0.0.1", 0)
            .withLimits(ProxyLimits.defaults().withMetricsListen("127.0.0.1", 0).withAdminToken(TOKEN));
    try (WireProxy proxy = WireProxy.start(config)) {
      int metrics = proxy.metricsPort();
      assertThat(metrics).isPositive().isNotEqualTo(proxy.adminPort());
      Response scrape = get(metrics, "/metrics", "127.0.0.1", null, 2000);
      assertThat(scrape.status).isEqualTo(200);
      assertThat(scrape.body).contains("wireadvisor_proxy_connections_accepted_total");
      assertThat(scrape.body).contains("wireadvisor_proxy_connections_refused_total");
      assertThat(get(metrics, "/health", "127.0.0.1", null, 2000).status).isEqualTo(200);
      // Not even with the token: the metrics listener does not serve what reveals the SQL.
      assertThat(get(metrics, "/profile", "127.0.0.1", TOKEN, 2000).status).isEqualTo(404);
      assertThat(get(metrics, "/report", "127.0.0.1", TOKEN, 2000).status).isEqualTo(404);
      assertThat(get(proxy.adminPort(), "/profile", "127.0.0.1", TOKEN, 5000).status).isEqualTo(200);
    }
  }

  record Response(int status, String head, String body) {}

  /** A raw HTTP/1.1 GET, so the Host header is exactly what the test says (or absent). */
  static Response get(int port, String path, String host, String token, int timeoutMillis)
      throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(timeoutMillis);
      StringBuilder req = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\n");
      if (host != null) {
        req.append("Host: ").append(host).append("\r\n");
      }
      if (token != null) {
        req.append("Authorization: Bearer ").append(token).append("\r\n");
      }
      req.append("Connection: close\r\n\r\n");
      s.getOutputStream().write(req.toString().getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[8192];
      try {
        for (int n; (n = in.read(buf)) > 0; ) {
          all.write(buf, 0, n);
        }
      } catch (SocketTimeoutException e) {
        throw new AssertionError("no complete answer to " + path + " within " + timeoutMillis + " ms");
      }
      String text = all.toString(StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      assertThat(split).as("a complete HTTP response: %s", text).isPositive();
      String head = text.substring(0, split);
      int status = Integer.parseInt(head.substring(9, 12));
      return new Response(status, head, text.substring(split + 4));
    }
  }
}
