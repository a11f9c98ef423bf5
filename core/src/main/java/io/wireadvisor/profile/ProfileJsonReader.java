package io.wireadvisor.profile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wireadvisor.json.StrictNode;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads {@link TrafficProfile} JSON strictly and within {@link ProfileLimits}: the document is
 * streamed, each top-level entry (a source, a shape, the commands, ...) is built as a bounded tree
 * and read through {@link StrictNode}, so a wrong type, a negative count, an unknown enum name or
 * an unknown field fails with a {@link ProfileFormatException} naming the field, and a hand-edited
 * or truncated file is never half-read. Use it through {@link ProfileJson}.
 */
final class ProfileJsonReader {

  /** The top-level fields, each required, in the order the writer emits them. */
  private static final List<String> TOP_FIELDS =
      Arrays.asList(
          "schema", "schemaVersion", "sources", "commands", "shapes", "probes", "connections");
  /** Top-level fields a profile may have (written by newer collectors; older ones lack them). */
  private static final List<String> OPTIONAL_FIELDS =
      Arrays.asList("statementsByIsolation", "transactions", "borrows", "commandsByClient", "traffic", "cpu");
  /** Characters of a client key a reader accepts (a proxy writes at most 64 + 3 + 64). */
  static final int MAX_CLIENT_KEY_CHARS = 160;
  /** The keys of statementsByIsolation. */
  private static final List<String> ISOLATIONS =
      Arrays.asList("READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE", "default",
          "unknown");

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** {@code json} at {@code path}, read strictly: a wrong field is a {@link ProfileFormatException} naming it. */
  private static void readBorrows(StrictNode<ProfileFormatException> b, TrafficProfile p)
      throws ProfileFormatException {
    b.allowOnly("returned", "outsideTransaction", "outsideTransactionRuns");
    long returned = b.field("returned").nonNegative();
    long outside = b.field("outsideTransaction").nonNegative();
    if (outside > returned) {
      throw new ProfileFormatException(b.field("outsideTransaction").path(),
          "is more than borrows.returned (" + returned + ")");
    }
    p.addBorrows(returned, outside, b.field("outsideTransactionRuns").nonNegative());
  }

  private static StrictNode<ProfileFormatException> node(JsonNode json, String path) {
    return StrictNode.of(json, path, ProfileFormatException::new);
  }

  private ProfileJsonReader() {}

  /**
   * Reads a profile from a file; a file larger than {@code limits.maxBytes()} is refused before it
   * is read. The error names the field.
   */
  static TrafficProfile readFile(Path file, ProfileLimits limits)
      throws ProfileFormatException, IOException {
    try {
      long size = Files.size(file);
      if (size > limits.maxBytes()) {
        throw new ProfileFormatException(
            "",
            "the file is "
                + size
                + " bytes, above the limit of "
                + limits.maxBytes()
                + " bytes (raise it with --max-profile-size)");
      }
      try (InputStream in = Files.newInputStream(file)) {
        return read(in, limits);
      }
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no such profile file");
    }
  }

  /**
   * Reads a profile from UTF-8 JSON, streaming: each limit is checked before what it limits is
   * kept, so memory stays bounded by the limits whatever the input holds.
   */
  static TrafficProfile read(InputStream in, ProfileLimits limits)
      throws ProfileFormatException, IOException {
    JsonParser jp;
    try {
      jp = factory(limits).createParser(in);
    } catch (JsonProcessingException e) {
      throw notJson(e, limits, null);
    }
    try {
      return readStream(jp, limits);
    } catch (JsonProcessingException e) {
      throw notJson(e, limits, jp);
    } finally {
      jp.close();
    }
  }

  /** Reads a profile from JSON characters. */
  static TrafficProfile read(Reader in, ProfileLimits limits) throws ProfileFormatException {
    JsonParser jp = null;
    try {
      jp = factory(limits).createParser(in);
      return readStream(jp, limits);
    } catch (JsonProcessingException e) {
      throw notJson(e, limits, jp);
    } catch (IOException e) {
      throw new ProfileFormatException("", "cannot be read: " + e.getMessage(), e);
    } finally {
      if (jp != null) {
        try {
          jp.close();
        } catch (IOException ignored) {
          // Closing a reader-backed parser only releases buffers.
        }
      }
    }
  }

