package io.wireadvisor.capture;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.sql.Parameterizer;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.ExecutePacket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;

/**
 * One connection's part in a capture: turns its commands into {@link CaptureEvent}s while a
 * capture runs, and keeps (while capture is enabled at all) the text and parameter types of each
 * statement it prepared, so that a capture started later can still replay the executions of
 * statements prepared before it (a pool prepares once and executes for hours).
 *
 * <p>Events are written in the order the commands were sent, whenever their replies come: a
 * command without a reply (COM_STMT_CLOSE, COM_QUIT) waits behind the ones sent before it, and an
 * event is written only into the capture it began in (one begun before a stop is dropped, never
 * written into the next capture with another capture's clock and numbers).
 *
 * <p>Bounded in bytes: the kept texts per connection and over all connections (a statement past the
 * bound is captured by id only, its executions with unknown values); the values held by events
 * still waiting for their reply per connection ({@link #MAX_PENDING_BYTES}; past it an event keeps
 * no values). Statements that may carry credentials ({@link Sensitive}) keep no text and their
 * executions no values. Used by one thread at a time (the proxy's event loop of the connection; the
 * agent's thread of the connection).
 */
public final class CaptureSession {
  /** What is kept of one prepared statement. */
  private static final class Statement {
    final String sql;
    final int params;
    final boolean sensitive;
    final long cost;
    int[] types;
    boolean[] longData;

    Statement(String sql, int params, boolean sensitive, long cost) {
      this.sql = sql;
      this.params = params;
      this.sensitive = sensitive;
      this.cost = cost;
    }
  }

  /** A command's event from its sending to its reply. */
  public static final class Pending {
    final CaptureRun run;
    final CaptureEvent.Builder event;
    final long bytes;
    /** For INIT_DB: the schema the connection uses once the server said OK. */
    String schema;
    boolean done;
    /** The mode the command's text was read in (a prepare's text is judged again at PREPARE_OK). */
    Escaping escaping = Escaping.UNKNOWN;

    Pending(CaptureRun run, CaptureEvent.Builder event, long bytes) {
      this.run = run;
      this.event = event;
      this.bytes = bytes;
    }
  }

  /** Accounted bytes of one kept statement beyond its text (map node, key, object, arrays). */
  static final long STATEMENT_OVERHEAD_BYTES = 160;
  /** The statement id argument of a command that carries none. */
  public static final int NO_STATEMENT = Integer.MIN_VALUE;
  /** Values held by events waiting for their replies, per connection (pipelining clients). */
  public static final long MAX_PENDING_BYTES = 1L << 20;
  /** Accounted bytes of one value beyond its text. */
  static final long VALUE_OVERHEAD_BYTES = 64;

  /** Reads past values without keeping them. */
  private static final ExecutePacket.Sink IGNORE =
      new ExecutePacket.Sink() {
        @Override
        public void nullValue(int index) {}

        @Override
        public void longData(int index, int type) {}

        @Override
        public void value(int index, int type, byte[] b, int off, int len) {}
      };

  private final CaptureControl capture;
  private final HashMap<Integer, Statement> statements = new HashMap<>();
  private final ArrayDeque<Pending> order = new ArrayDeque<>();
  private long bytes;
  private long pendingBytes;
  private CaptureRun numberedIn;
  private long number;
  private boolean quit;
  /** The connection's default schema as far as seen (login, COM_INIT_DB), or null. */
  private String schema;

  /** The client driver the connection named at login (name, version), or null. */
  private String driverName;
  private String driverVersion;

  /** Longest schema name kept (MySQL's limit is 64 characters). */
  static final int MAX_SCHEMA_CHARS = 256;

  public CaptureSession(CaptureControl capture) {
    this.capture = capture;
  }

  /**
   * A command left the client: its pending event, or null when no capture runs (or the command is
   * not one a capture holds). Finished by {@link #complete}; a command without a reply is finished
   * here.
   *
   * @param sql the statement text of a COM_QUERY or COM_STMT_PREPARE, null when not whole
   * @param length the command's whole length ({@code headLength} of it is at hand)
   */
  public Pending begin(
      CommandType type, byte[] head, int headLength, int length, String sql, long startNanos,
      boolean queryAttributes) {
    return begin(type, head, headLength, length, sql, startNanos, queryAttributes, Escaping.UNKNOWN);
  }

