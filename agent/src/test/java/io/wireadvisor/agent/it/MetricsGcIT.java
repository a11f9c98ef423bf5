package io.wireadvisor.agent.it;

import io.wireadvisor.metrics.ProfileMetricsAssert;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.PrometheusText;
import io.wireadvisor.testkit.RealDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shaded agent's {@code /metrics} in a forked JVM: every counter equals the agent's profile
 * at every scrape, before and after {@code jcmd <pid> GC.run} (nothing Micrometer holds weakly
 * may carry a count).
 */
@RealDatabase
class MetricsGcIT {
  private final DatabaseServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  MetricsGcIT(DatabaseServer server) {
    this.server = server;
  }

  @Test
  void everyCounterEqualsTheProfileBeforeAndAfterGc() throws Exception {
    String db = server.createDatabase("agent_metrics_gc");
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it", "metrics-gc");
    Files.createDirectories(dir);
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    List<String> cmd =
        AgentFork.command(
            AgentFork.defaultJava(),
            "profile=" + dir.resolve("final.json") + ",interval=0,quiet=true,prometheus=127.0.0.1:" + port,
            List.of(),
            List.of(AgentFork.driverJar(AgentFork.newestDriver()), AgentFork.testClasses()),
            "io.wireadvisor.agent.it.app.MetricsGcApp",
            List.of(server.jdbcUrl(db, "useServerPrepStmts=true&sslMode=DISABLED"), server.user(),
                server.password() == null ? "" : server.password(), dir.toString()));
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      app.await("READY");
      String metrics = "http://127.0.0.1:" + port + "/metrics";
      long executes = 0;
      for (int round = 1; round <= 3; round++) {
        app.send("ROUND " + round);
        app.await("DONE " + round);
        executes += 2 * 20 * round;
        TrafficProfile profile = app.profile("round.json");
        assertThat(profile.count(CommandType.STMT_EXECUTE)).isEqualTo(executes);
        String instance = profile.sources().get(0).instance();
        check(profile, get(metrics), instance);
        gc(app.pid());
        gc(app.pid());
        check(profile, get(metrics), instance);
      }
      app.send("EXIT");
      assertThat(app.awaitExit()).as(app.stderr()).isZero();
    }
  }

  private static void check(TrafficProfile profile, String body, String instance) {
    PrometheusText m = PrometheusText.parse(body);
    ProfileMetricsAssert.assertEveryCounterEquals(profile, m, Source.AGENT, instance);
    assertThat(m.samples()).noneMatch(s -> Double.isNaN(s.value()));
    assertThat(m.value("wireadvisor_active", "collector", "agent", "instance", instance)).isEqualTo(1.0);
  }

  private static void gc(long pid) throws Exception {
    Path jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "GC.run").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jcmd finishes").isTrue();
    assertThat(p.exitValue()).as("jcmd GC.run: %s", out).isZero();
  }

  private String get(String url) throws Exception {
    HttpResponse<String> r =
        http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }
}
