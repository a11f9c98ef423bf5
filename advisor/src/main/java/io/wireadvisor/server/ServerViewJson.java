package io.wireadvisor.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * A {@link ServerView} as JSON: what {@code wire-advisor inspect} prints and {@code analyze
 * --server-view} reads back, so a view can be taken once and analysed offline.
 */
public final class ServerViewJson {
  public static final String SCHEMA = "wire-advisor/server-view";
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ServerViewJson() {}

  public static String toJson(ServerView v) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("schemaVersion", 1);
    root.put("version", v.versionString());
    root.put("kind", v.kind().name());
    root.put("productVersion", v.version().toString());
    root.put("defaultSchema", v.defaultSchema());
    root.put("isolation", v.isolation());
    ObjectNode globals = root.putObject("globals");
    for (Map.Entry<String, String> e : v.globals().entrySet()) {
      globals.put(e.getKey(), e.getValue());
    }
    ArrayNode tables = root.putArray("tables");
    for (TableInfo t : v.tables()) {
      ObjectNode o = tables.addObject();
      o.put("schema", t.schema());
      o.put("name", t.name());
      o.put("dataBytes", t.dataBytes());
      o.put("indexBytes", t.indexBytes());
      o.put("partitioned", t.partitioned());
      o.put("temporary", t.temporary());
      o.put("view", t.view());
      o.put("cached", t.cached());
      if (t.rows() >= 0) {
        o.put("rows", t.rows());
      }
    }
    ArrayNode statements = root.putArray("statements");
    for (StatementSummary s : v.statements()) {
      ObjectNode o = statements.addObject();
      o.put("schema", s.schema());
      o.put("digestText", s.digestText());
      o.put("execCount", s.execCount());
      o.put("planCacheHits", s.planCacheHits());
      o.put("planInCache", s.planInCache());
      o.put("sumLatencyNanos", s.sumLatencyNanos());
      if (s.digest() != null) {
        o.put("digest", s.digest());
      }
      if (s.avgProcessedKeys() >= 0) {
        o.put("avgProcessedKeys", s.avgProcessedKeys());
      }
      if (s.planCacheUnqualified() >= 0) {
        o.put("planCacheUnqualified", s.planCacheUnqualified());
      }
      if (s.planCacheUnqualifiedReason() != null) {
        o.put("planCacheUnqualifiedReason", s.planCacheUnqualifiedReason());
      }
      if (s.avgParseNanos() >= 0) {
        o.put("avgParseNanos", s.avgParseNanos());
      }
      if (s.avgCompileNanos() >= 0) {
        o.put("avgCompileNanos", s.avgCompileNanos());
      }
    }
    if (v.summaryBegin() != null || v.summaryRead() != null) {
      ObjectNode w = root.putObject("summaryWindow");
      w.put("begin", v.summaryBegin());
      w.put("read", v.summaryRead());
    }
    ObjectNode metrics = root.putObject("metrics");
    for (Map.Entry<String, Double> e : v.metrics().entrySet()) {
      metrics.put(e.getKey(), e.getValue());
    }
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reads a view; a wrong document fails with a message naming the field. */
  public static ServerView fromJson(String json) throws IOException {
    JsonNode root = MAPPER.readTree(json);
    if (root == null || !root.isObject()) {
      throw new IOException("server view: expected a JSON object");
    }
    if (!SCHEMA.equals(root.path("schema").asText())) {
      throw new IOException("schema: expected \"" + SCHEMA + "\"");
    }
    JsonNode version = root.get("version");
    if (version == null || !version.isTextual()) {
      throw new IOException("version: expected the server's VERSION() string");
    }
    ServerView.Builder b = ServerView.builder(version.asText())
        .defaultSchema(text(root, "defaultSchema"))
        .isolation(text(root, "isolation"));
    Iterator<Map.Entry<String, JsonNode>> g = root.path("globals").fields();
    while (g.hasNext()) {
      Map.Entry<String, JsonNode> e = g.next();
      b.global(e.getKey(), e.getValue().asText());
    }
    int i = 0;
    for (JsonNode t : root.path("tables")) {
      String at = "tables[" + i++ + "]";
      if (!t.path("schema").isTextual() || !t.path("name").isTextual()) {
        throw new IOException(at + ": schema and name are required strings");
      }
      b.table(new TableInfo(t.get("schema").asText(), t.get("name").asText(),
          t.path("dataBytes").asLong(), t.path("indexBytes").asLong(),
          t.path("partitioned").asBoolean(), t.path("temporary").asBoolean(),
          t.path("view").asBoolean(), t.path("cached").asBoolean(),
          t.has("rows") ? t.get("rows").asLong() : -1));
    }
    for (JsonNode s : root.path("statements")) {
      b.statement(new StatementSummary(text(s, "schema"), text(s, "digestText"),
          s.path("execCount").asLong(), s.path("planCacheHits").asLong(),
          s.path("planInCache").asBoolean(), s.path("sumLatencyNanos").asLong(),
          s.hasNonNull("digest") ? s.get("digest").asText() : null,
          s.has("avgProcessedKeys") ? s.get("avgProcessedKeys").asDouble() : -1)
          .withPlanCacheFacts(s.path("planCacheUnqualified").asLong(-1), text(s, "planCacheUnqualifiedReason"),
              s.path("avgParseNanos").asLong(-1), s.path("avgCompileNanos").asLong(-1)));
    }
    JsonNode w = root.path("summaryWindow");
    if (w.isObject()) {
      b.summaryWindow(text(w, "begin"), text(w, "read"));
    }
    Iterator<Map.Entry<String, JsonNode>> m = root.path("metrics").fields();
    while (m.hasNext()) {
      Map.Entry<String, JsonNode> e = m.next();
      b.metric(e.getKey(), e.getValue().asDouble());
    }
    return b.build();
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
