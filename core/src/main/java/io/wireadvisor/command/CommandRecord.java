package io.wireadvisor.command;

import io.wireadvisor.capture.CaptureSession;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.profile.ServerError;
import io.wireadvisor.profile.Via;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.QueryAttributes;
import java.nio.charset.StandardCharsets;

/**
 * One wire command from its request to its reply, the seam both collectors go through: {@link
 * #begin} decodes the request once (type, where the SQL starts after COM_QUERY's query
 * attributes, the statement id, the shape, the {@link Via} it counts as) and feeds the capture;
 * {@link #complete} records the reply into the connection's {@link WireSession} and finishes the
 * capture's event. The agent calls the two back to back (it sees the request and the first reply
 * together); the proxy calls {@code begin} when the request passes and {@code complete} when the
 * reply ends, holding one record per command in flight (pipelining). A command without a reply
 * (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA, COM_QUIT) is completed at once, untimed.
 *
 * <p>Pooled: a collector keeps its records per connection (the agent one, the proxy one per
 * pipelined command, at most {@code MAX_PIPELINED}) and reuses them; {@link #begin} and {@link
 * #complete} allocate nothing beyond the shape lookup and the capture's own event. A record holds
 * a few words and references, {@link #ACCOUNTED_BYTES} at most (CommandRecordTest measures it);
 * the text it keeps (a COM_STMT_PREPARE's, only while a capture runs) is the capture's bound.
 * Used by one thread at a time, as its connection is.
 */
public final class CommandRecord {
  /**
   * Loads {@link CaptureSession} with this class: C2 does not inline a method whose signature
   * names a class not loaded yet, and without a capture nothing else loads it, so {@link #begin}
   * (and the agent's hook around it) would stay a call in every collector that never captures,
   * depending on whether C2 compiled the hook before something else loaded the class (found in
   * CommandHookBenchmark's {@code -XX:+PrintInlining}: "unloaded signature classes").
   */
  private static final Class<?> CAPTURE_SESSION = CaptureSession.class;

  /** Accounted bytes of one record (object header, fields), not counting a prepare's kept text. */
  public static final long ACCOUNTED_BYTES = 96;
  /** {@link #statementId()} of a command that carries none. */
  public static final int NO_STATEMENT = CaptureSession.NO_STATEMENT;

  /** How a collector finds the shape of a statement text: its own caches, the same shape. */
  public interface Shapes {
    /**
     * The shape of the text at {@code b[from, to)} (UTF-8) of a {@code type} command, classified
     * as the server reads it in {@code escaping}.
     */
    ShapeHandle shape(CommandType type, byte[] b, int from, int to, Escaping escaping);
  }

  private CommandType type;
  private Via via;
  private ShapeHandle shape;
  private int sqlOffset = -1;
  private int statementId = NO_STATEMENT;
  private long startNanos;
  private Escaping escaping = Escaping.UNKNOWN;
  /** A COM_STMT_PREPARE's text, kept for a capture until PREPARE_OK names its id; else null. */
  private String sql;
  private CaptureSession.Pending event;

  /**
   * Whether a {@code type} command of {@code headLength} bytes at hand lacks the statement id it
   * must carry (bytes 1-4): a malformed command, which {@link #begin} does not record.
   */
  public static boolean lacksStatementId(CommandType type, int headLength) {
    return type.carriesStatementId() && headLength < 5;
  }

  /** What a command of {@code type} counts as on its shape, or null when it has none. */
  public static Via via(CommandType type) {
    switch (type) {
      case QUERY:
        return Via.TEXT_EXECUTES;
      case STMT_PREPARE:
        return Via.PREPARES;
      case STMT_EXECUTE:
        return Via.EXECUTES;
      case STMT_FETCH:
        return Via.FETCHES;
      case STMT_RESET:
        return Via.RESETS;
      case STMT_SEND_LONG_DATA:
        return Via.SEND_LONG_DATA;
      case STMT_CLOSE:
        return Via.CLOSES;
      default:
        return null;
    }
  }

