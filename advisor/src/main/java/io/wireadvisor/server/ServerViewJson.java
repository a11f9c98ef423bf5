package io.wireadvisor.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wireadvisor.json.StrictNode;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
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
      if (v.summaryIntervals() > 0) {
        w.put("intervals", v.summaryIntervals());
      }
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

  /**
   * Reads a view strictly; a wrong document fails with a message naming the field ({@code
   * tables[0].name: is missing}, {@code statements[2].execCount: expected an integer, got …}).
   */
  public static ServerView fromJson(String json) throws IOException {
    JsonNode tree = MAPPER.readTree(json);
    if (tree == null || !tree.isObject()) {
      throw new IOException("server view: expected a JSON object");
    }
    StrictNode<IOException> root =
        StrictNode.of(tree, "", (path, problem) -> new IOException((path.isEmpty() ? "server view" : path) + ": " + problem));
    StrictNode<IOException> schema = root.field("schema");
    if (!SCHEMA.equals(schema.string())) {
      throw schema.fail("expected \"" + SCHEMA + "\"");
    }
    ServerView.Builder b = ServerView.builder(root.field("version").string())
        .defaultSchema(root.optionalString("defaultSchema"))
        .isolation(root.optionalString("isolation"));
    if (root.has("globals")) {
      for (Map.Entry<String, StrictNode<IOException>> e : root.field("globals").fields()) {
        b.global(e.getKey(), e.getValue().json().isNull() ? null : e.getValue().string());
      }
    }
    for (StrictNode<IOException> t : list(root, "tables")) {
      b.table(new TableInfo(t.field("schema").string(), t.field("name").string(),
          integer(t, "dataBytes", 0), integer(t, "indexBytes", 0),
          bool(t, "partitioned"), bool(t, "temporary"), bool(t, "view"), bool(t, "cached"),
          integer(t, "rows", -1)));
    }
    for (StrictNode<IOException> s : list(root, "statements")) {
      b.statement(new StatementSummary(s.optionalString("schema"), s.optionalString("digestText"),
          integer(s, "execCount", 0), integer(s, "planCacheHits", 0),
          bool(s, "planInCache"), integer(s, "sumLatencyNanos", 0),
          s.optionalString("digest"),
          s.has("avgProcessedKeys") ? s.field("avgProcessedKeys").number() : -1)
          .withPlanCacheFacts(integer(s, "planCacheUnqualified", -1), s.optionalString("planCacheUnqualifiedReason"),
              integer(s, "avgParseNanos", -1), integer(s, "avgCompileNanos", -1)));
    }
    if (root.has("summaryWindow")) {
      StrictNode<IOException> w = root.field("summaryWindow");
      b.summaryWindow(w.optionalString("begin"), w.optionalString("read"));
      if (w.has("intervals")) {
        b.summaryIntervals((int) Math.min(Integer.MAX_VALUE, w.field("intervals").nonNegative()));
      }
    }
    if (root.has("metrics")) {
      for (Map.Entry<String, StrictNode<IOException>> e : root.field("metrics").fields()) {
        b.metric(e.getKey(), metric(e.getValue()));
      }
    }
    return b.build();
  }

  private static List<StrictNode<IOException>> list(StrictNode<IOException> n, String field) throws IOException {
    return n.has(field) ? n.field(field).elements() : Collections.<StrictNode<IOException>>emptyList();
  }

  private static long integer(StrictNode<IOException> n, String field, long absent) throws IOException {
    return n.has(field) ? n.field(field).integer() : absent;
  }

  private static boolean bool(StrictNode<IOException> n, String field) throws IOException {
    return n.has(field) && n.field(field).bool();
  }

  /** A number, or NaN and the infinities, which Jackson writes as strings. */
  private static double metric(StrictNode<IOException> n) throws IOException {
    if (n.json().isTextual()) {
      String v = n.json().textValue();
      if (v.equals("NaN") || v.equals("Infinity") || v.equals("-Infinity")) {
        return Double.parseDouble(v);
      }
    }
    return n.number();
  }
}
