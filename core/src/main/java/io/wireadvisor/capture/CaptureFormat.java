package io.wireadvisor.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wireadvisor.json.StrictNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
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
        header = header(node(node, where));
        continue;
      }
      StrictNode<CaptureFormatException> n = node(node, where);
      if (END.equals(n.field("e").string())) {
        complete = true;
        endReason = n.optionalString("reason");
        dropped = n.has("dropped") ? n.field("dropped").integer() : 0;
        String driverName = n.optionalString("driverName");
        String driverVersion = n.optionalString("driverVersion");
        drivers = n.has("drivers") ? n.field("drivers").integer() : 0;
        if (header.driverName() == null && header.driverVersion() == null
            && (driverName != null || driverVersion != null)) {
          header = header.withDriver(driverName, driverVersion); // learned after the header was written
        }
        continue;
      }
      if (events.size() >= limits.maxEvents) {
        throw new CaptureFormatException(where + ": more than the limit of " + limits.maxEvents + " events");
      }
      events.add(event(n, limits));
    }
    if (header == null) {
      throw new CaptureFormatException(name + ": empty, no header line");
    }
    return new Capture(header, events, complete, endReason, dropped, drivers);
  }

  /**
   * {@code json} read strictly: a wrong field fails as {@code where: field 'name': problem}
   * ({@code cap.jsonl line 2: field 'v[0]': …}).
   */
  private static StrictNode<CaptureFormatException> node(JsonNode json, String where) {
    return StrictNode.of(json, "",
        (path, problem) -> new CaptureFormatException(where + ": field '" + path + "': " + problem));
  }

  private static CaptureHeader header(StrictNode<CaptureFormatException> n) throws CaptureFormatException {
    StrictNode<CaptureFormatException> schema = n.field("schema");
    if (!SCHEMA.equals(schema.string())) {
      throw schema.fail("must be \"" + SCHEMA + "\", was \"" + schema.string() + "\"");
    }
    StrictNode<CaptureFormatException> version = n.field("version");
    if (version.integer() != VERSION) {
      throw version.fail("is " + version.integer() + "; this build reads version " + VERSION);
    }
    Map<String, String> props = new LinkedHashMap<>();
    StrictNode<CaptureFormatException> p = n.optional("jdbcProperties");
    if (p != null) {
      for (Map.Entry<String, StrictNode<CaptureFormatException>> e : p.fields()) {
        props.put(e.getKey(), e.getValue().string());
      }
    }
    return CaptureHeader.builder(n.field("collector").string(), n.optionalString("collectorVersion"))
        .server(n.optionalString("server"))
        .startedAtMillis(n.has("startedAtMillis") ? n.field("startedAtMillis").integer() : 0)
        .valuesMasked(n.has("valuesMasked") && n.field("valuesMasked").bool())
        .jdbcProperties(props)
        .upstream(n.optionalString("upstream"))
        .driver(null, n.optionalString("driverVersion"))
        .build();
  }

  private static CaptureEvent event(StrictNode<CaptureFormatException> n, Limits limits)
      throws CaptureFormatException {
    StrictNode<CaptureFormatException> e = n.field("e");
    CaptureEvent.Kind kind = CaptureEvent.Kind.fromJson(e.string());
    if (kind == null) {
      throw e.fail("is \"" + e.string() + "\", not an event kind");
    }
    long connection = n.field("c").integer();
    StrictNode<CaptureFormatException> t = n.field("t");
    if (t.integer() < 0) {
      throw t.fail("must not be negative, was " + t.integer());
    }
    CaptureEvent.Builder b = CaptureEvent.builder(connection, t.integer(), kind);
    b.sql(n.optionalString("sql"));
    StrictNode<CaptureFormatException> id = n.optional("id");
    if (id != null) {
      if (id.integer() < Integer.MIN_VALUE || id.integer() > 0xffffffffL) {
        throw id.fail("is not a 4-byte statement id: " + id.integer());
      }
      b.statementId((int) id.integer());
    }
    StrictNode<CaptureFormatException> v = n.optional("v");
    if (v != null) {
      List<StrictNode<CaptureFormatException>> values = v.elements();
      if (values.size() > limits.maxValues) {
        throw v.fail("has " + values.size() + " values, more than the limit of " + limits.maxValues);
      }
      for (StrictNode<CaptureFormatException> value : values) {
        b.value(value(value));
      }
    }
    if (n.has("vu") && n.field("vu").bool()) {
      b.valuesUnknown();
    }
    if (n.has("err")) {
      b.error((int) n.field("err").integer());
    }
    if (n.has("lat")) {
      b.latencyMicros(n.field("lat").integer());
    }
    return b.build();
  }

  private static CaptureValue value(StrictNode<CaptureFormatException> n) throws CaptureFormatException {
    JsonNode v = n.json();
    if (v.isNull()) {
      return CaptureValue.NULL;
    }
    if (!v.isObject() || v.size() == 0) {
      throw n.fail("must be null or an object like {\"number\":\"42\"}");
    }
    if (v.has("masked")) {
      CaptureValue.Type t = CaptureValue.Type.fromJson(v.get("masked").asText());
      if (t == null || !v.has("len") || !v.get("len").canConvertToInt()) {
        throw n.fail("is masked but lacks a known type in 'masked' or an integer 'len'");
      }
      return CaptureValue.masked(t, v.get("len").asInt());
    }
    Map.Entry<String, JsonNode> only = v.fields().next();
    CaptureValue.Type t = CaptureValue.Type.fromJson(only.getKey());
    if (t == null || v.size() != 1 || !only.getValue().isTextual()) {
      throw n.fail("must have exactly one field naming its type"
          + " (number, string, bytes, date, time, datetime) with a string value, had '" + only.getKey() + "'");
    }
    return CaptureValue.of(t, only.getValue().asText());
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
