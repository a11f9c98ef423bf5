package io.wireadvisor.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The capture file: JSON Lines, UTF-8. Line 1 is the header, then one line per event in the
 * order they were sent, then a last line saying how the capture ended (missing when the writer
 * died; the file then still reads, as {@linkplain Capture#complete() incomplete}).
 *
 * <pre>
 * {"schema":"wire-advisor/capture","version":1,"notice":"…","valuesMasked":false,
 *  "collector":"proxy","collectorVersion":"0.1.0","server":"8.0.11-TiDB-v8.5.0",
 *  "startedAtMillis":1764000000000,"maxBytes":67108864,"maxSeconds":300,"jdbcProperties":{}}
 * {"c":1,"t":0,"e":"connect","sql":"bank"}
 * {"c":1,"t":812,"e":"query","sql":"SELECT bal FROM acct WHERE id = ?","v":[{"number":"42"}],"lat":310}
 * {"c":1,"t":1400,"e":"prepare","id":7,"sql":"UPDATE acct SET bal = ? WHERE id = ?","lat":95}
 * {"c":1,"t":1530,"e":"execute","id":7,"v":[{"number":"10.50"},{"masked":"number","len":2}],"lat":420}
 * {"c":1,"t":1990,"e":"execute","id":7,"v":[null,{"number":"3"}],"err":1048,"lat":80}
 * {"c":1,"t":2100,"e":"close","id":7}
 * {"c":1,"t":2200,"e":"quit"}
 * {"e":"end","events":7,"dropped":0,"reason":"stopped","driverName":"MySQL Connector/J","driverVersion":"9.5.0","drivers":1}
 * </pre>
 *
 * Fields: {@code c} connection, {@code t} microseconds since the capture started, {@code e} kind
 * ({@link CaptureEvent.Kind}), {@code sql}, {@code id} statement id, {@code v} values (null, or an
 * object with one field named by the type, or {@code masked} + {@code len}), {@code err} the
 * server's error code (absent when OK), {@code lat} latency in microseconds.
 */
public final class CaptureFormat {
  public static final String SCHEMA = "wire-advisor/capture";
  public static final int VERSION = 1;
  static final String END = "end";

  /** Limits for reading a capture; a file beyond them is refused with the limit named. */
  public static final class Limits {
    final int maxLineBytes;
    final long maxEvents;
    final long maxBytes;
    final int maxValues;

    /**
     * @param maxLineBytes the longest line (one statement and its values)
     * @param maxEvents events in the file
     * @param maxBytes total bytes of the file (all events are held for replay)
     * @param maxValues values of one event
     */
    public Limits(int maxLineBytes, long maxEvents, long maxBytes, int maxValues) {
      this.maxLineBytes = maxLineBytes;
      this.maxEvents = maxEvents;
      this.maxBytes = maxBytes;
      this.maxValues = maxValues;
    }

    /** 20 MiB lines (a 16 MiB statement), 10 million events, 1 GiB, 65,535 values. */
    public static Limits defaults() {
      return new Limits(20 << 20, 10_000_000L, 1L << 30, 65_535);
    }
  }

  /** A capture read whole. */
  public static final class Capture {
    private final CaptureHeader header;
    private final List<CaptureEvent> events;
    private final boolean complete;
    private final String endReason;
    private final long dropped;
    private final long drivers;

    Capture(CaptureHeader header, List<CaptureEvent> events, boolean complete, String endReason, long dropped) {
      this(header, events, complete, endReason, dropped, 0);
    }

    Capture(CaptureHeader header, List<CaptureEvent> events, boolean complete, String endReason, long dropped,
        long drivers) {
      this.drivers = drivers;
      this.header = header;
      this.events = Collections.unmodifiableList(events);
      this.complete = complete;
      this.endReason = endReason;
      this.dropped = dropped;
    }

    public CaptureHeader header() {
      return header;
    }

    /** Every event, in file order. */
    public List<CaptureEvent> events() {
      return events;
    }

    /** The events of each connection, in order, connections in order of their first event. */
    public Map<Long, List<CaptureEvent>> byConnection() {
      Map<Long, List<CaptureEvent>> m = new LinkedHashMap<>();
      for (CaptureEvent e : events) {
        List<CaptureEvent> list = m.get(e.connection());
        if (list == null) {
          list = new ArrayList<>();
          m.put(e.connection(), list);
        }
        list.add(e);
      }
      return m;
    }

    /** False when the file has no last line (the writer stopped without ending it). */
    public boolean complete() {
      return complete;
    }

    /** {@code stopped}, {@code size limit}, {@code time limit}; null when incomplete. */
    public String endReason() {
      return endReason;
    }

    /**
     * Distinct client drivers (name and version) the capture's connections named, as its last line
     * counts them (at most 8); 0 when unknown.
     */
    public long drivers() {
      return drivers;
    }

    /** Events the writer could not write (after a limit). */
    public long dropped() {
      return dropped;
    }
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private CaptureFormat() {}

  /** Reads a capture file with the default limits. */
  public static Capture read(Path file) throws IOException {
    return read(file, Limits.defaults());
  }

  public static Capture read(Path file, Limits limits) throws IOException {
    long size = Files.size(file);
    if (size > limits.maxBytes) {
      throw new CaptureFormatException(file + ": " + size + " bytes, more than the limit of " + limits.maxBytes);
    }
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file.toString(), limits);
    }
  }

  /** Reads a capture from {@code in}; {@code name} is used in error messages. */
  public static Capture read(InputStream raw, String name, Limits limits) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 64 * 1024);
    long lineNo = 0;
    long total = 0;
    byte[] line;
    CaptureHeader header = null;
    List<CaptureEvent> events = new ArrayList<>();
    boolean complete = false;
    String endReason = null;
    long dropped = 0;
    long drivers = 0;
    boolean[] terminated = new boolean[1];
    while ((line = readLine(in, limits.maxLineBytes, name, lineNo + 1, terminated)) != null) {
      lineNo++;
      total += line.length + 1;
      if (total > limits.maxBytes) {
        throw new CaptureFormatException(name + ": more than the limit of " + limits.maxBytes + " bytes");
      }
      if (line.length == 0) {
        continue;
      }
      String where = name + " line " + lineNo;
      if (complete) {
        throw new CaptureFormatException(where + ": a line after the capture's last line");
      }
      JsonNode node;
      try {
        node = MAPPER.readTree(line);
      } catch (JsonProcessingException e) {
        if (header != null && !terminated[0]) {
          // The last line, cut short (the writer died, or the disk filled mid-line): what came
          // before stands; the capture reads as incomplete (found in review: a full disk made
          // the whole capture unreadable).
          break;
        }
        throw new CaptureFormatException(where + ": not JSON (" + e.getOriginalMessage() + ")");
      }
      if (!(node instanceof ObjectNode)) {
        throw new CaptureFormatException(where + ": not a JSON object");
      }
      if (header == null) {
        header = header(node, where);
        continue;
      }
      if (END.equals(text(node, "e", where, true))) {
        complete = true;
        endReason = text(node, "reason", where, false);
        dropped = node.has("dropped") ? integer(node, "dropped", where) : 0;
        String driverName = text(node, "driverName", where, false);
        String driverVersion = text(node, "driverVersion", where, false);
        drivers = node.has("drivers") ? integer(node, "drivers", where) : 0;
        if (header.driverName() == null && header.driverVersion() == null
            && (driverName != null || driverVersion != null)) {
          header = header.withDriver(driverName, driverVersion); // learned after the header was written
        }
        continue;
      }
      if (events.size() >= limits.maxEvents) {
        throw new CaptureFormatException(where + ": more than the limit of " + limits.maxEvents + " events");
      }
      events.add(event(node, where, limits));
    }
    if (header == null) {
      throw new CaptureFormatException(name + ": empty, no header line");
    }
    return new Capture(header, events, complete, endReason, dropped, drivers);
  }

  private static CaptureHeader header(JsonNode n, String where) throws CaptureFormatException {
    String schema = text(n, "schema", where, true);
    if (!SCHEMA.equals(schema)) {
      throw new CaptureFormatException(where + ": field 'schema' must be \"" + SCHEMA + "\", was \"" + schema + "\"");
    }
    long version = integer(n, "version", where);
    if (version != VERSION) {
      throw new CaptureFormatException(where + ": field 'version' is " + version + "; this build reads version " + VERSION);
    }
    Map<String, String> props = new LinkedHashMap<>();
    JsonNode p = n.get("jdbcProperties");
    if (p != null && !p.isNull()) {
      if (!p.isObject()) {
        throw new CaptureFormatException(where + ": field 'jdbcProperties' must be an object");
      }
      Iterator<Map.Entry<String, JsonNode>> it = p.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isTextual()) {
          throw new CaptureFormatException(where + ": field 'jdbcProperties." + e.getKey() + "' must be a string");
        }
        props.put(e.getKey(), e.getValue().asText());
      }
    }
    return new CaptureHeader(
        text(n, "collector", where, true),
        text(n, "collectorVersion", where, false),
        text(n, "server", where, false),
        n.has("startedAtMillis") ? integer(n, "startedAtMillis", where) : 0,
        n.has("valuesMasked") && bool(n, "valuesMasked", where),
        props,
        text(n, "upstream", where, false),
        text(n, "driverVersion", where, false));
  }

  private static CaptureEvent event(JsonNode n, String where, Limits limits) throws CaptureFormatException {
    String kindName = text(n, "e", where, true);
    CaptureEvent.Kind kind = CaptureEvent.Kind.fromJson(kindName);
    if (kind == null) {
      throw new CaptureFormatException(where + ": field 'e' is \"" + kindName + "\", not an event kind");
    }
    long connection = integer(n, "c", where);
    long micros = integer(n, "t", where);
    if (micros < 0) {
      throw new CaptureFormatException(where + ": field 't' must not be negative, was " + micros);
    }
    CaptureEvent.Builder b = CaptureEvent.builder(connection, micros, kind);
    b.sql(text(n, "sql", where, false));
    if (n.has("id")) {
      long id = integer(n, "id", where);
      if (id < Integer.MIN_VALUE || id > 0xffffffffL) {
        throw new CaptureFormatException(where + ": field 'id' is not a 4-byte statement id: " + id);
      }
      b.statementId((int) id);
    }
    JsonNode v = n.get("v");
    if (v != null) {
      if (!v.isArray()) {
        throw new CaptureFormatException(where + ": field 'v' must be an array");
      }
      if (v.size() > limits.maxValues) {
        throw new CaptureFormatException(where + ": field 'v' has " + v.size() + " values, more than the limit of " + limits.maxValues);
      }
      for (int i = 0; i < v.size(); i++) {
        b.value(value(v.get(i), where + ": field 'v[" + i + "]'"));
      }
    }
    if (n.has("vu")) {
      JsonNode vu = n.get("vu");
      if (!vu.isBoolean()) {
        throw new CaptureFormatException(where + ": field 'vu' must be true or false");
      }
      if (vu.asBoolean()) {
        b.valuesUnknown();
      }
    }
    if (n.has("err")) {
      b.error((int) integer(n, "err", where));
    }
    if (n.has("lat")) {
      b.latencyMicros(integer(n, "lat", where));
    }
    return b.build();
  }

  private static CaptureValue value(JsonNode v, String where) throws CaptureFormatException {
    if (v == null || v.isNull()) {
      return CaptureValue.NULL;
    }
    if (!v.isObject() || v.size() == 0) {
      throw new CaptureFormatException(where + " must be null or an object like {\"number\":\"42\"}");
    }
    if (v.has("masked")) {
      CaptureValue.Type t = CaptureValue.Type.fromJson(v.get("masked").asText());
      if (t == null || !v.has("len") || !v.get("len").canConvertToInt()) {
        throw new CaptureFormatException(where + " is masked but lacks a known type in 'masked' or an integer 'len'");
      }
      return CaptureValue.masked(t, v.get("len").asInt());
    }
    Map.Entry<String, JsonNode> only = v.fields().next();
    CaptureValue.Type t = CaptureValue.Type.fromJson(only.getKey());
    if (t == null || v.size() != 1 || !only.getValue().isTextual()) {
      throw new CaptureFormatException(where + " must have exactly one field naming its type"
          + " (number, string, bytes, date, time, datetime) with a string value, had '" + only.getKey() + "'");
    }
    return CaptureValue.of(t, only.getValue().asText());
  }

  private static String text(JsonNode n, String field, String where, boolean required) throws CaptureFormatException {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new CaptureFormatException(where + ": field '" + field + "' is missing");
      }
      return null;
    }
    if (!v.isTextual()) {
      throw new CaptureFormatException(where + ": field '" + field + "' must be a string, was " + v.getNodeType());
    }
    return v.asText();
  }

  private static long integer(JsonNode n, String field, String where) throws CaptureFormatException {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
      throw new CaptureFormatException(where + ": field '" + field + "' must be an integer, was "
          + (v == null ? "missing" : v.toString()));
    }
    return v.asLong();
  }

  private static boolean bool(JsonNode n, String field, String where) throws CaptureFormatException {
    JsonNode v = n.get(field);
    if (v == null || !v.isBoolean()) {
      throw new CaptureFormatException(where + ": field '" + field + "' must be true or false");
    }
    return v.asBoolean();
  }

  /** The next line without its '\n', or null at the end; refuses a line longer than {@code max}. */
  private static byte[] readLine(InputStream in, int max, String name, long lineNo) throws IOException {
    return readLine(in, max, name, lineNo, new boolean[1]);
  }

  /** A line without its newline; {@code terminated[0]} says whether it had one (else EOF cut it). */
  private static byte[] readLine(InputStream in, int max, String name, long lineNo, boolean[] terminated)
      throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
    int c;
    boolean any = false;
    terminated[0] = false;
    while ((c = in.read()) >= 0) {
      any = true;
      if (c == '\n') {
        terminated[0] = true;
        return buf.toByteArray();
      }
      if (buf.size() >= max) {
        throw new CaptureFormatException(name + " line " + lineNo + ": longer than the limit of " + max + " bytes");
      }
      buf.write(c);
    }
    return any ? buf.toByteArray() : null;
  }

}
