package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint's replies are the bytes the hand-built strings were before Jackson wrote
 * them: scripts that grep {@code "status":"UP"} or parse the capture replies see no change.
 */
class AdminJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOSTILE = "x\"}, \"running\": true, \"y\": \"\\\n\u0000\u2028é";

  /** The string quoting the hand-built replies used (ProxyCapture.quote: a Jackson text node). */
  private static String quoted(String s) throws Exception {
    return JSON.writeValueAsString(JSON.getNodeFactory().textNode(s));
  }

  @Test
  void healthIsTheSameObject() {
    assertThat(AdminJson.health(3, 2))
        .isEqualTo("{\"status\":\"UP\",\"clientConnections\":3,\"upstreamConnections\":2}");
    assertThat(AdminJson.health(0, Integer.MAX_VALUE))
        .isEqualTo("{\"status\":\"UP\",\"clientConnections\":" + 0 + ",\"upstreamConnections\":"
            + Integer.MAX_VALUE + "}");
  }

  @Test
  void captureRepliesAreTheSameObjects() throws Exception {
    assertThat(AdminJson.error("no capture is running")).isEqualTo("{\"error\":\"no capture is running\"}");
    for (String s : new String[] {"/var/cap/window.jsonl", HOSTILE, ""}) {
      assertThat(AdminJson.error(s)).isEqualTo("{\"error\":" + quoted(s) + "}");
      for (boolean masked : new boolean[] {true, false}) {
        assertThat(AdminJson.started(s, masked))
            .isEqualTo("{\"started\":" + quoted(s) + ",\"valuesMasked\":" + masked + "}");
      }
    }
  }

  @Test
  void aHostileStringStaysOneString() throws Exception {
    assertThat(JSON.readTree(AdminJson.error(HOSTILE)).get("error").textValue()).isEqualTo(HOSTILE);
    assertThat(JSON.readTree(AdminJson.error(HOSTILE)).size()).isEqualTo(1);
    assertThat(JSON.readTree(AdminJson.started(HOSTILE, true)).get("started").textValue()).isEqualTo(HOSTILE);
    assertThat(AdminJson.error(null)).isEqualTo("{\"error\":null}");
  }
}