  /**
   * A command left the client: decodes it once and tells the session what sending it changes
   * (a {@code SET sql_mode} or {@code SET TRANSACTION} text, a new session state, a closed
   * statement), and the capture (null when off) its event.
   *
   * @param type the command's type ({@code CommandType.fromCode(head[0])})
   * @param head the command's payload as far as at hand; {@code head[0]} is the command byte
   * @param headLength bytes of it at hand
   * @param length the payload's whole length (longer than {@code headLength}: the text is cut,
   *     classified from what is at hand and not captured)
   * @param startNanos {@link System#nanoTime()} when the command was sent
   * @param queryAttributes whether CLIENT_QUERY_ATTRIBUTES was negotiated
   * @return this record
   */
  public CommandRecord begin(WireSession session, CaptureSession capture, Shapes shapes,
      CommandType type, byte[] head, int headLength, int length, long startNanos,
      boolean queryAttributes) {
    // References are stored only when they change (a connection mostly repeats its command):
    // each store pays the collector's write barrier, a load and compare do not.
    if (this.type != type) {
      this.type = type;
    }
    this.startNanos = startNanos;
    // The server reads this command's text in the mode the connection is in now.
    Escaping e = session.escaping();
    if (this.escaping != e) {
      this.escaping = e;
    }
    // The two commands that carry nearly all traffic first; every other type out of line, so the
    // hot path stays small enough for the JIT to inline it into the collector's hook.
    if (type == CommandType.QUERY) {
      int off = QueryAttributes.sqlOffset(head, headLength, queryAttributes);
      this.sqlOffset = off;
      this.statementId = NO_STATEMENT;
      if (off > 0) {
        ShapeHandle s = shapes.shape(type, head, off, headLength, e);
        shapeAndVia(s, Via.TEXT_EXECUTES);
        session.sent(s.classification()); // SET sql_mode: until the reply says
      } else { // not readable: counted by type only
        shapeAndVia(null, null);
      }
    } else if (type == CommandType.STMT_EXECUTE) {
      int id = statementId(head, headLength);
      this.sqlOffset = -1;
      this.statementId = id;
      shapeAndVia(statement(session, id), Via.EXECUTES);
    } else {
      beginOther(session, shapes, type, head, headLength, e);
    }
    if (capture != null) {
      beginCapture(capture, head, headLength, length, queryAttributes);
    } else if (event != null || sql != null) {
      event = null; // kept from a command a capture took; none takes this one
      sql = null;
    }
    return this;
  }

  /** {@link #begin} of a command other than COM_QUERY and COM_STMT_EXECUTE. */
  private void beginOther(WireSession session, Shapes shapes, CommandType type, byte[] head,
      int headLength, Escaping e) {
    int off = -1;
    int id = NO_STATEMENT;
    Via v = null;
    ShapeHandle s = null;
    switch (type) {
      case STMT_PREPARE:
        off = 1;
        v = Via.PREPARES;
        s = shapes.shape(type, head, 1, headLength, e);
        break;
      case STMT_FETCH:
      case STMT_RESET:
      case STMT_SEND_LONG_DATA:
        v = via(type);
        id = statementId(head, headLength);
        s = statement(session, id);
        break;
      case STMT_CLOSE:
        v = Via.CLOSES;
        id = statementId(head, headLength);
        s = id == NO_STATEMENT ? null : session.close(id);
        break;
      case CHANGE_USER:
      case RESET_CONNECTION:
        // A new session: its mode comes with the next reply, its isolation is the login's.
        session.sessionReset();
        break;
      default:
        break;
    }
    this.sqlOffset = off;
    this.statementId = id;
    shapeAndVia(s, v);
  }

  private void shapeAndVia(ShapeHandle s, Via v) {
    if (shape != s) {
      shape = s;
    }
    if (via != v) {
      via = v;
    }
  }

  /** Bytes 1-4 (too short: none; counted by type only, the proxy refuses the command first). */
  private static int statementId(byte[] head, int headLength) {
    return headLength >= 5 ? Bytes.int32(head, 1) : NO_STATEMENT;
  }

  /** The statement's shape; MariaDB's EXECUTE(-1) is resolved at the reply ({@link #complete}). */
  private static ShapeHandle statement(WireSession session, int id) {
    return id == NO_STATEMENT || id == WireSession.LAST_PREPARED_ID ? null : session.statement(id);
  }

  private void beginCapture(CaptureSession capture, byte[] head, int headLength, int length,
      boolean queryAttributes) {
    String text = null;
    if (sqlOffset > 0 && length == headLength) { // a capture holds no cut statement
      text = new String(head, sqlOffset, headLength - sqlOffset, StandardCharsets.UTF_8);
    }
    event = capture.begin(type, head, headLength, length, text, statementId, startNanos,
        queryAttributes, escaping);
    sql = type == CommandType.STMT_PREPARE ? text : null; // only a prepare's text waits for its reply
  }

  /**
   * The server answered the COM_STMT_PREPARE of this record with PREPARE_OK: the connection holds
   * statement {@code id} with {@code params} parameters.
   */
  public void prepared(WireSession session, CaptureSession capture, int id, int params) {
    if (shape != null) {
      session.prepared(id, shape);
    }
    if (capture != null) {
      capture.prepared(event, sql, id, params);
    }
  }