  /**
   * As {@link #begin(CommandType, byte[], int, int, String, long, boolean)}, with the text read as
   * the server reads it in the connection's {@code escaping} (see {@link Escaping}).
   */
  public Pending begin(
      CommandType type, byte[] head, int headLength, int length, String sql, long startNanos,
      boolean queryAttributes, Escaping escaping) {
    int id = type.carriesStatementId() && headLength >= 5 ? Bytes.int32(head, 1) : NO_STATEMENT;
    return begin(type, head, headLength, length, sql, id, startNanos, queryAttributes, escaping);
  }

  /**
   * As {@link #begin(CommandType, byte[], int, int, String, long, boolean, Escaping)}, with the
   * statement id the command carries already read ({@link #NO_STATEMENT} when it has none, or
   * the packet is too short for one): {@code CommandRecord} decodes a command once.
   */
  public Pending begin(
      CommandType type, byte[] head, int headLength, int length, String sql, int statementId,
      long startNanos, boolean queryAttributes, Escaping escaping) {
    Pending p = begin0(type, head, headLength, length, sql, statementId, startNanos,
        queryAttributes, escaping == null ? Escaping.UNKNOWN : escaping);
    if (p != null && escaping != null) {
      p.escaping = escaping;
    }
    return p;
  }

  private Pending begin0(
      CommandType type, byte[] head, int headLength, int length, String sql, int id,
      long startNanos, boolean queryAttributes, Escaping escaping) {
    boolean hasId = id != NO_STATEMENT;
    if (type == CommandType.STMT_SEND_LONG_DATA && hasId && headLength >= 7) {
      Statement s = statements.get(id);
      int index = Bytes.uint16(head, 5);
      if (s != null && index < s.params) {
        if (s.longData == null) {
          s.longData = new boolean[s.params];
        }
        s.longData[index] = true;
      }
    }
    if (type == CommandType.STMT_CLOSE && hasId) {
      forget(id);
    }
    CaptureRun a = capture.active();
    if (a == null) {
      if (type == CommandType.STMT_EXECUTE && hasId) {
        // Connector/J sends parameter types only when they change: follow them between captures.
        Statement s = statements.get(id);
        if (s != null) {
          readValues(s, head, headLength, length, queryAttributes, IGNORE);
        }
      }
      return null;
    }
    long connection = numberIn(a, startNanos);
    long micros = a.micros(startNanos);
    switch (type) {
      case QUERY:
        {
          CaptureEvent.Builder b = CaptureEvent.builder(connection, micros, CaptureEvent.Kind.QUERY);
          if (sql == null || Sensitive.mayHoldCredentials(sql, escaping)) {
            return pend(a, b.valuesUnknown(), 0); // replay skips a statement without SQL
          }
          Parameterizer.Parameterized p = Parameterizer.parameterize(sql, escaping);
          if (p.template() == null) {
            return pend(a, b.valuesUnknown(), 0); // not readable in an unknown mode
          }
          b.sql(p.template());
          long cost = 0;
          for (Parameterizer.Literal l : p.values()) {
            cost += VALUE_OVERHEAD_BYTES + 2L * l.value().length();
          }
          if (pendingBytes + cost > MAX_PENDING_BYTES) {
            return pend(a, b.sql(null).valuesUnknown(), 0);
          }
          for (Parameterizer.Literal l : p.values()) {
            b.value(CaptureValue.of(l.isNumber() ? CaptureValue.Type.NUMBER : CaptureValue.Type.STRING, l.value()));
          }
          return pend(a, b, cost);
        }
      case STMT_PREPARE:
        return pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.PREPARE)
            .sql(sql == null || Sensitive.mayHoldCredentials(sql, escaping) ? null : sql), 0);
      case STMT_EXECUTE:
        {
          if (!hasId) {
            return null;
          }
          CaptureEvent.Builder b =
              CaptureEvent.builder(connection, micros, CaptureEvent.Kind.EXECUTE).statementId(id);
          Statement s = statements.get(id);
          if (s == null) {
            // Prepared before the collector saw it, or past the text bound: replay says so.
            return pend(a, b, 0);
          }
          if (s.sensitive) {
            readValues(s, head, headLength, length, queryAttributes, IGNORE);
            return pend(a, b.valuesUnknown(), 0);
          }
          BinaryValues values = new BinaryValues();
          if (!readValues(s, head, headLength, length, queryAttributes, values)) {
            return pend(a, b.valuesUnknown(), 0);
          }
          long cost = 0;
          for (CaptureValue v : values.values()) {
            cost += VALUE_OVERHEAD_BYTES + (v.text() == null ? 0 : 2L * v.text().length());
          }
          if (pendingBytes + cost > MAX_PENDING_BYTES) {
            return pend(a, b.valuesUnknown(), 0);
          }
          return pend(a, b.values(values.values()), cost);
        }
      case STMT_RESET:
        return !hasId ? null
            : pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.RESET)
                .statementId(id), 0);
      case STMT_CLOSE:
        if (hasId) {
          finished(pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.CLOSE)
              .statementId(id), 0));
        }
        return null;
      case INIT_DB:
        {
          String name = headLength == length ? bounded(new String(head, 1, headLength - 1, StandardCharsets.UTF_8)) : null;
          Pending p = pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.INIT_DB).sql(name), 0);
          p.schema = name;
          return p;
        }
      case SET_OPTION:
        {
          // COM_SET_OPTION: how the server reads the COM_QUERYs after it (multi-statements).
          int option = headLength >= 3 ? Bytes.uint16(head, 1) : -1;
          String what = option == 0 ? CaptureEvent.MULTI_STATEMENTS_ON
              : option == 1 ? CaptureEvent.MULTI_STATEMENTS_OFF : "option " + option;
          return pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.SET_OPTION).sql(what), 0);
        }
      case RESET_CONNECTION:
        return pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.RESET_CONNECTION), 0);
      case CHANGE_USER:
        // That it happened, nothing of the packet: it carries the user and the auth response.
        return pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.CHANGE_USER), 0);
      case QUIT:
        quit = true;
        finished(pend(a, CaptureEvent.builder(connection, micros, CaptureEvent.Kind.QUIT), 0));
        return null;
      default:
        return null;
    }
  }

  /**
   * Reads an execution's values into {@code sink} and follows the statement's types; false when
   * they cannot be read (the packet is longer than what is at hand, or names types never seen, or
   * another number of parameters than the statement has): the types are then forgotten, as the
   * next execution without types could not be read right either.
   */
  private static boolean readValues(Statement s, byte[] head, int headLength, int length,
      boolean queryAttributes, ExecutePacket.Sink sink) {
    boolean[] longData = s.longData;
    s.longData = null;
    if (headLength != length) {
      s.types = null;
      return false;
    }
    int[] types = ExecutePacket.read(head, headLength, s.params, s.types, longData, queryAttributes, sink);
    if (types == null || types.length != s.params) {
      // A client-sized array is never kept: only one of the statement's own size (found in review:
      // a parameter_count of 20,000 per execution held 236 MB).
      s.types = null;
      return false;
    }
    s.types = types;
    return true;
  }

  /**
   * The server answered PREPARE_OK: the connection holds statement {@code id} for {@code sql}
   * with {@code params} parameters (kept within the byte bounds).
   */
  public void prepared(Pending pending, String sql, int id, int params) {
    if (pending != null) {
      pending.event.statementId(id);
    }
    forget(id);
    if (sql == null || params < 0) {
      return;
    }
    boolean sensitive =
        Sensitive.mayHoldCredentials(sql, pending == null ? Escaping.UNKNOWN : pending.escaping);
    String kept = sensitive ? null : sql;
    long cost = STATEMENT_OVERHEAD_BYTES + (kept == null ? 0 : 2L * kept.length()) + 8L * params;
    if (bytes + cost <= capture.textBytesPerConnection()
        && capture.textBudget().reserve(cost, capture.textBytesTotal())) {
      statements.put(id, new Statement(kept, params, sensitive, cost));
      bytes += cost;
    }
  }

  /** The command's reply ended: its event is written once every earlier command's is. */
  public void complete(Pending pending, int errorCode, long latencyNanos) {
    if (pending == null) {
      return;
    }
    if (errorCode >= 0) {
      pending.event.error(errorCode);
    } else if (pending.schema != null) {
      schema = pending.schema;
    }
    pending.event.latencyMicros(latencyNanos / 1_000);
    finished(pending);
  }

  /** The server dropped every prepared statement (COM_RESET_CONNECTION, COM_CHANGE_USER). */
  public void forgetStatements() {
    capture.textBudget().release(bytes);
    bytes = 0;
    statements.clear();
  }

  /**
   * The connection closed: events still waiting are written without a reply (as far as their
   * capture still runs), a capture that saw the connection gets its end; the texts' bytes are
   * given back.
   */
  public void close() {
    for (Pending p : order) {
      p.done = true;
    }
    drain();
    CaptureRun a = capture.active();
    if (a != null && a == numberedIn && !quit) {
      a.write(CaptureEvent.builder(number, a.micros(System.nanoTime()), CaptureEvent.Kind.QUIT).build());
    }
    forgetStatements();
  }

  /**
   * The connection's default schema as the login named it (null: none or unknown); a later
   * COM_INIT_DB that succeeds replaces it. A capture's {@code connect} event carries it.
   */
  public void schema(String name) {
    this.schema = name == null || name.isEmpty() ? null : bounded(name);
  }

  private static String bounded(String name) {
    return name.length() > MAX_SCHEMA_CHARS ? name.substring(0, MAX_SCHEMA_CHARS) : name;
  }

  /**
   * The client driver this connection runs, as it named itself (the proxy: the login's {@code
   * _client_name} and {@code _client_version}; the agent: Connector/J's version): a capture it takes
   * part in names the first one ({@link CaptureWriter#driver}). Values are cut to 64 characters.
   */
  public void driver(String name, String version) {
    this.driverName = name == null || name.length() <= 64 ? name : name.substring(0, 64);
    this.driverVersion = version == null || version.length() <= 64 ? version : version.substring(0, 64);
    CaptureRun a = capture.active();
    if (a != null && numberedIn == a) {
      a.writer().driver(driverName, driverVersion); // described after it joined the capture
    }
  }

  /** Whether {@link #driver} named a driver for this connection. */
  public boolean namesDriver() {
    return driverName != null || driverVersion != null;
  }

  /** Accounted bytes this connection's kept texts hold. */
  public long bytes() {
    return bytes;
  }

  /** Accounted bytes of values held by events waiting for their replies. */
  public long pendingBytes() {
    return pendingBytes;
  }

  private Pending pend(CaptureRun a, CaptureEvent.Builder b, long cost) {
    Pending p = new Pending(a, b, cost);
    pendingBytes += cost;
    order.addLast(p);
    return p;
  }

  private void finished(Pending p) {
    p.done = true;
    drain();
  }

  /** Writes the finished events at the head of the queue, in sending order. */
  private void drain() {
    while (!order.isEmpty() && order.peekFirst().done) {
      Pending p = order.pollFirst();
      pendingBytes -= p.bytes;
      // Only into the capture it began in, and only while that one runs.
      if (p.run == capture.active()) {
        p.run.write(p.event.build());
      }
    }
  }

  private void forget(int id) {
    Statement s = statements.remove(id);
    if (s != null) {
      bytes -= s.cost;
      capture.textBudget().release(s.cost);
    }
  }

  /** This connection's number in {@code a}, announced by a {@code connect} event the first time. */
  private long numberIn(CaptureRun a, long nanos) {
    if (numberedIn != a) {
      numberedIn = a;
      number = a.connections.incrementAndGet();
      quit = false;
      a.write(CaptureEvent.builder(number, a.micros(nanos), CaptureEvent.Kind.CONNECT).sql(schema).build());
      a.writer().driver(driverName, driverVersion);
      // Statements prepared before the capture: replayable from their kept texts.
      List<Integer> ids = new ArrayList<>(statements.keySet());
      Collections.sort(ids);
      for (int id : ids) {
        Statement s = statements.get(id);
        a.write(CaptureEvent.builder(number, a.micros(nanos), CaptureEvent.Kind.PREPARE)
            .statementId(id).sql(s.sql).build());
      }
    }
    return number;
  }
}
