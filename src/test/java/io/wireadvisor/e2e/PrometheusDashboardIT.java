package io.wireadvisor.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.proxy.ProxyConfig;
import io.wireadvisor.proxy.WireProxy;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.PrometheusText;
import io.wireadvisor.testkit.RealDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The shipped dashboard and alerting rules (docs/grafana/) against a real Prometheus: it scrapes
 * an agent (forked JVM with traffic) and a proxy (traffic through it) every second; {@code
 * promtool} checks both /metrics bodies and the rules; every dashboard panel's PromQL runs
 * through Prometheus' HTTP API and must return the values the traffic profiles imply.
 *
 * <p>Prometheus comes from Debian's {@code prometheus} package, installed by {@code
 * bin/ensure-prometheus} where missing; where that cannot be done (no root, no network) the test
 * is skipped with the script's reason. Everything listens on 127.0.0.1.
 */
@RealDatabase
class PrometheusDashboardIT {
  private static final Path ROOT = Paths.get(System.getProperty("e2e.repoRoot", "../.."));
  private static final Path DASHBOARD = ROOT.resolve("docs/grafana/wire-advisor-dashboard.json");
  private static final Path RULES = ROOT.resolve("docs/grafana/wire-advisor-alerts.yml");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void everyPanelQueryReturnsWhatTheProfilesSay(DatabaseServer server) throws Exception {
    String missing = ensurePrometheus();
    assumeTrue(missing == null, () -> "Prometheus/promtool not available: " + missing);

    Path work = Paths.get("target", "prometheus-it-" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(work);
    String db = server.createDatabase("e2e_metrics");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE metrics_t (id INT PRIMARY KEY, v VARCHAR(20))");
      s.execute("INSERT INTO metrics_t VALUES (0,'a'),(1,'b'),(2,'c'),(3,'d'),(4,'e')");
    }
    String props = "useServerPrepStmts=true&sslMode=DISABLED";

    WireProxy proxy =
        WireProxy.start(
            ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
                .withAdmin("127.0.0.1", 0));
    Process agentApp = null;
    Process prometheus = null;
    try {
      int agentPort = freePort();
      Path go = work.resolve("go");
      Path done = work.resolve("done");
      Path stop = work.resolve("stop");
      Path agentProfile = work.resolve("agent-profile.json");
      agentApp =
          ForkedJvm.startWithAgent(
              "profile=" + agentProfile + ",interval=500ms,quiet=true,prometheus=127.0.0.1:"
                  + agentPort,
              work.resolve("agent-app.log"),
              MetricsTrafficApp.class,
              server.jdbcUrl(db, props), server.user(), server.password(),
              go.toString(), done.toString(), stop.toString());

      int promPort = freePort();
      Path config = work.resolve("prometheus.yml");
      Files.copy(RULES, work.resolve("rules.yml"));
      StringBuilder yml = new StringBuilder();
      yml.append("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n")
          .append("rule_files: [rules.yml]\n")
          .append("scrape_configs:\n")
          .append(job("wireadvisor-agent", "127.0.0.1:" + agentPort))
          .append(job("wireadvisor-proxy", "127.0.0.1:" + proxy.adminPort()));
      String tidb = server.statusUrl().map(u -> URI.create(u).getAuthority()).orElse(null);
      if (tidb != null) {
        yml.append(job("tidb", tidb));
      }
      Files.writeString(config, yml.toString());
      prometheus =
          new ProcessBuilder(
                  "prometheus",
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + work.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + promPort)
              .directory(work.toFile())
              .redirectErrorStream(true)
              .redirectOutput(work.resolve("prometheus.log").toFile())
              .start();
      String prom = "http://127.0.0.1:" + promPort;
      Process promProcess = prometheus;
      Path promLog = work.resolve("prometheus.log");
      waitUntil(
          "Prometheus ready",
          60,
          () -> {
            if (!promProcess.isAlive()) {
              throw new AssertionError("prometheus exited: " + read(promLog));
            }
            return ok(prom + "/-/ready");
          });

      // Both targets scraped at least twice with every counter still at zero.
      waitUntil(
          "both targets scraped twice",
          60,
          () ->
              scalar(prom, "count(count_over_time(up{job=~\"wireadvisor-.*\"}[1m]) >= 2)") == 2
                  && scalar(prom, "count(up{job=~\"wireadvisor-.*\"} == 1)") == 2);

      // Traffic: the agent's application, and the same workload through the proxy.
      Files.createFile(go);
      String viaProxy =
          "jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + db + "?" + props;
      MetricsTrafficApp.run(viaProxy, server.user(), server.password());
      try (Connection held = java.sql.DriverManager.getConnection(viaProxy, server.user(), server.password())) {
        waitUntil("agent application done", 120, () -> Files.exists(done));
        waitUntil("proxy connections settled", 30, () -> proxy.clientConnections() == 1);
        Thread.sleep(1500); // the agent writes its profile every 500 ms

        // The collectors' bodies: valid exposition format, counters equal to the profiles.
        String agentBody = get("http://127.0.0.1:" + agentPort + "/metrics");
        String proxyBody = get("http://127.0.0.1:" + proxy.adminPort() + "/metrics");
        promtoolCheckMetrics(agentBody, work, "agent");
        promtoolCheckMetrics(proxyBody, work, "proxy");
        TrafficProfile agent = ProfileJson.readFile(agentProfile);
        TrafficProfile viaProxyProfile =
            ProfileJson.fromJson(get("http://127.0.0.1:" + proxy.adminPort() + "/profile"));
        Map<String, TrafficProfile> profiles = Map.of("agent", agent, "proxy", viaProxyProfile);
        assertCommandsEqual(PrometheusText.parse(agentBody), agent);
        assertCommandsEqual(PrometheusText.parse(proxyBody), viaProxyProfile);

        // Prometheus holds the final values, for a few scrapes.
        for (String collector : profiles.keySet()) {
          long total = profiles.get(collector).totalCommands();
          waitUntil(
              collector + "'s final count in Prometheus",
              30,
              () ->
                  scalar(prom, "sum(wireadvisor_commands_total{collector=\"" + collector + "\"})")
                      == total);
        }
        Thread.sleep(3000);

        checkRules(work, prom);
        checkPanels(prom, profiles, tidb != null);
      }
    } finally {
      if (agentApp != null) {
        Files.writeString(work.resolve("stop"), "");
        if (!agentApp.waitFor(20, TimeUnit.SECONDS)) {
          agentApp.destroyForcibly();
        }
      }
      if (prometheus != null) {
        prometheus.destroy();
        if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
          prometheus.destroyForcibly();
        }
      }
      proxy.close();
    }
  }

  private static String job(String name, String target) {
    // honor_labels: the collectors' own instance label wins over the target address.
    return "  - job_name: " + name + "\n    honor_labels: true\n    static_configs:\n"
        + "      - targets: ['" + target + "']\n";
  }

  private void checkRules(Path work, String prom) throws Exception {
    Result r = run(work, 60, "promtool", "check", "rules", RULES.toString());
    assertThat(r.exit).as("promtool check rules:%n%s", r.output).isZero();
    waitUntil(
        "every rule evaluated",
        30,
        () -> {
          JsonNode groups = api(prom + "/api/v1/rules").path("data").path("groups");
          int evaluated = 0;
          for (JsonNode g : groups) {
            for (JsonNode rule : g.path("rules")) {
              if ("ok".equals(rule.path("health").asText())) {
                evaluated++;
              }
            }
          }
          return evaluated == 5;
        });
  }

  private void checkPanels(String prom, Map<String, TrafficProfile> profiles, boolean tidb)
      throws Exception {
    JsonNode dash = JSON.readTree(DASHBOARD.toFile());
    int checked = 0;
    for (JsonNode panel : dash.path("panels")) {
      String title = panel.path("title").asText();
      for (JsonNode target : panel.path("targets")) {
        String expr = target.path("expr").asText();
        boolean ofTidb = expr.contains("tidb_server_query_total");
        List<JsonNode> series = query(prom, substitute(expr));
        if (ofTidb && !tidb) {
          System.out.printf("panel '%s': TiDB query not checked (no TiDB status URL)%n", title);
          continue;
        }
        assertThat(series).as("panel '%s' query %s", title, expr).isNotEmpty();
        checkPanel(title, expr, series, profiles);
        checked++;
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(10);
  }

  private static void checkPanel(
      String title, String expr, List<JsonNode> series, Map<String, TrafficProfile> profiles) {
    String what = "panel '" + title + "': " + expr;
    if (title.startsWith("Wire commands per business statement")) {
      for (JsonNode s : series) {
        TrafficProfile p = profiles.get(s.path("metric").path("collector").asText());
        CommandType type = type(s.path("metric").path("type").asText());
        double expected = (double) p.count(type) / business(p);
        assertThat(value(s)).as(what + " " + s).isCloseTo(expected, within(1e-6 + expected * 0.01));
      }
      assertThat(collectors(series)).containsExactlyInAnyOrder("agent", "proxy");
    } else if (title.startsWith("Session-variable probes")) {
      // Every cause the profiles count has a series, and nothing else. Its rate may be 0: a
      // series that first appears with its final value has no increase to rate (a cause is a
      // label value only known once it happened; see docs/metrics.md).
      Set<String> seen = new HashSet<>();
      for (JsonNode s : series) {
        assertThat(value(s)).as(what + " " + s).isGreaterThanOrEqualTo(0);
        seen.add(s.path("metric").path("collector").asText() + " " + s.path("metric").path("cause").asText());
      }
      Set<String> expected = new HashSet<>();
      profiles.forEach(
          (collector, p) -> {
            for (ProbeStats stats : p.probes().values()) {
              long attributed = 0;
              for (Map.Entry<String, Long> c : stats.causes().entrySet()) {
                expected.add(collector + " " + c.getKey());
                attributed += c.getValue();
              }
              if (stats.count() > attributed) {
                expected.add(collector + " " + ProbeStats.UNKNOWN_CAUSE);
              }
            }
          });
      assertThat(seen).as(what).isEqualTo(expected).isNotEmpty();
    } else if (title.startsWith("PREPARE + CLOSE per EXECUTE")) {
      for (JsonNode s : series) {
        TrafficProfile p = profiles.get(s.path("metric").path("collector").asText());
        double expected =
            (double) (p.count(CommandType.STMT_PREPARE) + p.count(CommandType.STMT_CLOSE))
                / p.count(CommandType.STMT_EXECUTE);
        assertThat(expected).isGreaterThan(1.5); // no statement cache in this workload
        assertThat(value(s)).as(what).isCloseTo(expected, within(expected * 0.01));
      }
      assertThat(collectors(series)).containsExactlyInAnyOrder("agent", "proxy");
    } else if (title.startsWith("Command latency percentiles")) {
      Set<String> finite = new HashSet<>();
      for (JsonNode s : series) {
        double v = value(s);
        if (!Double.isNaN(v)) {
          assertThat(v).as(what + " " + s).isGreaterThan(0).isLessThanOrEqualTo(10);
          finite.add(s.path("metric").path("collector").asText() + " " + s.path("metric").path("type").asText());
        }
      }
      assertThat(finite).as(what).contains("agent stmt_execute", "proxy stmt_execute", "agent query", "proxy query");
    } else if (title.startsWith("Connections open")) {
      for (JsonNode s : series) {
        assertThat(value(s)).as(what + " " + s).isEqualTo(1.0); // one held open by each side
      }
      assertThat(collectors(series)).containsExactlyInAnyOrder("agent", "proxy");
    } else if (title.startsWith("Wire commands per second")) {
      if (expr.contains("tidb_server_query_total")) {
        return; // series present is all that can be said: TiDB counts other clients too
      }
      assertThat(collectors(series)).containsExactlyInAnyOrder("agent", "proxy");
      for (JsonNode s : series) {
        TrafficProfile p = profiles.get(s.path("metric").path("collector").asText());
        if (p.count(type(s.path("metric").path("type").asText())) > 0) {
          assertThat(value(s)).as(what + " " + s).isGreaterThan(0);
        }
      }
    } else if (title.startsWith("Distinct prepared statements per connection")) {
      for (JsonNode s : series) {
        TrafficProfile p = profiles.get(s.path("metric").path("collector").asText());
        if (expr.contains("wireadvisor_shapes")) {
          assertThat(value(s)).as(what).isEqualTo(p.shapes().size());
        } else {
          // Each connection prepared at most one distinct statement: the quantile, interpolated
          // inside the (0, 1] bucket, lies there.
          assertThat(value(s)).as(what).isGreaterThan(0).isLessThanOrEqualTo(1);
        }
      }
      assertThat(collectors(series)).containsExactlyInAnyOrder("agent", "proxy");
    } else if (title.startsWith("Commands since start")) {
      for (JsonNode s : series) {
        TrafficProfile p = profiles.get(s.path("metric").path("collector").asText());
        CommandType type = type(s.path("metric").path("type").asText());
        assertThat(value(s)).as(what + " " + s).isEqualTo(p.count(type));
      }
      assertThat(collectors(series)).containsExactlyInAnyOrder("agent", "proxy");
    } else {
      throw new AssertionError("a panel this test does not know: " + title);
    }
  }

  private static Set<String> collectors(List<JsonNode> series) {
    Set<String> out = new HashSet<>();
    for (JsonNode s : series) {
      out.add(s.path("metric").path("collector").asText());
    }
    return out;
  }

  private static long business(TrafficProfile p) {
    long n = 0;
    for (var s : p.shapes().values()) {
      if (io.wireadvisor.advisor.Workload.isBusiness(s)) {
        n += s.executions();
      }
    }
    return n;
  }

  private static CommandType type(String label) {
    return CommandType.fromWireName("COM_" + label.toUpperCase(Locale.ROOT));
  }

  private static double value(JsonNode sample) {
    return Double.parseDouble(sample.path("value").get(1).asText());
  }

  /** Grafana's variables, as an "All" selection over a window longer than the test. */
  static String substitute(String expr) {
    return expr.replace("$__rate_interval", "10m")
        .replace("$collector", ".*")
        .replace("$instance", ".*");
  }

  private static void assertCommandsEqual(PrometheusText m, TrafficProfile p) {
    for (CommandType type : io.wireadvisor.metrics.ProfileCollector.ALWAYS) {
      CommandStats c = p.commands().get(type);
      String label = type.wireName().substring(4).toLowerCase(Locale.ROOT);
      assertThat(m.value("wireadvisor_commands_total", "type", label))
          .as("commands %s", label)
          .isEqualTo(c == null ? 0 : c.count());
    }
  }

  private void promtoolCheckMetrics(String body, Path work, String who) throws Exception {
    Path file = work.resolve(who + ".metrics");
    Files.writeString(file, body);
    ProcessBuilder pb =
        new ProcessBuilder("promtool", "check", "metrics")
            .redirectInput(file.toFile())
            .redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    // Exit 0: valid. promtool also lints (exit 3: e.g. a counter without _total): none allowed.
    assertThat(p.exitValue()).as("promtool check metrics on the %s's body:%n%s", who, out).isZero();
  }

  private List<JsonNode> query(String prom, String promql) throws Exception {
    JsonNode r =
        api(prom + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    assertThat(r.path("status").asText()).as("%s: %s", promql, r).isEqualTo("success");
    List<JsonNode> out = new ArrayList<>();
    r.path("data").path("result").forEach(out::add);
    return out;
  }

  private double scalar(String prom, String promql) {
    try {
      List<JsonNode> r = query(prom, promql);
      return r.size() == 1 ? value(r.get(0)) : Double.NaN;
    } catch (Exception e) {
      return Double.NaN;
    }
  }

  private JsonNode api(String url) {
    try {
      return JSON.readTree(get(url));
    } catch (Exception e) {
      throw new IllegalStateException(url + ": " + e, e);
    }
  }

  private boolean ok(String url) {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private String get(String url) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("%s: %s", url, r.body()).isEqualTo(200);
    return r.body();
  }

  private static void waitUntil(String what, int seconds, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + seconds + " s waiting for " + what);
      }
      Thread.sleep(200);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private record Result(int exit, String output) {}

  private static Result run(Path dir, int seconds, String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", cmd) + " did not finish in " + seconds + " s");
    }
    return new Result(p.exitValue(), out);
  }

  /** Runs bin/ensure-prometheus; returns null when both binaries are there, else why not. */
  private static String ensurePrometheus() throws Exception {
    if (onPath("prometheus") && onPath("promtool")) {
      return null;
    }
    Result r = run(ROOT, 900, ROOT.resolve("bin/ensure-prometheus").toString());
    if (onPath("prometheus") && onPath("promtool")) {
      return null;
    }
    return r.output.isBlank() ? "bin/ensure-prometheus could not install them" : r.output.strip();
  }

  private static boolean onPath(String binary) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Paths.get(dir, binary))) {
        return true;
      }
    }
    return false;
  }
}
