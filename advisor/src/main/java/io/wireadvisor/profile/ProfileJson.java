package io.wireadvisor.profile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UnsupportedEncodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads and writes {@link TrafficProfile} JSON (schema in {@code docs/profile.md}).
 *
 * <p>Writing then reading gives back an equal profile. Reading is strict: a wrong type, a negative
 * count, an unknown enum name or an unknown field fails with a {@link ProfileFormatException}
 * naming the field, so a hand-edited or truncated file is never half-read.
 */
public final class ProfileJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private ProfileJson() {}

  // ---------------------------------------------------------------- writing

  /** The profile as pretty-printed JSON text. */
  public static String toJson(TrafficProfile profile) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(profile, out);
      return out.toString("UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
  }

  /** Writes the profile as UTF-8 JSON; does not close {@code out}. */
  public static void write(TrafficProfile profile, OutputStream out) throws IOException {
    JsonGenerator g = FACTORY.createGenerator(out);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.useDefaultPrettyPrinter();
    writeProfile(profile, g);
    g.flush();
  }

  /**
   * Writes the profile to {@code file} atomically (temp file, then rename), so a reader or a crash
   * mid-write never sees a truncated profile.
   */
  public static void writeFile(TrafficProfile profile, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        write(profile, out);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException atomicNotSupported) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static void writeProfile(TrafficProfile p, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("schema", TrafficProfile.SCHEMA);
    g.writeNumberField("schemaVersion", TrafficProfile.SCHEMA_VERSION);

    g.writeArrayFieldStart("sources");
    for (Source s : p.sources()) {
      g.writeStartObject();
      g.writeStringField("collector", s.collector());
      writeOptional(g, "collectorVersion", s.collectorVersion());
      writeOptional(g, "instance", s.instance());
      writeOptional(g, "driverName", s.driverName());
      writeOptional(g, "driverVersion", s.driverVersion());
      writeOptional(g, "serverVersion", s.serverVersion());
      writeOptional(g, "isolation", s.isolation());
      writeOptional(g, "jdbcUrl", s.jdbcUrl());
      g.writeObjectFieldStart("properties");
      for (Map.Entry<String, String> e : s.properties().entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeNumberField("startMillis", s.startMillis());
      g.writeNumberField("endMillis", s.endMillis());
      g.writeEndObject();
    }
    g.writeEndArray();

    g.writeObjectFieldStart("commands");
    for (Map.Entry<CommandType, CommandStats> e : p.commands().entrySet()) {
      g.writeObjectFieldStart(e.getKey().wireName());
      g.writeNumberField("count", e.getValue().count());
      if (e.getValue().latency() != null) {
        g.writeFieldName("latencyNanos");
        writeHistogram(e.getValue().latency(), g);
      }
      g.writeEndObject();
    }
    g.writeEndObject();

    g.writeArrayFieldStart("shapes");
    for (ShapeStats s : p.shapes().values()) {
      writeShape(s, g);
    }
    g.writeEndArray();

    g.writeObjectFieldStart("probes");
    for (Map.Entry<ProbeKind, ProbeStats> e : p.probes().entrySet()) {
      g.writeObjectFieldStart(e.getKey().name());
      g.writeNumberField("count", e.getValue().count());
      g.writeObjectFieldStart("causes");
      for (Map.Entry<String, Long> c : e.getValue().causes().entrySet()) {
        g.writeNumberField(c.getKey(), c.getValue());
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeEndObject();

    ConnectionStats c = p.connections();
    g.writeObjectFieldStart("connections");
    g.writeNumberField("connections", c.connections());
    g.writeObjectFieldStart("distributions");
    for (ConnectionMetric m : ConnectionMetric.values()) {
      g.writeFieldName(m.jsonName());
      writeHistogram(c.distribution(m), g);
    }
    g.writeEndObject();
    g.writeEndObject();

    g.writeEndObject();
  }

  private static void writeShape(ShapeStats s, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("digest", s.digest());
    g.writeStringField("digestText", s.digestText());
    writeOptional(g, "sample", s.sample());
    g.writeStringField("kind", s.kind().name());
    writeStrings(g, "tablesRead", s.tablesRead());
    writeStrings(g, "tablesWritten", s.tablesWritten());
    writeOptional(g, "probe", s.probe() == null ? null : s.probe().name());
    g.writeNumberField("minSqlLength", s.minSqlLength());
    g.writeNumberField("maxSqlLength", s.maxSqlLength());
    g.writeObjectFieldStart("counts");
    for (Via via : Via.values()) {
      if (s.count(via) != 0) {
        g.writeNumberField(via.jsonName(), s.count(via));
      }
    }
    g.writeEndObject();
    if (s.latency() != null) {
      g.writeFieldName("latencyNanos");
      writeHistogram(s.latency(), g);
    }
    g.writeEndObject();
  }

  private static void writeHistogram(Histogram h, final JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeNumberField("precisionBits", h.precisionBits());
    g.writeNumberField("count", h.count());
    g.writeNumberField("sum", h.sum());
    g.writeNumberField("min", h.min());
    g.writeNumberField("max", h.max());
    g.writeArrayFieldStart("buckets");
    final IOException[] failure = new IOException[1];
    h.forEachBucket(
        new Histogram.BucketVisitor() {
          @Override
          public void visit(long lowerBound, long upperBound, long count) {
            if (failure[0] != null) {
              return;
            }
            try {
              g.writeStartArray();
              g.writeNumber(lowerBound);
              g.writeNumber(count);
              g.writeEndArray();
            } catch (IOException e) {
              failure[0] = e;
            }
          }
        });
    if (failure[0] != null) {
      throw failure[0];
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void writeOptional(JsonGenerator g, String name, String value)
      throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  private static void writeStrings(JsonGenerator g, String name, List<String> values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  // ---------------------------------------------------------------- reading

  /** Reads a profile from JSON text. */
  public static TrafficProfile fromJson(String json) throws ProfileFormatException {
    return read(new StringReader(json));
  }

  /** Reads a profile from a file; the error names the file and the field. */
  public static TrafficProfile readFile(Path file) throws ProfileFormatException, IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no such profile file");
    }
  }

  /** Reads a profile from UTF-8 JSON. */
  public static TrafficProfile read(InputStream in) throws ProfileFormatException, IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(in);
    } catch (JsonParseException e) {
      throw notJson(e);
    }
    return fromTree(root);
  }

  /** Reads a profile from JSON characters. */
  public static TrafficProfile read(Reader in) throws ProfileFormatException {
    JsonNode root;
    try {
      root = MAPPER.readTree(in);
    } catch (JsonProcessingException e) {
      throw notJson(e);
    } catch (IOException e) {
      throw new ProfileFormatException("", "cannot be read: " + e.getMessage(), e);
    }
    return fromTree(root);
  }

  private static ProfileFormatException notJson(JsonProcessingException e) {
    String where =
        e.getLocation() == null
            ? ""
            : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    return new ProfileFormatException("", "is not valid JSON" + where + ": " + e.getOriginalMessage(), e);
  }

  /** Reads a profile from an already-parsed JSON tree. */
  public static TrafficProfile fromTree(JsonNode root) throws ProfileFormatException {
    if (root == null || root.isMissingNode()) {
      throw new ProfileFormatException("", "is empty");
    }
    Node r = new Node(root, "");
    r.requireObject();
    r.allowOnly(
        "schema", "schemaVersion", "sources", "commands", "shapes", "probes", "connections");
    String schema = r.field("schema").string();
    if (!TrafficProfile.SCHEMA.equals(schema)) {
      throw new ProfileFormatException(
          "schema", "expected \"" + TrafficProfile.SCHEMA + "\", got \"" + schema + "\"");
    }
    long version = r.field("schemaVersion").nonNegative();
    if (version != TrafficProfile.SCHEMA_VERSION) {
      throw new ProfileFormatException(
          "schemaVersion",
          "this wire-advisor reads version "
              + TrafficProfile.SCHEMA_VERSION
              + ", the file has version "
              + version
              + " (written by a "
              + (version > TrafficProfile.SCHEMA_VERSION ? "newer" : "older")
              + " wire-advisor)");
    }

    TrafficProfile p = new TrafficProfile();
    for (Node s : r.field("sources").elements()) {
      p.addSource(readSource(s));
    }
    for (Map.Entry<String, Node> e : r.field("commands").fields()) {
      CommandType type = CommandType.fromWireName(e.getKey());
      Node c = e.getValue();
      if (type == null) {
        throw new ProfileFormatException(
            c.path, "unknown command type (expected a name like COM_QUERY)");
      }
      c.allowOnly("count", "latencyNanos");
      Histogram latency = c.has("latencyNanos") ? readHistogram(c.field("latencyNanos")) : null;
      p.addCommand(type, new CommandStats(c.field("count").nonNegative(), latency));
    }
    Set<String> digests = new HashSet<>();
    for (Node s : r.field("shapes").elements()) {
      ShapeStats shape = readShape(s);
      if (!digests.add(shape.digest())) {
        throw new ProfileFormatException(s.path + ".digest", "duplicate digest " + shape.digest());
      }
      p.addShape(shape);
    }
    for (Map.Entry<String, Node> e : r.field("probes").fields()) {
      Node n = e.getValue();
      ProbeKind kind = n.enumValue(ProbeKind.class, e.getKey());
      n.allowOnly("count", "causes");
      ProbeStats stats = new ProbeStats();
      stats.add(n.field("count").nonNegative());
      if (n.has("causes")) {
        for (Map.Entry<String, Node> cause : n.field("causes").fields()) {
          stats.addCause(cause.getKey(), cause.getValue().nonNegative());
        }
      }
      p.addProbe(kind, stats);
    }
    Node c = r.field("connections");
    c.allowOnly("connections", "distributions");
    p.connections().addConnections(c.field("connections").nonNegative());
    for (Map.Entry<String, Node> e : c.field("distributions").fields()) {
      ConnectionMetric metric = ConnectionMetric.fromJsonName(e.getKey());
      if (metric == null) {
        throw new ProfileFormatException(
            e.getValue().path,
            "unknown connection metric (expected one of "
                + jsonNames(ConnectionMetric.values())
                + ")");
      }
      Histogram h = readHistogram(e.getValue());
      if (h.precisionBits() != Histogram.COUNT_PRECISION) {
        throw new ProfileFormatException(
            e.getValue().path + ".precisionBits",
            "must be " + Histogram.COUNT_PRECISION + " for connection distributions");
      }
      p.connections().distribution(metric).add(h);
    }
    return p;
  }

  private static String jsonNames(ConnectionMetric[] metrics) {
    List<String> names = new ArrayList<>();
    for (ConnectionMetric m : metrics) {
      names.add(m.jsonName());
    }
    return names.toString();
  }

  private static Source readSource(Node s) throws ProfileFormatException {
    s.allowOnly(
        "collector",
        "collectorVersion",
        "instance",
        "driverName",
        "driverVersion",
        "serverVersion",
        "isolation",
        "jdbcUrl",
        "properties",
        "startMillis",
        "endMillis");
    Map<String, String> props = new TreeMap<>();
    if (s.has("properties")) {
      for (Map.Entry<String, Node> e : s.field("properties").fields()) {
        if (Source.isSecret(e.getKey())) {
          throw new ProfileFormatException(
              e.getValue().path, "a profile must never hold a password or secret");
        }
        props.put(e.getKey(), e.getValue().string());
      }
    }
    String collector = s.field("collector").string();
    if (!Source.AGENT.equals(collector) && !Source.PROXY.equals(collector)) {
      throw new ProfileFormatException(
          s.path + ".collector", "expected \"agent\" or \"proxy\", got \"" + collector + "\"");
    }
    long start = s.field("startMillis").nonNegative();
    long end = s.field("endMillis").nonNegative();
    if (end < start) {
      throw new ProfileFormatException(s.path + ".endMillis", "is before startMillis");
    }
    return new Source(
        collector,
        s.optionalString("collectorVersion"),
        s.optionalString("instance"),
        s.optionalString("driverName"),
        s.optionalString("driverVersion"),
        s.optionalString("serverVersion"),
        s.optionalString("isolation"),
        s.optionalString("jdbcUrl"),
        props,
        start,
        end);
  }

  private static ShapeStats readShape(Node s) throws ProfileFormatException {
    s.allowOnly(
        "digest",
        "digestText",
        "sample",
        "kind",
        "tablesRead",
        "tablesWritten",
        "probe",
        "minSqlLength",
        "maxSqlLength",
        "counts",
        "latencyNanos");
    Node kindNode = s.field("kind");
    StatementKind kind = kindNode.enumValue(StatementKind.class, kindNode.string());
    ProbeKind probe = null;
    if (s.has("probe")) {
      Node probeNode = s.field("probe");
      probe = probeNode.enumValue(ProbeKind.class, probeNode.string());
    }
    long min = s.field("minSqlLength").nonNegative();
    long max = s.field("maxSqlLength").nonNegative();
    if (max > Integer.MAX_VALUE || min > max) {
      throw new ProfileFormatException(s.path + ".maxSqlLength", "must be >= minSqlLength");
    }
    ShapeStats shape =
        new ShapeStats(
            s.field("digest").string(),
            s.field("digestText").string(),
            kind,
            s.field("tablesRead").strings(),
            s.field("tablesWritten").strings(),
            probe,
            (int) min,
            (int) max);
    shape.setSample(s.optionalString("sample"));
    for (Map.Entry<String, Node> e : s.field("counts").fields()) {
      Via via = Via.fromJsonName(e.getKey());
      if (via == null) {
        List<String> names = new ArrayList<>();
        for (Via v : Via.values()) {
          names.add(v.jsonName());
        }
        throw new ProfileFormatException(
            e.getValue().path, "unknown counter (expected one of " + names + ")");
      }
      shape.add(via, e.getValue().nonNegative());
    }
    if (s.has("latencyNanos")) {
      shape.setLatency(readHistogram(s.field("latencyNanos")));
    }
    return shape;
  }

  private static Histogram readHistogram(Node n) throws ProfileFormatException {
    n.allowOnly("precisionBits", "count", "sum", "min", "max", "buckets");
    long precision = n.field("precisionBits").nonNegative();
    if (precision < 1 || precision > 10) {
      throw new ProfileFormatException(n.path + ".precisionBits", "must be 1..10");
    }
    Histogram h = new Histogram((int) precision);
    long total = 0;
    for (Node b : n.field("buckets").elements()) {
      List<Node> pair = b.elements();
      if (pair.size() != 2) {
        throw new ProfileFormatException(b.path, "a bucket is [lowerBound, count]");
      }
      long lower = pair.get(0).nonNegative();
      long count = pair.get(1).nonNegative();
      try {
        h.addBucket(lower, count);
      } catch (IllegalArgumentException e) {
        throw new ProfileFormatException(pair.get(0).path, e.getMessage());
      }
      total += count;
    }
    long count = n.field("count").nonNegative();
    if (count != total) {
      throw new ProfileFormatException(
          n.path + ".count", "is " + count + " but the buckets hold " + total);
    }
    h.setSummary(
        count, n.field("sum").nonNegative(), n.field("min").nonNegative(), n.field("max").nonNegative());
    return h;
  }

  /** A JSON node with the path that leads to it, for error messages. */
  private static final class Node {
    final JsonNode json;
    final String path;

    Node(JsonNode json, String path) {
      this.json = json;
      this.path = path;
    }

    private String child(String name) {
      return path.isEmpty() ? name : path + "." + name;
    }

    void requireObject() throws ProfileFormatException {
      if (!json.isObject()) {
        throw new ProfileFormatException(path, "expected an object, got " + describe(json));
      }
    }

    boolean has(String name) throws ProfileFormatException {
      requireObject();
      return json.has(name) && !json.get(name).isNull();
    }

    Node field(String name) throws ProfileFormatException {
      requireObject();
      JsonNode value = json.get(name);
      if (value == null || value.isNull()) {
        throw new ProfileFormatException(child(name), "is missing");
      }
      return new Node(value, child(name));
    }

    void allowOnly(String... names) throws ProfileFormatException {
      requireObject();
      List<String> allowed = Arrays.asList(names);
      Iterator<String> it = json.fieldNames();
      while (it.hasNext()) {
        String name = it.next();
        if (!allowed.contains(name)) {
          throw new ProfileFormatException(
              child(name), "unknown field (allowed here: " + allowed + ")");
        }
      }
    }

    String string() throws ProfileFormatException {
      if (!json.isTextual()) {
        throw new ProfileFormatException(path, "expected a string, got " + describe(json));
      }
      return json.textValue();
    }

    String optionalString(String name) throws ProfileFormatException {
      return has(name) ? field(name).string() : null;
    }

    long nonNegative() throws ProfileFormatException {
      if (!json.isIntegralNumber() || !json.canConvertToLong() || json.longValue() < 0) {
        throw new ProfileFormatException(
            path, "expected a non-negative integer, got " + describe(json));
      }
      return json.longValue();
    }

    List<Node> elements() throws ProfileFormatException {
      if (!json.isArray()) {
        throw new ProfileFormatException(path, "expected an array, got " + describe(json));
      }
      List<Node> out = new ArrayList<>();
      for (int i = 0; i < json.size(); i++) {
        out.add(new Node(json.get(i), path + "[" + i + "]"));
      }
      return out;
    }

    List<String> strings() throws ProfileFormatException {
      List<String> out = new ArrayList<>();
      for (Node n : elements()) {
        out.add(n.string());
      }
      return out;
    }

    /** Fields of an object, in document order. */
    List<Map.Entry<String, Node>> fieldsList() throws ProfileFormatException {
      requireObject();
      List<Map.Entry<String, Node>> out = new ArrayList<>();
      Iterator<Map.Entry<String, JsonNode>> it = json.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        out.add(
            new java.util.AbstractMap.SimpleImmutableEntry<>(
                e.getKey(), new Node(e.getValue(), child(e.getKey()))));
      }
      return out;
    }

    Iterable<Map.Entry<String, Node>> fields() throws ProfileFormatException {
      return fieldsList();
    }

    <E extends Enum<E>> E enumValue(Class<E> type, String name) throws ProfileFormatException {
      try {
        return Enum.valueOf(type, name);
      } catch (IllegalArgumentException e) {
        throw new ProfileFormatException(
            path,
            "unknown "
                + type.getSimpleName()
                + " \""
                + name
                + "\" (expected one of "
                + Arrays.toString(type.getEnumConstants())
                + ")");
      }
    }

    private static String describe(JsonNode n) {
      String text = n.toString();
      if (text.length() > 40) {
        text = text.substring(0, 37) + "...";
      }
      return n.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + text;
    }
  }
}
