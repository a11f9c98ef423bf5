package io.wireadvisor.proxy;

import io.wireadvisor.metrics.ProfileMetricsAssert;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.PrometheusText;
import io.wireadvisor.testkit.RealDatabase;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every counter on {@code /metrics} equals {@code /profile}'s count at every scrape, before and
 * after forced garbage collections (Micrometer holds function-meter targets weakly: a meter whose
 * target nothing else keeps reads 0 or NaN after the first GC).
 */
@RealDatabase
class MetricsMatchProfileIT {
  private final DatabaseServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  MetricsMatchProfileIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void everyCounterEqualsTheProfileBeforeAndAfterGc() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()).withAdmin("127.0.0.1", 0);
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      String db = server.createDatabase("proxy_metrics_gc");
      try (Connection c = p.connect(db, "");
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
      }
      String base = "http://127.0.0.1:" + p.proxy.adminPort();
      long executes = 0;
      for (int round = 1; round <= 3; round++) {
        executes += traffic(p, db, round);
        FaultsIT.waitFor(p.proxy::clientConnections, 0); // every COM_QUIT counted
        compare(p, base, executes);
        for (int i = 0; i < 3; i++) {
          forceGc();
        }
        compare(p, base, executes);
      }
      // A connection held open is counted as open, and the counts still agree.
      try (Connection open = p.connect(db, "useServerPrepStmts=true")) {
        try (PreparedStatement ps = open.prepareStatement("SELECT v FROM t WHERE id = ?")) {
          ps.setInt(1, 1);
          ps.executeQuery().close();
        }
        executes++;
        forceGc();
        PrometheusText m = PrometheusText.parse(get(base + "/metrics"));
        assertThat(m.value("wireadvisor_connections", "collector", "proxy")).isEqualTo(1.0);
        assertThat(m.value("wireadvisor_proxy_client_connections", "collector", "proxy"))
            .isEqualTo(1.0);
        compare(p, base, executes);
      }
    }
  }

  /** Text and prepared statements, probes, an error; returns the COM_STMT_EXECUTEs sent. */
  private static long traffic(ProxiedServer p, String db, int round) throws SQLException {
    long executes = 0;
    for (int conn = 0; conn < 2; conn++) {
      try (Connection c = p.connect(db, "useServerPrepStmts=true");
          Statement s = c.createStatement()) {
        s.execute("INSERT INTO t VALUES (" + (round * 10 + conn) + ", 'x')");
        for (int i = 0; i < 20 * round; i++) {
          try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
            ps.setInt(1, i);
            ps.executeQuery().close();
            executes++;
          }
        }
        s.executeQuery("SELECT id FROM t WHERE v = 'x'").close();
        c.getTransactionIsolation();
        s.executeQuery("SELECT @@session.transaction_isolation").close();
        try {
          s.executeQuery("SELECT nope FROM t").close();
        } catch (SQLException expected) {
          // counted in errors
        }
      }
    }
    return executes;
  }

  private void compare(ProxiedServer p, String base, long executes) throws Exception {
    String body = get(base + "/metrics");
    TrafficProfile served = ProfileJson.fromJson(get(base + "/profile"));
    assertThat(served.count(CommandType.STMT_EXECUTE)).isEqualTo(executes);
    PrometheusText m = PrometheusText.parse(body);
    ProfileMetricsAssert.assertEveryCounterEquals(served, m, Source.PROXY, p.proxy.instance());
    assertThat(m.value("wireadvisor_commands_total", "type", "stmt_execute")).isEqualTo(executes);
    assertThat(m.value("wireadvisor_proxy_connections_accepted_total", "collector", "proxy"))
        .isEqualTo(p.proxy.stats().connectionsAccepted.sum());
    // No NaN anywhere: a latency that lost its target would read NaN.
    assertThat(m.samples()).noneMatch(s -> Double.isNaN(s.value()));
  }

  /** Runs collections until a fresh object is gone (bounded), so weak references were cleared. */
  static void forceGc() throws InterruptedException {
    WeakReference<Object> canary = new WeakReference<>(new Object());
    for (int i = 0; i < 20 && canary.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(canary.get()).as("a GC ran").isNull();
  }

  private String get(String url) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    return r.body();
  }
}
