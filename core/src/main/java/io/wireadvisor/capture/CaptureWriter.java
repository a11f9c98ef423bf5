package io.wireadvisor.capture;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.wireadvisor.files.SafeFiles;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.Source;
import io.wireadvisor.sql.SqlClassifier;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Writes a capture (format: {@link CaptureFormat}) to a new 0600 file, bounded in bytes and in
 * time: the first event past either limit ends the capture, and the last line says why.
 * Thread-safe: connections write their events as they happen.
 *
 * <p>Never written, whatever the masking: the text and values of statements that may hold
 * credentials (account management, {@code IDENTIFIED BY}, {@code SET PASSWORD}, ...), neither as a
 * text statement nor as a prepared one's parameters. With {@code maskValues}, every value is
 * reduced to its type and length, and text statements with string literals outside parameters are
 * written without their SQL.
 */
public final class CaptureWriter implements Closeable {
  /** Values longer than this are kept as type and length only (replay generates one that long). */
  public static final int MAX_VALUE_CHARS = 64 * 1024;
  /** Prepared statements remembered as credential-bearing, per capture (16 bytes each). */
  static final int MAX_SENSITIVE_STATEMENTS = 65_536;

  private static final JsonFactory JSON = new JsonFactory();

  private final OutputStream out;
  private final long maxBytes;
  private final long maxMicros;
  private final boolean maskValues;
  private final Set<Long> sensitiveStatements = new HashSet<>();
  private long bytes;
  private long events;
  private long dropped;
  private String endReason;
  private boolean closed;
  /** The first driver a connection of the capture named (the header's, when it has one). */
  private String driverName;
  private String driverVersion;
  /** Distinct drivers seen (name and version), at most {@link #MAX_DRIVERS}. */
  private final Set<String> drivers = new HashSet<>();
  /** Bytes kept for the last line (with two driver fields of 64 characters, escaped). */
  static final int LAST_LINE_RESERVE = 1024;
  /** Distinct drivers a capture tells apart; more count as this many. */
  static final int MAX_DRIVERS = 8;
  /** Longest driver name or version kept. */
  static final int MAX_DRIVER_CHARS = 64;

  private CaptureWriter(OutputStream out, long maxBytes, long maxMicros, boolean maskValues) {
    // One write(2) per 64 KiB, not per event: the writer's lock is held by the proxy's event loops.
    // What is buffered when the process dies is lost; the file still reads (no last line).
    this.out = new java.io.BufferedOutputStream(out, 64 * 1024);
    this.maxBytes = maxBytes;
    this.maxMicros = maxMicros;
    this.maskValues = maskValues;
  }

  /**
   * Creates {@code file} (it must not exist) and writes the header.
   *
   * @param maxBytes the file's size limit, header and last line included
   * @param maxSeconds the window's length limit
   */
  public static CaptureWriter create(Path file, CaptureHeader header, long maxBytes, long maxSeconds)
      throws IOException {
    if (maxBytes < 4096) {
      throw new IllegalArgumentException("a capture needs at least 4096 bytes, was " + maxBytes);
    }
    if (maxSeconds <= 0) {
      throw new IllegalArgumentException("a capture's time limit must be positive, was " + maxSeconds);
    }
    return open(SafeFiles.createNew(file), header, maxBytes, maxSeconds);
  }

  /** As {@link #create}, on a stream the caller owns (closed by {@link #close()}). */
  public static CaptureWriter open(OutputStream out, CaptureHeader header, long maxBytes, long maxSeconds)
      throws IOException {
    CaptureWriter w = new CaptureWriter(out, maxBytes, maxSeconds * 1_000_000L, header.valuesMasked());
    if (header.driverName() != null || header.driverVersion() != null) {
      w.driver(header.driverName(), header.driverVersion());
    }
    byte[] line = w.headerLine(header);
    w.out.write(line);
    w.bytes += line.length;
    return w;
  }

  /**
   * Writes one event; false once the capture has ended (a limit was reached or it was closed),
   * when the event is counted as dropped.
   */
  public synchronized boolean write(CaptureEvent event) throws IOException {
    if (endReason != null || closed) {
      dropped++;
      return false;
    }
    if (event.micros() > maxMicros) {
      end("time limit", 1);
      dropped++;
      return false;
    }
    byte[] line = eventLine(guard(event));
    // Room for the last line is kept so that the file always says how it ended.
    if (bytes + line.length + LAST_LINE_RESERVE > maxBytes) {
      end("size limit", 1);
      dropped++;
      return false;
    }
    out.write(line);
    bytes += line.length;
    events++;
    return true;
  }

  /**
   * A connection of the capture runs this client driver (its name and version, either may be
   * null): the first one named is the capture's, written in its last line with the number of
   * distinct drivers (at most {@link #MAX_DRIVERS}).
   */
  public synchronized void driver(String name, String version) {
    name = cut(name);
    version = cut(version);
    if (name == null && version == null) {
      return;
    }
    if (driverName == null && driverVersion == null) {
      driverName = name;
      driverVersion = version;
    }
    if (drivers.size() < MAX_DRIVERS) {
      drivers.add(name + '\u0000' + version);
    }
  }

  private static String cut(String s) {
    return s == null || s.length() <= MAX_DRIVER_CHARS ? s : s.substring(0, MAX_DRIVER_CHARS);
  }

  /** True once a limit ended the capture. */
  public synchronized boolean ended() {
    return endReason != null;
  }

  public synchronized long events() {
    return events;
  }

  public synchronized long dropped() {
    return dropped;
  }

  public synchronized long bytes() {
    return bytes;
  }

