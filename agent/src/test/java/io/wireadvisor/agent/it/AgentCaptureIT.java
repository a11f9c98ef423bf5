package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureValue;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The agent captures an application's traffic from start-up ({@code capture=<file>}), for an
 * application that cannot be put behind the proxy: the same events the proxy writes, read from
 * what Connector/J sends, with the account statement kept out.
 */
@RealDatabase
class AgentCaptureIT {
  @Test
  void theAgentCapturesWhatTheDriverSends(DatabaseServer server) throws Exception {
    String db = server.createDatabase("agent_capture");
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it", "capture");
    Files.createDirectories(dir);
    Path file = dir.resolve("capture.jsonl");
    Files.deleteIfExists(file);
    String url = "jdbc:mysql://" + server.host() + ":" + server.port() + "/" + db;
    List<String> cmd =
        AgentFork.command(
            AgentFork.defaultJava(),
            "capture=" + file + ",interval=0",
            List.of(), List.of(AgentFork.driverJar(AgentFork.newestDriver()), AgentFork.testClasses()),
            "io.wireadvisor.agent.it.app.CaptureApp",
            List.of(url, server.user(), server.password().isEmpty() ? "-" : server.password()));
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      assertThat(app.await("DONE")).isEqualTo("DONE");
      assertThat(app.awaitExit()).as(app.stderr()).isZero();
      assertThat(app.stderr()).contains("capture " + file);
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    assertThat(text).doesNotContain("CaptureSecret-77");
    CaptureFormat.Capture capture = CaptureFormat.read(file);
    assertThat(capture.header().collector()).isEqualTo("agent");
    // The agent names the Connector/J it instruments (written in the last line: the capture began
    // before the first connection was described).
    assertThat(capture.header().driverName()).isEqualTo("MySQL Connector/J");
    assertThat(capture.header().driverVersion()).isEqualTo(AgentFork.newestDriver());
    assertThat(capture.drivers()).isEqualTo(1);
    assertThat(capture.complete()).isTrue();
    assertThat(capture.byConnection()).hasSize(2);
    List<CaptureEvent> events = capture.events();

    CaptureEvent prepare = events.stream()
        .filter(e -> e.kind() == CaptureEvent.Kind.PREPARE && "SELECT ? + 1".equals(e.sql()))
        .findFirst().orElseThrow(() -> new AssertionError(events.toString()));
    List<String> executed = events.stream()
        .filter(e -> e.kind() == CaptureEvent.Kind.EXECUTE && e.statementId() == prepare.statementId())
        .map(e -> e.values().get(0).text())
        .collect(Collectors.toList());
    assertThat(executed).containsExactly("40", "41", "42");
    assertThat(events).anySatisfy(e -> {
      assertThat(e.kind()).isEqualTo(CaptureEvent.Kind.QUERY);
      assertThat(e.sql()).isEqualTo("SELECT ? AS owner, ? AS id");
      assertThat(e.values()).extracting(CaptureValue::text).containsExactly("ann", "1234");
    });
    assertThat(events).anySatisfy(e -> {
      assertThat(e.kind()).isEqualTo(CaptureEvent.Kind.QUERY);
      assertThat(e.sql()).isEqualTo("SELECT nope FROM no_such_table_for_capture");
      assertThat(e.ok()).isFalse();
      assertThat(e.errorCode()).isEqualTo(1146);
    });
    // The client-side prepared statement: its literals, inlined by the driver, become values again.
    assertThat(events).anySatisfy(e -> {
      assertThat(e.kind()).isEqualTo(CaptureEvent.Kind.QUERY);
      assertThat(e.sql()).isEqualTo("SELECT ? AS name, ? AS n");
      assertThat(e.values()).extracting(CaptureValue::text).containsExactly("bob", "7");
    });
    assertThat(events.stream().filter(e -> e.kind() == CaptureEvent.Kind.QUIT)).hasSize(2);
  }
}
