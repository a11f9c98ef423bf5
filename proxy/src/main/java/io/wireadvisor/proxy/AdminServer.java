package io.wireadvisor.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.report.Reports;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The proxy's admin HTTP endpoint (loopback by default): {@code /metrics} (Prometheus),
 * {@code /profile} (the traffic profile JSON), {@code /report} (the advisor's report;
 * {@code ?format=text|markdown|json|html}), {@code /health}. Off the forwarding path: it runs on
 * its own thread and reads the recorder's snapshot.
 */
final class AdminServer implements AutoCloseable {
  private final HttpServer http;
  private final ExecutorService executor;
  private final PrometheusMeterRegistry registry;

  private AdminServer(HttpServer http, ExecutorService executor, PrometheusMeterRegistry registry) {
    this.http = http;
    this.executor = executor;
    this.registry = registry;
  }

  static AdminServer start(String host, int port, WireProxy proxy) throws IOException {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new ProxyMetrics(proxy).bindTo(registry);
    HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 16);
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "wire-advisor-proxy-admin");
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(executor);
    http.createContext(
        "/metrics", ex -> respond(ex, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    http.createContext(
        "/profile",
        ex -> respond(ex, 200, "application/json", ProfileJson.toJson(proxy.profile())));
    http.createContext("/report", ex -> report(ex, proxy));
    http.createContext(
        "/health",
        ex ->
            respond(
                ex,
                200,
                "application/json",
                "{\"status\":\"UP\",\"clientConnections\":"
                    + proxy.clientConnections()
                    + ",\"upstreamConnections\":"
                    + proxy.upstreamConnections()
                    + "}"));
    http.createContext("/", ex -> respond(ex, 404, "text/plain", "not found; try /metrics, /profile, /report, /health\n"));
    http.start();
    return new AdminServer(http, executor, registry);
  }

  private static void report(HttpExchange ex, WireProxy proxy) throws IOException {
    String query = ex.getRequestURI().getRawQuery();
    String format = "text";
    if (query != null) {
      for (String part : query.split("&")) {
        if (part.startsWith("format=")) {
          format = part.substring("format=".length());
        }
      }
    }
    // The proxy holds no database credentials, so the report judges the traffic alone.
    Analysis analysis = Advisor.analyze(proxy.profile(), null);
    switch (format) {
      case "text":
        respond(ex, 200, "text/plain; charset=utf-8", Reports.text(analysis));
        break;
      case "markdown":
        respond(ex, 200, "text/markdown; charset=utf-8", Reports.markdown(analysis));
        break;
      case "json":
        respond(ex, 200, "application/json", Reports.json(analysis));
        break;
      case "html":
        respond(ex, 200, "text/html; charset=utf-8", Reports.html(analysis));
        break;
      default:
        respond(ex, 400, "text/plain", "unknown format '" + format + "'; use text, markdown, json or html\n");
    }
  }

  private static void respond(HttpExchange ex, int status, String type, String body)
      throws IOException {
    try (ex) {
      if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        ex.sendResponseHeaders(405, -1);
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      boolean head = "HEAD".equals(ex.getRequestMethod());
      ex.sendResponseHeaders(status, head ? -1 : bytes.length);
      if (!head) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  int port() {
    return http.getAddress().getPort();
  }

  @Override
  public void close() {
    http.stop(0);
    executor.shutdownNow();
    registry.close();
  }
}