  /** Ends the capture ({@code stopped} unless a limit ended it) and closes the file. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    if (endReason == null) {
      end("stopped", 0);
    }
    closed = true;
    out.close();
  }

  /** Writes the last line; {@code dropping}: the event that reached a limit, dropped with it. */
  private void end(String reason, int dropping) throws IOException {
    endReason = reason;
    ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(buf, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeStringField("e", CaptureFormat.END);
      g.writeNumberField("events", events);
      g.writeNumberField("dropped", dropped + dropping);
      g.writeStringField("reason", reason);
      if (driverName != null) {
        g.writeStringField("driverName", driverName);
      }
      if (driverVersion != null) {
        g.writeStringField("driverVersion", driverVersion);
      }
      if (!drivers.isEmpty()) {
        g.writeNumberField("drivers", drivers.size());
      }
      g.writeEndObject();
    }
    buf.write('\n');
    out.write(buf.toByteArray());
    out.flush();
    bytes += buf.size();
  }

  /** What may be written of {@code e}: credentials never, values masked when asked. */
  private CaptureEvent guard(CaptureEvent e) {
    long key = e.connection() << 32 | (e.statementId() & 0xffffffffL);
    switch (e.kind()) {
      case PREPARE:
        if (e.sql() != null && Sensitive.mayHoldCredentials(e.sql())) {
          if (sensitiveStatements.size() < MAX_SENSITIVE_STATEMENTS) {
            sensitiveStatements.add(key);
          }
          return withSql(e, null);
        }
        break;
      case EXECUTE:
        if (sensitiveStatements.contains(key) || sensitiveStatements.size() >= MAX_SENSITIVE_STATEMENTS) {
          return e.masked();
        }
        break;
      case CLOSE:
        sensitiveStatements.remove(key);
        break;
      case QUERY:
        if (e.sql() != null && Sensitive.mayHoldCredentials(e.sql())) {
          return withSql(e, null).masked();
        }
        if (maskValues && e.sql() != null && Sensitive.hasLiteral(e.sql())) {
          return withSql(e, null).masked();
        }
        break;
      default:
        break;
    }
    if (maskValues) {
      if (e.kind() == CaptureEvent.Kind.PREPARE && e.sql() != null && Sensitive.hasLiteral(e.sql())) {
        return withSql(e, null).masked(); // a literal in a prepared statement's text is a value too
      }
      return e.masked();
    }
    return limitValues(e);
  }

  private static CaptureEvent withSql(CaptureEvent e, String sql) {
    CaptureEvent.Builder b = e.toBuilder();
    b.sql(sql);
    return b.build();
  }

  private static CaptureEvent limitValues(CaptureEvent e) {
    for (CaptureValue v : e.values()) {
      if (v.text() != null && v.text().length() > MAX_VALUE_CHARS) {
        CaptureEvent.Builder b = e.toBuilder();
        java.util.List<CaptureValue> kept = new java.util.ArrayList<>();
        for (CaptureValue x : e.values()) {
          kept.add(x.text() != null && x.text().length() > MAX_VALUE_CHARS ? x.mask() : x);
        }
        b.replaceValues(kept);
        return b.build();
      }
    }
    return e;
  }

  /** A quote outside a parameter: a literal masking cannot reduce to a type. */
  private byte[] headerLine(CaptureHeader h) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
    try (JsonGenerator g = JSON.createGenerator(buf, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeStringField("schema", CaptureFormat.SCHEMA);
      g.writeNumberField("version", CaptureFormat.VERSION);
      g.writeStringField("notice", CaptureHeader.NOTICE);
      g.writeBooleanField("valuesMasked", h.valuesMasked());
      g.writeStringField("collector", h.collector());
      g.writeStringField("collectorVersion", h.collectorVersion());
      if (h.server() != null) {
        g.writeStringField("server", h.server());
      }
      if (h.upstream() != null) {
        g.writeStringField("upstream", h.upstream());
      }
      if (h.driverVersion() != null) {
        g.writeStringField("driverVersion", h.driverVersion());
      }
      g.writeNumberField("startedAtMillis", h.startedAtMillis());
      g.writeNumberField("maxBytes", maxBytes);
      g.writeNumberField("maxSeconds", maxMicros / 1_000_000L);
      g.writeObjectFieldStart("jdbcProperties");
      for (Map.Entry<String, String> p : h.jdbcProperties().entrySet()) {
        if (!Source.isSecret(p.getKey())) {
          g.writeStringField(p.getKey(), p.getValue());
        }
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    buf.write('\n');
    return buf.toByteArray();
  }

  private static byte[] eventLine(CaptureEvent e) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(buf, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeNumberField("c", e.connection());
      g.writeNumberField("t", e.micros());
      g.writeStringField("e", e.kind().jsonName());
      if (e.sql() != null) {
        g.writeStringField("sql", e.sql());
      }
      if (e.statementId() != 0) {
        g.writeNumberField("id", e.statementId());
      }
      if (!e.values().isEmpty()) {
        g.writeArrayFieldStart("v");
        for (CaptureValue v : e.values()) {
          if (v.type() == CaptureValue.Type.NULL) {
            g.writeNull();
          } else if (v.isMasked()) {
            g.writeStartObject();
            g.writeStringField("masked", v.type().jsonName());
            g.writeNumberField("len", v.length());
            g.writeEndObject();
          } else {
            g.writeStartObject();
            g.writeStringField(v.type().jsonName(), v.text());
            g.writeEndObject();
          }
        }
        g.writeEndArray();
      }
      if (e.valuesUnknown()) {
        g.writeBooleanField("vu", true);
      }
      if (!e.ok()) {
        g.writeNumberField("err", e.errorCode());
      }
      if (e.latencyMicros() >= 0) {
        g.writeNumberField("lat", e.latencyMicros());
      }
      g.writeEndObject();
    }
    buf.write('\n');
    return buf.toByteArray();
  }
}
