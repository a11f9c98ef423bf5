package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureValue;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy captures a window of real traffic (Connector/J through it to the test server): started
 * and stopped by the admin endpoint while a pooled-style connection is already open with its
 * statements prepared, so the capture must carry those statements' texts; text statements become
 * template and literals; binary parameters are read from COM_STMT_EXECUTE; errors carry the
 * server's code; the file is 0600 and says it holds data. And the admin call is refused where it
 * would be dangerous.
 */
@RealDatabase
class ProxyCaptureIT {
  private static final String TOKEN = "capture-t0ken-" + Long.toHexString(System.nanoTime());
  private final DatabaseServer server;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  ProxyCaptureIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  private ProxyConfig config(Path dir, String token) {
    ProxyLimits limits = ProxyLimits.defaults();
    if (token != null) {
      limits = limits.withAdminToken(token);
    }
    return ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
        .withAdmin("127.0.0.1", 0)
        .withLimits(limits)
        .withCapture(new CaptureSettings(null, dir, 1L << 20, 60, false));
  }

  private HttpResponse<String> post(WireProxy proxy, String pathAndQuery, String token)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + pathAndQuery))
            .POST(HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aCaptureStartedByTheAdminEndpointHoldsTheWindowReplayNeeds(@TempDir Path dir) throws Exception {
    String db = server.createDatabase("capture");
    try (Connection setup = server.connect(db, "")) {
      setup.createStatement().execute("CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(40), bal DECIMAL(12,2))");
      setup.createStatement().execute("INSERT INTO acct VALUES (1, 'ann', 10.50), (2, 'bob', 20.00)");
    }
    try (ProxiedServer p = ProxiedServer.start(server, config(dir, TOKEN));
        Connection c =
            p.connect(db, "useServerPrepStmts=true&cachePrepStmts=true&useSSL=false&allowPublicKeyRetrieval=true")) {
      // Prepared before the capture, executed during it (as a pool does).
      PreparedStatement byId = c.prepareStatement("SELECT owner, bal FROM acct WHERE id = ?");
      byId.setInt(1, 1);
      byId.executeQuery().close();

      HttpResponse<String> started = post(p.proxy, "/capture/start?name=window.jsonl", TOKEN);
      assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
      assertThat(post(p.proxy, "/capture/start?name=other.jsonl", TOKEN).statusCode())
          .as("one capture at a time")
          .isEqualTo(409);

      byId.setInt(1, 2);
      try (ResultSet rs = byId.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
      try (PreparedStatement upd = c.prepareStatement("UPDATE acct SET bal = ?, owner = ? WHERE id = ?")) {
        upd.setBigDecimal(1, new java.math.BigDecimal("11.25"));
        upd.setString(2, "ann marie");
        upd.setInt(3, 1);
        assertThat(upd.executeUpdate()).isEqualTo(1);
      }
      try (Statement s = c.createStatement()) {
        s.executeQuery("SELECT owner FROM acct WHERE id = 2 AND owner = 'bob'").close();
        try {
          s.executeQuery("SELECT nope FROM acct");
        } catch (SQLException expected) {
          assertThat(expected.getErrorCode()).isEqualTo(1054);
        }
      }
      HttpResponse<String> stopped = post(p.proxy, "/capture/stop", TOKEN);
      assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(200);
      assertThat(stopped.body()).contains("\"ended\":\"stopped\"");
      // After the capture: nothing more is written.
      byId.setInt(1, 1);
      byId.executeQuery().close();
    }

    Path file = dir.resolve("window.jsonl");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    CaptureFormat.Capture capture = CaptureFormat.read(file);
    assertThat(capture.header().collector()).isEqualTo("proxy");
    assertThat(Files.readAllLines(file).get(0)).contains("holds");
    assertThat(capture.complete()).isTrue();
    assertThat(capture.byConnection()).hasSize(1);
    List<CaptureEvent> events = capture.byConnection().values().iterator().next();
    List<CaptureEvent.Kind> kinds = events.stream().map(CaptureEvent::kind).collect(Collectors.toList());
    assertThat(kinds.get(0)).isEqualTo(CaptureEvent.Kind.CONNECT);

    CaptureEvent keptPrepare = events.get(1);
    assertThat(keptPrepare.kind()).as("the statement prepared before the capture").isEqualTo(CaptureEvent.Kind.PREPARE);
    assertThat(keptPrepare.sql()).isEqualTo("SELECT owner, bal FROM acct WHERE id = ?");
    CaptureEvent exec = events.get(2);
    assertThat(exec.kind()).isEqualTo(CaptureEvent.Kind.EXECUTE);
    assertThat(exec.statementId()).isEqualTo(keptPrepare.statementId());
    assertThat(exec.values()).extracting(CaptureValue::text).containsExactly("2");
    assertThat(exec.ok()).isTrue();
    assertThat(exec.latencyMicros()).isPositive();

    CaptureEvent update =
        events.stream()
            .filter(e -> e.kind() == CaptureEvent.Kind.EXECUTE && e.statementId() != keptPrepare.statementId())
            .findFirst()
            .orElseThrow();
    assertThat(update.values())
        .extracting(CaptureValue::type, CaptureValue::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(CaptureValue.Type.NUMBER, "11.25"),
            org.assertj.core.groups.Tuple.tuple(CaptureValue.Type.STRING, "ann marie"),
            org.assertj.core.groups.Tuple.tuple(CaptureValue.Type.NUMBER, "1"));
    assertThat(events)
        .anySatisfy(e -> {
          assertThat(e.kind()).isEqualTo(CaptureEvent.Kind.PREPARE);
          assertThat(e.sql()).isEqualTo("UPDATE acct SET bal = ?, owner = ? WHERE id = ?");
        });
    assertThat(events)
        .anySatisfy(e -> {
          assertThat(e.kind()).isEqualTo(CaptureEvent.Kind.QUERY);
          assertThat(e.sql()).isEqualTo("SELECT owner FROM acct WHERE id = ? AND owner = ?");
          assertThat(e.values()).extracting(CaptureValue::text).containsExactly("2", "bob");
        });
    assertThat(events)
        .anySatisfy(e -> {
          assertThat(e.kind()).isEqualTo(CaptureEvent.Kind.QUERY);
          assertThat(e.sql()).isEqualTo("SELECT nope FROM acct");
          assertThat(e.ok()).isFalse();
          assertThat(e.errorCode()).isEqualTo(1054);
        });
    long executesOfById =
        events.stream()
            .filter(e -> e.kind() == CaptureEvent.Kind.EXECUTE && e.statementId() == keptPrepare.statementId())
            .count();
    assertThat(executesOfById).as("only the one inside the window").isEqualTo(1);
  }

  @Test
  void theTimeLimitEndsACaptureWithoutTraffic(@TempDir Path dir) throws Exception {
    try (WireProxy proxy = WireProxy.start(config(dir, TOKEN))) {
      assertThat(post(proxy, "/capture/start?name=idle.jsonl&maxSeconds=1", TOKEN).statusCode()).isEqualTo(200);
      Thread.sleep(1_800);
      HttpResponse<String> status =
          http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/capture"))
              .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
      assertThat(status.body()).contains("\"running\":false").contains("time limit");
      assertThat(CaptureFormat.read(dir.resolve("idle.jsonl")).complete()).isTrue();
      assertThat(post(proxy, "/capture/start?name=next.jsonl", TOKEN).statusCode()).as("free for the next").isEqualTo(200);
    }
  }

  @Test
  void theAdminCallIsRefusedWhereItWouldBeDangerous(@TempDir Path dir) throws Exception {
    try (WireProxy noToken = WireProxy.start(config(dir, null))) {
      HttpResponse<String> r = post(noToken, "/capture/start?name=x.jsonl", null);
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.body()).contains("--admin-token");
    }
    try (WireProxy proxy = WireProxy.start(config(dir, TOKEN))) {
      assertThat(post(proxy, "/capture/start?name=x.jsonl", null).statusCode()).as("no token").isEqualTo(401);
      assertThat(post(proxy, "/capture/start?name=../escape.jsonl", TOKEN).statusCode()).isEqualTo(400);
      assertThat(post(proxy, "/capture/start?name=.hidden", TOKEN).statusCode()).isEqualTo(400);
      assertThat(post(proxy, "/capture/start", TOKEN).statusCode()).as("no name").isEqualTo(400);
      assertThat(post(proxy, "/capture/start?name=x.jsonl&maxBytes=999999999999", TOKEN).statusCode())
          .as("above the proxy's limit")
          .isEqualTo(400);
      Files.writeString(dir.resolve("exists.jsonl"), "keep me");
      assertThat(post(proxy, "/capture/start?name=exists.jsonl", TOKEN).statusCode()).isEqualTo(409);
      assertThat(Files.readString(dir.resolve("exists.jsonl"))).isEqualTo("keep me");
      Files.createSymbolicLink(dir.resolve("link.jsonl"), dir.resolve("target.jsonl"));
      assertThat(post(proxy, "/capture/start?name=link.jsonl", TOKEN).statusCode()).isEqualTo(409);
      assertThat(dir.resolve("target.jsonl")).doesNotExist();
      HttpResponse<String> get =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/capture/start?name=y.jsonl"))
                  .header("Authorization", "Bearer " + TOKEN)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).as("a link or image cannot start one").isEqualTo(405);
      assertThat(dir.resolve("y.jsonl")).doesNotExist();
      assertThat(post(proxy, "/capture/stop", TOKEN).statusCode()).as("nothing running").isEqualTo(409);
    }
  }
}
