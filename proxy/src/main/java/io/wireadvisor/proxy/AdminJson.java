package io.wireadvisor.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The admin endpoint's JSON replies, written by Jackson: one compact object a line, fields in the
 * order they are put, every string escaped by the writer (a file name or an error message with a
 * quote or a control character stays one string).
 */
final class AdminJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AdminJson() {}

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  static String write(JsonNode n) {
    try {
      return JSON.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers always writes", e);
    }
  }

  /** {@code GET /health}: {@code {"status":"UP","clientConnections":N,"upstreamConnections":M}}. */
  static String health(int clientConnections, int upstreamConnections) {
    ObjectNode o = object();
    o.put("status", "UP");
    o.put("clientConnections", clientConnections);
    o.put("upstreamConnections", upstreamConnections);
    return write(o);
  }

  /** A failed capture call: {@code {"error":"..."}}. */
  static String error(String message) {
    ObjectNode o = object();
    o.put("error", message);
    return write(o);
  }

  /** {@code POST /capture/start}: {@code {"started":"FILE","valuesMasked":true|false}}. */
  static String started(String file, boolean valuesMasked) {
    ObjectNode o = object();
    o.put("started", file);
    o.put("valuesMasked", valuesMasked);
    return write(o);
  }
}