  /**
   * The command's reply ended (or, for a command without one, it was sent): records it into the
   * session and finishes the capture's event.
   *
   * @param errorCode {@link WireSession#NO_ERROR} when it succeeded, else the server's code
   *     ({@link ServerError#OTHER} when the reply or the failure carried none)
   * @param sqlState the error's SQLSTATE, or null
   * @param latencyNanos the command's latency, < 0 when untimed
   * @param endNanos {@link System#nanoTime()} when it ended (the time the latency was taken at)
   * @param rows rows of the reply's first result set read in full, < 0 when not counted
   * @param status the status flags that ended the reply, < 0 when not at hand
   */
  public void complete(WireSession session, CaptureSession capture, int errorCode, String sqlState,
      long latencyNanos, long endNanos, long rows, int status) {
    boolean error = errorCode != WireSession.NO_ERROR;
    if (error) {
      session.errorReply(); // a SET the server refused does not change the session
    }
    CommandType t = type;
    session.command(t, latencyNanos, endNanos);
    ShapeHandle s = shape;
    Via v = via;
    if (v == Via.TEXT_EXECUTES) {
      if (s != null) {
        session.query(s, latencyNanos, errorCode, sqlState);
      }
    } else if (v == Via.EXECUTES && s != null) {
      session.statementCommand(s, v, latencyNanos, errorCode, sqlState);
    } else if (v != null) {
      statementCommand(session, s, v, latencyNanos, errorCode, sqlState);
    }
    if (!error && (rows >= 0 || status >= 0)
        && (t == CommandType.QUERY || t == CommandType.STMT_EXECUTE)) {
      session.result(rows, status); // rows for the shape, and whether the transaction ended
    }
    if (t == CommandType.RESET_CONNECTION && !error) {
      resetConnection(session, capture);
    }
    if (capture != null) {
      capture.complete(event, error ? Math.max(errorCode, ServerError.OTHER) : -1, latencyNanos);
    }
  }

  /**
   * {@link #complete} of a statement command other than an EXECUTE of a known statement: a
   * prepare, MariaDB's EXECUTE(-1) (its statement known now that earlier replies have come), a
   * FETCH, RESET, SEND_LONG_DATA or CLOSE.
   */
  private void statementCommand(WireSession session, ShapeHandle s, Via v, long latencyNanos,
      int errorCode, String sqlState) {
    if (s == null && statementId == WireSession.LAST_PREPARED_ID && v != Via.CLOSES) {
      s = session.statement(WireSession.LAST_PREPARED_ID); // earlier replies have come
      shape = s;
    }
    if (s != null) {
      if (v == Via.PREPARES) {
        session.prepare(s, latencyNanos, errorCode, sqlState);
      } else {
        session.statementCommand(s, v, latencyNanos, errorCode, sqlState);
      }
    }
  }

  /** The server dropped the session's prepared statements (COM_RESET_CONNECTION answered OK). */
  private static void resetConnection(WireSession session, CaptureSession capture) {
    session.forgetStatements();
    if (capture != null) {
      capture.forgetStatements();
    }
  }

  /**
   * The connection closed before the reply: the command went to the server, so it counts,
   * untimed and without a result.
   */
  public void unanswered(WireSession session) {
    session.command(type, -1);
    if (shape != null && via != null) {
      session.recordUnanswered(shape, via);
    }
  }

  /** Forgets the command (the record goes back to its pool). */
  public void clear() {
    type = null;
    via = null;
    shape = null;
    sql = null;
    event = null;
    sqlOffset = -1;
    statementId = NO_STATEMENT;
    escaping = Escaping.UNKNOWN;
  }

  public CommandType type() {
    return type;
  }

  /** What the command counts as on its shape, null when none (or its text was not readable). */
  public Via via() {
    return via;
  }

  /** The command's shape: its text's, or its statement's; null when unknown. */
  public ShapeHandle shape() {
    return shape;
  }

  /** Where the SQL text starts in the payload (after query attributes), -1 when none. */
  public int sqlOffset() {
    return sqlOffset;
  }

  /** The statement id the command carries, {@link #NO_STATEMENT} when none. */
  public int statementId() {
    return statementId;
  }

  public long startNanos() {
    return startNanos;
  }

  /** The escaping mode the server read the command's text in. */
  public Escaping escaping() {
    return escaping;
  }

  /** The capture's event of this command, null when no capture took it. */
  public CaptureSession.Pending event() {
    return event;
  }
}