  private static JsonFactory factory(ProfileLimits limits) {
    return JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxStringLength(ProfileLimits.MAX_STRING_CHARS)
                .maxNameLength(ProfileLimits.MAX_NAME_CHARS)
                .maxNestingDepth(ProfileLimits.MAX_DEPTH + 2)
                .maxDocumentLength(limits.maxBytes())
                .build())
        .build();
  }

  private static ProfileFormatException notJson(
      JsonProcessingException e, ProfileLimits limits, JsonParser jp) {
    String path = jp == null ? "" : pathOf(jp.getParsingContext());
    if (e instanceof StreamConstraintsException) {
      String m = String.valueOf(e.getOriginalMessage());
      String problem;
      if (m.contains("Document length")) {
        problem = "the document is longer than the limit of " + limits.maxBytes()
            + " bytes (raise it with --max-profile-size)";
      } else if (m.contains("String value length")) {
        problem = "a string longer than " + ProfileLimits.MAX_STRING_CHARS + " characters";
      } else if (m.contains("Name length")) {
        problem = "a field name longer than " + ProfileLimits.MAX_NAME_CHARS + " characters";
      } else if (m.contains("nesting depth")) {
        problem = "nested deeper than " + ProfileLimits.MAX_DEPTH + " levels";
      } else {
        problem = m;
      }
      return new ProfileFormatException(path, problem, e);
    }
    String where =
        e.getLocation() == null
            ? ""
            : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    return new ProfileFormatException(path, "is not valid JSON" + where + ": " + e.getOriginalMessage(), e);
  }

  /** {@code shapes[3].counts} from Jackson's parsing context. */
  private static String pathOf(JsonStreamContext ctx) {
    List<String> parts = new ArrayList<>();
    for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.add("[" + Math.max(0, c.getCurrentIndex()) + "]");
      } else if (c.getCurrentName() != null) {
        parts.add("." + c.getCurrentName());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int i = parts.size() - 1; i >= 0; i--) {
      sb.append(parts.get(i));
    }
    return sb.length() > 0 && sb.charAt(0) == '.' ? sb.substring(1) : sb.toString();
  }

  private static TrafficProfile readStream(JsonParser jp, ProfileLimits limits)
      throws ProfileFormatException, IOException {
    JsonToken t = jp.nextToken();
    if (t == null) {
      throw new ProfileFormatException("", "is empty");
    }
    if (t != JsonToken.START_OBJECT) {
      throw new ProfileFormatException("", "expected an object, got " + describe(t));
    }
    TrafficProfile p = new TrafficProfile();
    Set<String> seen = new HashSet<>();
    Set<String> digests = new HashSet<>();
    while (jp.nextToken() == JsonToken.FIELD_NAME) {
      String name = jp.getCurrentName();
      jp.nextToken();
      if (!TOP_FIELDS.contains(name) && !OPTIONAL_FIELDS.contains(name)) {
        throw new ProfileFormatException(name, "unknown field (allowed here: " + TOP_FIELDS
            + " and optionally " + OPTIONAL_FIELDS + ")");
      }
      if (!seen.add(name)) {
        throw new ProfileFormatException(name, "appears twice");
      }
      if ((name.equals("sources") || name.equals("shapes"))
          && jp.currentToken() == JsonToken.START_ARRAY) {
        boolean shapes = name.equals("shapes");
        int max = shapes ? limits.maxShapes() : ProfileLimits.MAX_SOURCES;
        int i = 0;
        while (jp.nextToken() != JsonToken.END_ARRAY) {
          if (i >= max) {
            throw new ProfileFormatException(
                name,
                "holds more than "
                    + max
                    + (shapes
                        ? " shapes, the reader's limit (raise it with --max-profile-shapes)"
                        : " sources"));
          }
          String path = name + "[" + i + "]";
          StrictNode<ProfileFormatException> n = node(subtree(jp, path, 3, new int[] {ProfileLimits.MAX_VALUES_PER_ENTRY}), path);
          if (shapes) {
            addShape(p, n, digests);
          } else {
            p.addSource(readSource(n));
          }
          i++;
        }
        continue;
      }
      ObjectNode wrapper = NODES.objectNode();
      wrapper.set(name, subtree(jp, name, 2, new int[] {ProfileLimits.MAX_VALUES_PER_ENTRY}));
      StrictNode<ProfileFormatException> r = node(wrapper, "");
      switch (name) {
        case "schema":
          checkSchema(r);
          break;
        case "schemaVersion":
          checkVersion(r);
          break;
        case "commands":
          readCommands(r, p);
          break;
        case "probes":
          readProbes(r, p);
          break;
        case "connections":
          readConnections(r, p);
          break;
        case "commandsByClient":
          readCommandsByClient(r, p);
          break;
        case "traffic":
          {
            StrictNode<ProfileFormatException> span = r.field(name);
            span.allowOnly("firstStatementMillis", "lastStatementMillis");
            long first = span.field("firstStatementMillis").nonNegative();
            long last = span.field("lastStatementMillis").nonNegative();
            if (last < first) {
              throw new ProfileFormatException("traffic.lastStatementMillis", "is before firstStatementMillis");
            }
            p.observeTraffic(first, last);
          }
          break;
        case "cpu":
          {
            StrictNode<ProfileFormatException> cpu = r.field(name);
            cpu.allowOnly("windowNanos", "processNanos", "cores", "hostBusyNanos", "hostNanos", "hostCpuWaitNanos",
                "serverNanos", "serverProfile");
            long busy = cpu.has("hostBusyNanos") ? cpu.field("hostBusyNanos").nonNegative() : 0;
            long host = cpu.has("hostNanos") ? cpu.field("hostNanos").nonNegative() : 0;
            long cores = cpu.field("cores").nonNegative();
            if (busy > host) {
              throw new ProfileFormatException("cpu.hostBusyNanos", "is more than hostNanos");
            }
            if (cores > 65_536) {
              throw new ProfileFormatException("cpu.cores", "is more than 65536");
            }
            long window = cpu.field("windowNanos").nonNegative();
            long wait = cpu.has("hostCpuWaitNanos") ? cpu.field("hostCpuWaitNanos").nonNegative() : -1;
            if (wait > window) {
              throw new ProfileFormatException("cpu.hostCpuWaitNanos", "is more than windowNanos");
            }
            p.addCpu(new CpuUsage(window, cpu.field("processNanos").nonNegative(),
                (int) cores, busy, host).withServerNanos(cpu.has("serverNanos") ? cpu.field("serverNanos").nonNegative() : -1)
                .withHostCpuWaitNanos(wait)
                .withServerProfile(cpu.has("serverProfile") ? serverProfile(cpu.field("serverProfile")) : null));
          }
          break;
        case "statementsByIsolation":
          for (Map.Entry<String, StrictNode<ProfileFormatException>> e : r.field(name).fields()) {
            if (!ISOLATIONS.contains(e.getKey())) {
              throw new ProfileFormatException(name + "." + e.getKey(),
                  "is not an isolation level (allowed: " + ISOLATIONS + ")");
            }
            p.addStatementsUnder(e.getKey(), e.getValue().nonNegative());
          }
          break;
        case "transactions":
          p.addTransactions(r.field(name).nonNegative());
          break;
        case "borrows":
          readBorrows(r.field(name), p);
          break;
        default: // sources or shapes that are not arrays
          r.field(name).elements();
      }
    }
    for (String f : TOP_FIELDS) {
      if (!seen.contains(f)) {
        throw new ProfileFormatException(f, "is missing");
      }
    }
    return p;
  }

  /**
   * The value at the parser's current token as a tree, refusing it as soon as it nests deeper than
   * {@link ProfileLimits#MAX_DEPTH}, has more than {@link ProfileLimits#MAX_ELEMENTS} elements or
   * fields in one container, or more than {@code budget[0]} values in all.
   */
  private static JsonNode subtree(JsonParser jp, String path, int depth, int[] budget)
      throws ProfileFormatException, IOException {
    if (--budget[0] < 0) {
      throw new ProfileFormatException(
          path, "too many values (a profile entry holds at most "
              + ProfileLimits.MAX_VALUES_PER_ENTRY + ")");
    }
    JsonToken t = jp.currentToken();
    if ((t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) && depth > ProfileLimits.MAX_DEPTH) {
      throw new ProfileFormatException(path, "nested deeper than " + ProfileLimits.MAX_DEPTH + " levels");
    }
    switch (t) {
      case START_OBJECT:
        {
          ObjectNode o = NODES.objectNode();
          int n = 0;
          while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String name = jp.getCurrentName();
            String childPath = path.isEmpty() ? name : path + "." + name;
            if (++n > ProfileLimits.MAX_ELEMENTS) {
              throw new ProfileFormatException(
                  path, "has more than " + ProfileLimits.MAX_ELEMENTS + " fields");
            }
            jp.nextToken();
            JsonNode v = subtree(jp, childPath, depth + 1, budget);
            if (o.has(name)) {
              throw new ProfileFormatException(childPath, "appears twice");
            }
            o.set(name, v);
          }
          return o;
        }
      case START_ARRAY:
        {
          ArrayNode a = NODES.arrayNode();
          int i = 0;
          while (jp.nextToken() != JsonToken.END_ARRAY) {
            if (i >= ProfileLimits.MAX_ELEMENTS) {
              throw new ProfileFormatException(
                  path, "has more than " + ProfileLimits.MAX_ELEMENTS + " elements");
            }
            a.add(subtree(jp, path + "[" + i + "]", depth + 1, budget));
            i++;
          }
          return a;
        }
      case VALUE_STRING:
        return NODES.textNode(jp.getText());
      case VALUE_NUMBER_INT:
        switch (jp.getNumberType()) {
          case INT:
            return NODES.numberNode(jp.getIntValue());
          case LONG:
            return NODES.numberNode(jp.getLongValue());
          default:
            return NODES.numberNode(jp.getBigIntegerValue());
        }
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(jp.getDoubleValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new ProfileFormatException(path, "unexpected " + t);
    }
  }

  private static String describe(JsonToken t) {
    switch (t) {
      case START_ARRAY:
        return "array";
      case VALUE_STRING:
        return "string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "boolean";
      default:
        return String.valueOf(t).toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static void readCommandsByClient(StrictNode<ProfileFormatException> r, TrafficProfile p)
      throws ProfileFormatException {
    List<Map.Entry<String, StrictNode<ProfileFormatException>>> clients = r.field("commandsByClient").fields();
    if (clients.size() > ShapeStats.MAX_CLIENTS) {
      throw new ProfileFormatException("commandsByClient",
          clients.size() + " clients; a profile keeps at most " + ShapeStats.MAX_CLIENTS);
    }
    for (Map.Entry<String, StrictNode<ProfileFormatException>> e : clients) {
      checkClientKey(e.getKey(), e.getValue().path());
      for (Map.Entry<String, StrictNode<ProfileFormatException>> c : e.getValue().fields()) {
        CommandType type = CommandType.fromWireName(c.getKey());
        if (type == null) {
          throw new ProfileFormatException(
              c.getValue().path(), "unknown command type (expected a name like COM_QUERY)");
        }
        p.addClientCommands(e.getKey(), type, c.getValue().nonNegative());
      }
    }
  }

  private static void checkClientKey(String key, String path) throws ProfileFormatException {
    if (key.isEmpty() || key.length() > MAX_CLIENT_KEY_CHARS) {
      throw new ProfileFormatException(
          path, "a client key has 1 to " + MAX_CLIENT_KEY_CHARS + " characters");
    }
  }

  private static void checkSchema(StrictNode<ProfileFormatException> r) throws ProfileFormatException {
    String schema = r.field("schema").string();
    if (!TrafficProfile.SCHEMA.equals(schema)) {
      throw new ProfileFormatException(
          "schema", "expected \"" + TrafficProfile.SCHEMA + "\", got \"" + schema + "\"");
    }
  }

  private static void checkVersion(StrictNode<ProfileFormatException> r) throws ProfileFormatException {
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
  }

  private static void addShape(TrafficProfile p, StrictNode<ProfileFormatException> s, Set<String> digests)
      throws ProfileFormatException {
    ShapeStats shape = readShape(s);
    if (!digests.add(shape.digest())) {
      throw new ProfileFormatException(s.path() + ".digest", "duplicate digest " + shape.digest());
    }
    p.addShape(shape);
  }

  private static void readCommands(StrictNode<ProfileFormatException> r, TrafficProfile p) throws ProfileFormatException {
    for (Map.Entry<String, StrictNode<ProfileFormatException>> e : r.field("commands").fields()) {
      CommandType type = CommandType.fromWireName(e.getKey());
      StrictNode<ProfileFormatException> c = e.getValue();
      if (type == null) {
        throw new ProfileFormatException(
            c.path(), "unknown command type (expected a name like COM_QUERY)");
      }
      c.allowOnly("count", "latencyNanos");
      Histogram latency =
          c.has("latencyNanos")
              ? readHistogram(c.field("latencyNanos"), Histogram.LATENCY_PRECISION, "latency")
              : null;
      p.addCommand(type, new CommandStats(c.field("count").nonNegative(), latency));
    }
  }

  private static void readProbes(StrictNode<ProfileFormatException> r, TrafficProfile p) throws ProfileFormatException {
    for (Map.Entry<String, StrictNode<ProfileFormatException>> e : r.field("probes").fields()) {
      StrictNode<ProfileFormatException> n = e.getValue();
      ProbeKind kind = n.enumValue(ProbeKind.class, e.getKey());
      n.allowOnly("count", "causes");
      ProbeStats stats = new ProbeStats();
      stats.add(n.field("count").nonNegative());
      if (n.has("causes")) {
        for (Map.Entry<String, StrictNode<ProfileFormatException>> cause : n.field("causes").fields()) {
          stats.addCause(cause.getKey(), cause.getValue().nonNegative());
        }
      }
      p.addProbe(kind, stats);
    }
  }

  private static void readConnections(StrictNode<ProfileFormatException> r, TrafficProfile p) throws ProfileFormatException {
    StrictNode<ProfileFormatException> c = r.field("connections");
    c.allowOnly("connections", "distributions");
    p.connections().addConnections(c.field("connections").nonNegative());
    for (Map.Entry<String, StrictNode<ProfileFormatException>> e : c.field("distributions").fields()) {
      ConnectionMetric metric = ConnectionMetric.fromJsonName(e.getKey());
      if (metric == null) {
        throw new ProfileFormatException(
            e.getValue().path(),
            "unknown connection metric (expected one of "
                + jsonNames(ConnectionMetric.values())
                + ")");
      }
      Histogram h = readHistogram(e.getValue(), Histogram.COUNT_PRECISION, "connection distribution");
      p.connections().distribution(metric).add(h);
    }
  }

  private static String jsonNames(ConnectionMetric[] metrics) {
    List<String> names = new ArrayList<>();
    for (ConnectionMetric m : metrics) {
      names.add(m.jsonName());
    }
    return names.toString();
  }

  private static Source readSource(StrictNode<ProfileFormatException> s) throws ProfileFormatException {
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
      for (Map.Entry<String, StrictNode<ProfileFormatException>> e : s.field("properties").fields()) {
        if (Source.isSecret(e.getKey())) {
          throw new ProfileFormatException(
              e.getValue().path(), "a profile must never hold a password or secret");
        }
        props.put(e.getKey(), e.getValue().string());
      }
    }
    String collector = s.field("collector").string();
    if (!Source.AGENT.equals(collector) && !Source.PROXY.equals(collector)) {
      throw new ProfileFormatException(
          s.path() + ".collector", "expected \"agent\" or \"proxy\", got \"" + collector + "\"");
    }
    long start = s.field("startMillis").nonNegative();
    long end = s.field("endMillis").nonNegative();
    if (end < start) {
      throw new ProfileFormatException(s.path() + ".endMillis", "is before startMillis");
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

  private static ShapeStats readShape(StrictNode<ProfileFormatException> s) throws ProfileFormatException {
    s.allowOnly(
        "digest",
        "digestText",
        "sample",
        "kind",
        "tablesRead",
        "tablesWritten",
        "probe",
        "lockingRead",
        "minSqlLength",
        "maxSqlLength",
        "counts",
        "clients",
        "latencyNanos",
        "errors",
        "rows",
        "patterns");
    StrictNode<ProfileFormatException> kindNode = s.field("kind");
    StatementKind kind = kindNode.enumValue(StatementKind.class, kindNode.string());
    ProbeKind probe = null;
    if (s.has("probe")) {
      StrictNode<ProfileFormatException> probeNode = s.field("probe");
      probe = probeNode.enumValue(ProbeKind.class, probeNode.string());
    }
    long min = s.field("minSqlLength").nonNegative();
    long max = s.field("maxSqlLength").nonNegative();
    if (max > Integer.MAX_VALUE || min > max) {
      throw new ProfileFormatException(s.path() + ".maxSqlLength", "must be >= minSqlLength");
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
    if (s.has("lockingRead") && s.field("lockingRead").bool()) {
      shape.markLockingRead();
    }
    for (Map.Entry<String, StrictNode<ProfileFormatException>> e : s.field("counts").fields()) {
      Via via = Via.fromJsonName(e.getKey());
      if (via == null) {
        List<String> names = new ArrayList<>();
        for (Via v : Via.values()) {
          names.add(v.jsonName());
        }
        throw new ProfileFormatException(
            e.getValue().path(), "unknown counter (expected one of " + names + ")");
      }
      shape.add(via, e.getValue().nonNegative());
    }
    if (s.has("clients")) {
      List<Map.Entry<String, StrictNode<ProfileFormatException>>> clients = s.field("clients").fields();
      if (clients.size() > ShapeStats.MAX_CLIENTS) {
        throw new ProfileFormatException(s.path() + ".clients",
            clients.size() + " clients; a shape keeps at most " + ShapeStats.MAX_CLIENTS);
      }
      for (Map.Entry<String, StrictNode<ProfileFormatException>> e : clients) {
        checkClientKey(e.getKey(), e.getValue().path());
        for (Map.Entry<String, StrictNode<ProfileFormatException>> c : e.getValue().fields()) {
          Via via = Via.fromJsonName(c.getKey());
          if (via == null) {
            throw new ProfileFormatException(c.getValue().path(), "unknown counter");
          }
          shape.addClient(e.getKey(), via, c.getValue().nonNegative());
        }
      }
    }
    if (s.has("latencyNanos")) {
      shape.setLatency(
          readHistogram(s.field("latencyNanos"), Histogram.LATENCY_PRECISION, "latency"));
    }
    if (s.has("errors")) {
      List<StrictNode<ProfileFormatException>> errors = s.field("errors").elements();
      if (errors.size() > ShapeStats.MAX_ERROR_CODES) {
        throw new ProfileFormatException(s.path() + ".errors",
            errors.size() + " error codes; a shape keeps at most " + ShapeStats.MAX_ERROR_CODES);
      }
      for (StrictNode<ProfileFormatException> e : errors) {
        e.allowOnly("code", "sqlState", "count", "timed", "nanos");
        long code = e.field("code").nonNegative();
        if (code > 65535) {
          throw new ProfileFormatException(e.path() + ".code", "an error code is at most 65535");
        }
        String state = e.optionalString("sqlState");
        if (state != null && ServerError.validSqlState(state) == null) {
          throw new ProfileFormatException(e.path() + ".sqlState", "expected five letters or digits");
        }
        long count = e.field("count").nonNegative();
        long timed = e.field("timed").nonNegative();
        if (timed > count) {
          throw new ProfileFormatException(e.path() + ".timed", "must be <= count");
        }
        shape.addError((int) code, state, count, timed, e.field("nanos").nonNegative());
      }
    }
    if (s.has("rows")) {
      StrictNode<ProfileFormatException> r = s.field("rows");
      r.allowOnly("executions", "rows");
      shape.addRows(r.field("executions").nonNegative(), r.field("rows").nonNegative());
    }
    if (s.has("patterns")) {
      List<StrictNode<ProfileFormatException>> patterns = s.field("patterns").elements();
      if (patterns.size() > ShapeStats.MAX_PATTERNS) {
        throw new ProfileFormatException(s.path() + ".patterns",
            patterns.size() + " patterns; a shape keeps at most " + ShapeStats.MAX_PATTERNS);
      }
      for (StrictNode<ProfileFormatException> e : patterns) {
        e.allowOnly("kind", "partner", "transactions", "executions", "rows", "timed", "nanos");
        String kindName = e.field("kind").string();
        PatternStats.Kind pk = PatternStats.Kind.fromJsonName(kindName);
        if (pk == null) {
          throw new ProfileFormatException(e.path() + ".kind",
              "unknown pattern (expected n+1, loaded-twice or insert-then-update)");
        }
        String partner = e.field("partner").string();
        if (partner.length() > 128) {
          throw new ProfileFormatException(e.path() + ".partner", "a digest is at most 128 chars");
        }
        long executions = e.field("executions").nonNegative();
        long timed = e.field("timed").nonNegative();
        if (timed > executions) {
          throw new ProfileFormatException(e.path() + ".timed", "must be <= executions");
        }
        shape.addPattern(pk, partner, e.field("transactions").nonNegative(), executions,
            e.field("rows").nonNegative(), timed, e.field("nanos").nonNegative());
      }
    }
    return shape;
  }

  /**
   * Reads a histogram the collectors write at {@code precision}; the precision and the number of
   * buckets are checked before the histogram (whose size grows as 2^precision) is allocated.
   */
  private static Histogram readHistogram(StrictNode<ProfileFormatException> n, int precision, String what)
      throws ProfileFormatException {
    n.allowOnly("precisionBits", "count", "sum", "min", "max", "buckets");
    long bits = n.field("precisionBits").nonNegative();
    if (bits != precision) {
      throw new ProfileFormatException(
          n.path() + ".precisionBits",
          bits + " is not allowed: " + what + " histograms have precision " + precision);
    }
    List<StrictNode<ProfileFormatException>> buckets = n.field("buckets").elements();
    int maxBuckets = Histogram.bucketCount(precision);
    if (buckets.size() > maxBuckets) {
      throw new ProfileFormatException(
          n.path() + ".buckets",
          buckets.size() + " buckets, more than the " + maxBuckets + " a precision-" + precision
              + " histogram has");
    }
    Histogram h = new Histogram(precision);
    long total = 0;
    long previous = -1;
    for (StrictNode<ProfileFormatException> b : buckets) {
      List<StrictNode<ProfileFormatException>> pair = b.elements();
      if (pair.size() != 2) {
        throw new ProfileFormatException(b.path(), "a bucket is [lowerBound, count]");
      }
      long lower = pair.get(0).nonNegative();
      long count = pair.get(1).nonNegative();
      if (lower <= previous) {
        throw new ProfileFormatException(pair.get(0).path(), "buckets must be in ascending order");
      }
      previous = lower;
      try {
        h.addBucket(lower, count);
      } catch (IllegalArgumentException e) {
        throw new ProfileFormatException(pair.get(0).path(), e.getMessage());
      }
      total += count;
      if (total < 0) {
        throw new ProfileFormatException(pair.get(1).path(), "the bucket counts overflow");
      }
    }
    long count = n.field("count").nonNegative();
    if (count != total) {
      throw new ProfileFormatException(
          n.path() + ".count", "is " + count + " but the buckets hold " + total);
    }
    h.setSummary(
        count, n.field("sum").nonNegative(), n.field("min").nonNegative(), n.field("max").nonNegative());
    return h;
  }

  private static ServerCpuProfile serverProfile(StrictNode<ProfileFormatException> sp) throws ProfileFormatException {
    sp.allowOnly("sampledNanos", "connectionNanos", "parseNanos", "compileNanos", "digestNanos",
        "planCacheLookupNanos", "slices");
    long slices = sp.field("slices").nonNegative();
    if (slices > Integer.MAX_VALUE) {
      throw new ProfileFormatException("cpu.serverProfile.slices", "is more than " + Integer.MAX_VALUE);
    }
    try {
      return new ServerCpuProfile(sp.field("sampledNanos").nonNegative(), sp.field("connectionNanos").nonNegative(),
          sp.field("parseNanos").nonNegative(), sp.field("compileNanos").nonNegative(),
          sp.field("digestNanos").nonNegative(), sp.field("planCacheLookupNanos").nonNegative(), (int) slices);
    } catch (IllegalArgumentException e) {
      throw new ProfileFormatException("cpu.serverProfile",
          "has statement parts beyond the connections' CPU, or that beyond the CPU sampled");
    }
  }
}
