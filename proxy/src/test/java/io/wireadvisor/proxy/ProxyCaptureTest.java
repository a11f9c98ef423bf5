package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.capture.CaptureSlot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin endpoint's capture status is JSON (written by Jackson) with the fields it always had. */
class ProxyCaptureTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static JsonNode parse(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void theStatusBeforeDuringAndAfterACaptureParses() throws Exception {
    // A directory name a hand-built writer would have to escape: quote, backslash, control character.
    Path odd = java.nio.file.Files.createDirectories(dir.resolve("a\"b\\c\u0001d"));
    ProxyCapture capture = new ProxyCapture(
        new CaptureSettings(null, odd, CaptureSettings.DEFAULT_MAX_BYTES, 60, false), ProxyLimits.defaults(), "db:4000");
    try {
      JsonNode idle = parse(capture.statusJson());
      assertThat(idle.get("running").booleanValue()).isFalse();
      assertThat(idle.get("adminCapture").booleanValue()).isTrue();
      assertThat(idle.has("last")).isFalse();

      capture.startInDirectory("c.jsonl", null, null, true);
      JsonNode running = parse(capture.statusJson());
      assertThat(running.get("running").booleanValue()).isTrue();
      assertThat(running.get("file").textValue()).isEqualTo(odd.resolve("c.jsonl").toString());
      assertThat(running.get("valuesMasked").booleanValue()).isTrue();
      assertThat(running.get("events").isIntegralNumber()).isTrue();
      assertThat(running.get("bytes").longValue()).isPositive();
      assertThat(running.get("connections").longValue()).isZero();

      CaptureSlot.Summary stopped = capture.stop();
      JsonNode summary = parse(ProxyCapture.json(stopped));
      assertThat(summary.get("file").textValue()).isEqualTo(odd.resolve("c.jsonl").toString());
      assertThat(summary.get("events").longValue()).isEqualTo(stopped.events());
      assertThat(summary.get("dropped").longValue()).isEqualTo(stopped.dropped());
      assertThat(summary.get("bytes").longValue()).isEqualTo(stopped.bytes());
      assertThat(summary.get("connections").longValue()).isEqualTo(stopped.connections());
      assertThat(summary.get("ended").textValue()).isEqualTo(stopped.ended());

      JsonNode after = parse(capture.statusJson());
      assertThat(after.get("running").booleanValue()).isFalse();
      assertThat(after.get("last")).isEqualTo(summary);
    } finally {
      capture.close();
    }
  }
}
