package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.PrometheusText;
import io.wireadvisor.testkit.RealDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The admin HTTP endpoint serves what the recorder holds, in each format. */
@RealDatabase
class AdminEndpointIT {
  private final DatabaseServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  AdminEndpointIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void metricsProfileReportAndHealthDescribeTheTraffic() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()).withAdmin("127.0.0.1", 0);
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      String db = server.createDatabase("proxy_admin");
      try (Connection c = p.connect(db, "useServerPrepStmts=true");
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
        s.execute("INSERT INTO t VALUES (1), (2), (3)");
        for (int i = 0; i < 5; i++) {
          try (PreparedStatement ps = c.prepareStatement("SELECT id FROM t WHERE id = ?")) {
            ps.setInt(1, i);
            ps.executeQuery().close();
          }
        }
        c.getTransactionIsolation(); // a session probe unless cached locally
        try (ResultSet rs = s.executeQuery("SELECT @@session.transaction_isolation")) {
          rs.next();
        }
      }
      String base = "http://127.0.0.1:" + p.proxy.adminPort();
      FaultsIT.waitFor(p.proxy::clientConnections, 0); // COM_QUIT counted, nothing in flight
      TrafficProfile expected = p.proxy.profile();

      HttpResponse<String> profile = get(base + "/profile");
      assertThat(profile.statusCode()).isEqualTo(200);
      TrafficProfile served = ProfileJson.fromJson(profile.body());
      assertThat(served.commands().keySet()).isEqualTo(expected.commands().keySet());
      assertThat(served.count(CommandType.STMT_EXECUTE)).isEqualTo(5);
      assertThat(served.count(CommandType.STMT_PREPARE)).isEqualTo(5);
      assertThat(served.shapes().keySet()).isEqualTo(expected.shapes().keySet());
      assertThat(served.sources()).extracting(Source::collector).containsExactly(Source.PROXY);
      assertThat(served.sources().get(0).serverVersion()).isEqualTo(server.version());
      assertThat(served.totalProbes()).isGreaterThanOrEqualTo(1);

      HttpResponse<String> metrics = get(base + "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      PrometheusText m = PrometheusText.parse(metrics.body());
      String instance = p.proxy.instance();
      assertThat(
              m.value(
                  "wireadvisor_commands_total",
                  "collector", "proxy", "instance", instance, "type", "stmt_execute"))
          .isEqualTo(5.0);
      assertThat(m.value("wireadvisor_proxy_connections_accepted_total", "instance", instance))
          .isEqualTo(1.0);
      assertThat(
              m.value(
                  "wireadvisor_command_latency_seconds_bucket", "type", "stmt_execute", "le", "+Inf"))
          .isEqualTo(5.0);

      for (String format : new String[] {"text", "markdown", "json", "html"}) {
        HttpResponse<String> report = get(base + "/report?format=" + format);
        assertThat(report.statusCode()).as(format).isEqualTo(200);
        assertThat(report.body()).as(format).isNotBlank();
      }
      // Text is the default (the window's length and the rates move on between two requests).
      String plain = get(base + "/report").body();
      String text = get(base + "/report?format=text").body();
      assertThat(withoutClock(plain)).isEqualTo(withoutClock(text));
      assertThat(text).startsWith("wire-advisor report");
      assertThat(text).contains("COM_STMT_EXECUTE 5").contains("Source: proxy");
      assertThat(get(base + "/report?format=pdf").statusCode()).isEqualTo(400);

      HttpResponse<String> health = get(base + "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"status\":\"UP\"");
      assertThat(get(base + "/nothing-here").statusCode()).isEqualTo(404);
      HttpResponse<String> post =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/profile"))
                  .POST(HttpRequest.BodyPublishers.ofString("x"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A report with the window's length and the per-second rates blanked out. */
  private static String withoutClock(String report) {
    return report.replaceAll("[0-9][0-9,]*\\.[0-9]+ s\\b", "_ s").replaceAll("[0-9][0-9,.]*/s", "_/s");
  }
}
