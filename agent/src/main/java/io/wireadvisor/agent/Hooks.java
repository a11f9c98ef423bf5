package io.wireadvisor.agent;

import io.wireadvisor.agent.internal.Causes;
import io.wireadvisor.agent.internal.ConnDescription;
import io.wireadvisor.agent.internal.ConnState;
import io.wireadvisor.agent.internal.ConnectionTable;
import io.wireadvisor.agent.internal.JdbcUrls;
import io.wireadvisor.agent.internal.Window;
import io.wireadvisor.capture.CaptureSession;
import io.wireadvisor.command.CommandRecord;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.ServerError;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.Via;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.wire.QueryAttributes;
import io.wireadvisor.wire.Replies;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The entry points the advice inlined into Connector/J calls. Only JDK types cross this boundary
 * (the advice extracts bytes and strings from driver objects), so this class works whichever
 * class loader loaded the driver, as long as it delegates to the system class loader.
 *
 * <p>Every method here is called from advice with {@code suppress = Throwable.class}, and the
 * command path catches nothing itself: a bug here costs a count, never the application's call.
 * The command path allocates nothing once a connection's texts are known, and takes no lock.
 */
public final class Hooks {
  /** JDBC properties recorded per connection (the ones the advisor's rules read, and neighbours). */
  public static final String[] PROPERTY_NAMES = JdbcProperty.keys();

  private static volatile boolean active;
  private static volatile Window window = new Window(RecorderSettings.defaults());
  private static volatile RecorderSettings settings = RecorderSettings.defaults();
  private static final ConnectionTable CONNECTIONS = new ConnectionTable();
  private static final ConcurrentHashMap<String, Source> SOURCES = new ConcurrentHashMap<>();
  private static final int MAX_SOURCES = 256;

  private Hooks() {}

  static void configure(RecorderSettings s) {
    settings = s;
    window = new Window(s);
  }

  /** The agent was attached to a running JVM: describe connections that predate it. */
  static void lateAttach() {
    CONNECTIONS.lateAttach();
  }

  static void activate() {
    active = true;
  }

  /** For tests that activate the hooks in a shared JVM. */
  static void deactivate() {
    active = false;
  }

  /** True once the driver's hooks were found and installed. */
  public static boolean isActive() {
    return active;
  }

  static Window window() {
    return window;
  }

  /** Starts a fresh window; connections and statement ids stay known. */
  static synchronized void reset() {
    Window fresh = new Window(settings);
    for (Source s : SOURCES.values()) {
      fresh.recorder.source(withStart(s, fresh.startMillis));
    }
    window = fresh;
  }

  /** Live connections the agent tracks (for tests and the report). */
  static int trackedConnections() {
    return CONNECTIONS.size();
  }

  // ---- the command path -------------------------------------------------------------------

  /**
   * One command went through {@code NativeProtocol.sendCommand}.
   *
   * @param protocol the connection's {@code NativeProtocol}
   * @param buf the command payload; {@code buf[0]} is the command byte
   * @param len the payload length
   * @param startNanos {@link System#nanoTime()} when the command was handed to the driver
   * @param response the first response packet's payload, null when none was read
   * @param failed true when the command ended in an exception (an ERR reply or an I/O failure)
   * @param queryAttributes whether CLIENT_QUERY_ATTRIBUTES was negotiated
   */
  public static void command(
      Object protocol,
      byte[] buf,
      int len,
      long startNanos,
      byte[] response,
      boolean failed,
      boolean queryAttributes) {
    command(protocol, buf, len, startNanos, response, failed, queryAttributes, -1);
  }

  /**
   * As {@link #command(Object, byte[], int, long, byte[], boolean, boolean)}, with the server's
   * error code when the command failed with an ERR the driver read ({@code CJException}'s vendor
   * code; -1 when unknown): a capture records it.
   */
  public static void command(
      Object protocol,
      byte[] buf,
      int len,
      long startNanos,
      byte[] response,
      boolean failed,
      boolean queryAttributes,
      int errorCode) {
    command(protocol, buf, len, startNanos, response, failed, queryAttributes, errorCode, null);
  }

  /**
   * As {@link #command(Object, byte[], int, long, byte[], boolean, boolean, int)}, with the
   * SQLSTATE of the driver's exception ({@code CJException.getSQLState()}; null when unknown): the
   * profile counts errors per shape by code and SQLSTATE.
   */
  public static void command(
      Object protocol,
      byte[] buf,
      int len,
      long startNanos,
      byte[] response,
      boolean failed,
      boolean queryAttributes,
      int errorCode,
      String sqlState) {
    if (!active || buf == null || len < 1 || len > buf.length) {
      return;
    }
    long end = System.nanoTime();
    long latency = end - startNanos;
    // The server's code and SQLSTATE of a failed command: from the driver's exception, else from
    // an ERR reply at hand; an I/O failure has none (ServerError.OTHER).
    int error = failed ? errorCode(response, errorCode) : WireSession.NO_ERROR;
    String state = failed ? sqlState(response, sqlState) : null;
    CommandType type = CommandType.fromCode(buf[0]);
    Window w = window;

    ConnState conn = CONNECTIONS.getOrCreate(protocol);
    if (conn == null || conn.closed) {
      conn = unusual(protocol, conn, w, type, buf, len, latency, error, state, queryAttributes);
      if (conn == null) {
        return;
      }
    }
    WireSession session = conn.sessionIn(w);
    if (!conn.described) {
      conn.described = LateDescriber.describe(protocol, conn);
    }
    ConnDescription d = conn.description;
    session.isolation(d == null ? UNKNOWN_ISOLATION : d.isolationIndex);
    // The one seam both collectors go through: the command decoded once, then recorded.
    CaptureSession cs = conn.capture;
    if (cs == null ? AgentCapture.get().enabled() : !cs.namesDriver()) {
      cs = capture(conn);
    }
    WindowShapes shapes = (WindowShapes) conn.shapes;
    if (shapes == null) {
      shapes = new WindowShapes();
      conn.shapes = shapes;
    }
    if (shapes.window != w) {
      shapes.window = w; // after a reset: a store only then, not every command
    }
    CommandRecord record = conn.command.begin(session, cs, shapes, type, buf, len, len,
        startNanos, queryAttributes);
    if (!conn.registered) {
      registerIfBusiness(conn, record);
    }
    // What the first reply packet says: a PREPARE_OK's statement, an OK's status flags. A result
    // set's rows and final status come later, from resultSet.
    int status = -1;
    if (response != null && response.length > 0) {
      status = afterReply(session, cs, record, type, response, failed);
    } else if (type == CommandType.RESET_CONNECTION || type == CommandType.CHANGE_USER) {
      session.escapingReset(); // a new session state: not known until a reply tells
    }
    // Not cleared: the next command's begin sets every field again.
    record.complete(session, cs, error, state, latency, end, -1, status);
    if (session.resultsFollow() != conn.resultsFollow) {
      resultsFollow(conn, session);
    }
  }

  /**
   * Connections whose session waits for a reply's further results ({@link
   * WireSession#resultsFollow}: a multi-statement query or a CALL, between its first result and
   * its last), as far as the hooks saw: {@link #followingResult}, called for every OK result the
   * driver reads (every DML statement's), looks its connection up only while this is not 0. Kept
   * by each connection's thread on a change of its session's flag, so it never misses a waiting
   * session; a connection that ends while waiting (aborted, collected) may leave it high, which
   * only costs the lookup again.
   */
  private static final java.util.concurrent.atomic.AtomicInteger RESULTS_FOLLOW =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Connections waiting for further results of a reply, as {@link #RESULTS_FOLLOW} counts them. */
  static int resultsFollowing() {
    return RESULTS_FOLLOW.get();
  }

  /** The session's {@link WireSession#resultsFollow} changed: the tally follows. */
  private static void resultsFollow(ConnState conn, WireSession session) {
    boolean now = session.resultsFollow();
    conn.resultsFollow = now;
    RESULTS_FOLLOW.addAndGet(now ? 1 : -1);
  }

  /**
   * The connection of a command is not tracked (the table is full) or was closed without COM_QUIT:
   * the driver reuses the protocol object when it reconnects (createNewIO), so a command while
   * connecting belongs to a new physical connection (returned); any other is a straggler of the
   * closed one (in flight when another thread aborted it, say), counted by type and shape only.
   */
  private static ConnState unusual(Object protocol, ConnState conn, Window w, CommandType type,
      byte[] buf, int len, long latency, int error, String state, boolean queryAttributes) {
    ConnState fresh = conn != null && Causes.inConnect() ? CONNECTIONS.reopen(protocol) : null;
    if (fresh != null) {
      return fresh;
    }
    w.recorder.command(type, latency); // not tracked per connection (table full, straggler)
    untracked(w, type, buf, len, latency, error, state, queryAttributes);
    return null;
  }

  /** The server's code of a failed command: the driver's exception's, the ERR reply's, or OTHER. */
  private static int errorCode(byte[] response, int errorCode) {
    if (errorCode > 0) {
      return errorCode;
    }
    int fromReply = response == null ? -1 : Replies.errCode(response, response.length);
    return fromReply > 0 ? fromReply : ServerError.OTHER;
  }

  /** The SQLSTATE of a failed command: the driver's exception's, else the ERR reply's, or null. */
  private static String sqlState(byte[] response, String sqlState) {
    if (sqlState != null) {
      return sqlState;
    }
    int fromReply = response == null ? -1 : Replies.errCode(response, response.length);
    return fromReply > 0 ? Replies.errSqlState(response, response.length) : null;
  }

  /**
   * The connection's description is not registered as a source: the command registers it if it is
   * a business statement the application ran.
   */
  private static void registerIfBusiness(ConnState conn, CommandRecord record) {
    ShapeHandle shape = record.shape();
    Via via = record.via();
    if (shape != null
        && (via == Via.TEXT_EXECUTES || via == Via.PREPARES || via == Via.EXECUTES)) {
      business(conn, shape);
    }
  }

  /**
   * The first reply packet of a command, at hand: what it tells the session of the connection's
   * escaping mode ({@link #escapingAfter}), a PREPARE_OK's statement; returns an OK's status flags
   * (whether the transaction ended), -1 for any other packet.
   */
  private static int afterReply(WireSession session, CaptureSession cs, CommandRecord record,
      CommandType type, byte[] response, boolean failed) {
    // An OK's status flags, read once: the escaping mode and whether the transaction ended.
    int ok = response[0] == Replies.OK ? Replies.okStatusOrUnknown(response, response.length) : -1;
    escapingAfter(session, type, response, ok);
    // Only a PREPARE_OK gives the connection a statement (and a server-side cache entry): a
    // failed prepare is counted as a command and an error, not as a prepared statement.
    if (type == CommandType.STMT_PREPARE && !failed
        && Replies.isPrepareOk(response, response.length)) {
      record.prepared(session, cs, Replies.preparedId(response),
          response.length >= 9 ? Replies.preparedParams(response) : -1);
    }
    return failed ? -1 : ok;
  }

  /**
   * The shapes of a connection's texts in the agent's current window: a client-side prepared
   * statement's template when the text is its execution, else the window's text cache. One per
   * connection (made with its state), pointed at the window of each command.
   */
  static final class WindowShapes implements CommandRecord.Shapes {
    Window window;

    @Override
    public ShapeHandle shape(CommandType type, byte[] b, int from, int to, Escaping escaping) {
      return textShape(window, type, b, from, to, escaping);
    }
  }

  private static ShapeHandle textShape(
      Window w, CommandType type, byte[] b, int from, int to, Escaping escaping) {
    if (type == CommandType.QUERY) {
      String[] template = TEMPLATE.get();
      if (template[0] != null && sameStaticPrefix(template[0], b, from, to)) {
        // One COM_QUERY per execution: the template is used once.
        ShapeHandle shape = w.recorder.shape(template[0], escaping);
        template[0] = null;
        return shape;
      }
    }
    return w.texts.lookup(b, from, to, escaping).shape;
  }

  /**
   * What the first reply packet says of the connection's escaping mode: an OK's status flags (not
   * PREPARE_OK's, not a row's); a new session state after COM_RESET_CONNECTION or COM_CHANGE_USER
   * is not known until a reply tells. A result set's status comes in its last packet, which the
   * hook does not see: the mode stays as the texts left it.
   */
  private static void escapingAfter(WireSession session, CommandType type, byte[] response,
      int okStatus) {
    switch (type) {
      case RESET_CONNECTION:
      case CHANGE_USER:
        session.escapingReset();
        break;
      case QUERY:
      case STMT_EXECUTE:
      case INIT_DB:
      case PING:
        break;
      default:
        return;
    }
    if (response != null && response.length > 0 && response[0] == Replies.OK) {
      session.serverStatus(okStatus);
    } else if (response != null && response.length > 0 && (response[0] & 0xFF) == Replies.ERR) {
      session.errorReply(); // a SET sql_mode the server refused does not change its mode
    }
  }

  /**
   * The driver read a result set of the connection's last command in full ({@code
   * TextResultsetReader.read}, {@code BinaryResultsetReader.read}): {@code rows} rows (< 0 when it
   * streams them or reads them through a cursor, so they are not counted), and {@code status} the
   * server's status flags after it (the driver's own copy, which the final EOF or OK set).
   */
  public static void resultSet(Object protocol, long rows, int status) {
    if (!active || protocol == null) {
      return;
    }
    ConnState conn = CONNECTIONS.get(protocol);
    if (conn == null || conn.closed) {
      return;
    }
    WireSession session = conn.sessionIn(window);
    session.result(rows, status);
    if (session.resultsFollow() != conn.resultsFollow) {
      resultsFollow(conn, session);
    }
  }

  /**
   * The driver read an OK result after a result set of the same reply (a multi-statement query, a
   * CALL): {@code status}, the flags it left in the driver's server session, ends the reply. Only a
   * reply whose earlier result said more would follow is changed ({@code
   * WireSession.followingResult}); an OK that was the reply's first packet was seen at the command.
   * That is every DML statement's OK: while no session waits for further results ({@link
   * #RESULTS_FOLLOW}), it returns after one read, without looking its connection up.
   */
  public static void followingResult(Object protocol, int status) {
    if (RESULTS_FOLLOW.get() == 0 || !active || protocol == null) {
      return;
    }
    ConnState conn = CONNECTIONS.get(protocol);
    if (conn == null || conn.closed) {
      return;
    }
    WireSession session = conn.sessionIn(window);
    session.followingResult(status);
    if (session.resultsFollow() != conn.resultsFollow) {
      resultsFollow(conn, session);
    }
  }

  /**
   * The connection's part in captures (only once capture is enabled: off, the command path pays
   * one null check), or null; it names the driver once the connection is described.
   */
  private static CaptureSession capture(ConnState conn) {
    CaptureSession cs = conn.capture;
    if (cs == null) {
      if (!AgentCapture.get().enabled()) {
        return null;
      }
      cs = new CaptureSession(AgentCapture.get());
      conn.capture = cs;
    }
    if (!cs.namesDriver()) {
      ConnDescription d = conn.description;
      if (d != null && d.driverVersion != null) {
        cs.driver("MySQL Connector/J", d.driverVersion); // the capture's driverVersion
      }
    }
    return cs;
  }

  /** The server version of a connection the agent has described (for a capture's header), or null. */
  static String serverVersionSeen() {
    for (Source s : SOURCES.values()) {
      if (s.serverVersion() != null) {
        return s.serverVersion();
      }
    }
    return null;
  }

  /** The JDBC properties of a connection the agent has described (for a capture's header). */
  static Map<String, String> propertiesSeen() {
    for (Source s : SOURCES.values()) {
      if (!s.properties().isEmpty()) {
        return s.properties();
      }
    }
    return new TreeMap<>();
  }

  /**
   * A command on a connection the agent does not track (table full, a straggler): a text is
   * counted by shape, no more.
   */
  private static void untracked(Window w, CommandType type, byte[] buf, int len, long latency,
      int error, String state, boolean queryAttributes) {
    int off = type == CommandType.QUERY ? QueryAttributes.sqlOffset(buf, len, queryAttributes)
        : type == CommandType.STMT_PREPARE ? 1 : -1;
    if (off <= 0) {
      return;
    }
    ShapeHandle shape = textShape(w, type, buf, off, len, Escaping.UNKNOWN);
    Via via = CommandRecord.via(type);
    shape.record(via, latency);
    if (error != WireSession.NO_ERROR) {
      shape.record(Via.ERRORS);
      shape.recordError(error, state, latency);
    }
    Classification c = shape.classification();
    if (c.isProbe()) {
      w.recorder.probe(c.probe(), Causes.current());
    } else if (c.kind().isBusiness()) {
      w.recorder.statementUnder(UNKNOWN_ISOLATION);
    }
  }

  private static final int UNKNOWN_ISOLATION = ProfileRecorder.isolationIndex(null);
  private static final byte[] QUIT_PAYLOAD = {0x01};

  /** COM_QUIT went out ({@code NativeProtocol.quit()} returned normally). */
  public static void quit(Object protocol, long startNanos) {
    if (!active) {
      return;
    }
    long latency = System.nanoTime() - startNanos;
    Window w = window;
    ConnState conn = CONNECTIONS.get(protocol);
    if (conn == null || conn.closed) {
      w.recorder.command(CommandType.QUIT, latency);
    } else {
      WireSession session = conn.sessionIn(w);
      CaptureSession cs = conn.capture;
      conn.command.begin(session, cs, null, CommandType.QUIT, QUIT_PAYLOAD, 1, 1, startNanos, false)
          .complete(session, cs, WireSession.NO_ERROR, null, latency, startNanos + latency, -1, -1);
      if (session.resultsFollow() != conn.resultsFollow) {
        resultsFollow(conn, session); // the session's last reply ends unheard
      }
      conn.command.clear();
      describeAtClose(conn);
    }
    if (conn != null) {
      CONNECTIONS.remove(protocol);
    }
  }

  /**
   * The driver closed the connection's socket without sending COM_QUIT: {@code
   * NativeSession.forceClose()} (from {@code Connection.abort}, a forced close, a failed connect
   * or reconnect) or a {@code NativeProtocol.quit()} that failed. May run on another thread than
   * the connection's (abort). Nothing is counted: nothing was sent.
   */
  public static void closedWithoutQuit(Object protocol) {
    if (!active || protocol == null) {
      return;
    }
    ConnState conn = CONNECTIONS.markClosed(protocol);
    if (conn != null) {
      describeAtClose(conn);
    }
  }

  /** A connection closed without a statement is described as it stands, or no snapshot would. */
  private static void describeAtClose(ConnState conn) {
    ConnDescription d = conn.description;
    if (d != null && !conn.ranStatements) {
      register(d);
    }
  }

  // ---- queryInterceptors ------------------------------------------------------------------

  /** Stands for "the interceptors threw" in {@link #INTERCEPTED}. */
  private static final Object INTERCEPTORS_THREW = new Object();

  /**
   * What {@code invokeQueryInterceptorsPre(Message, boolean)} last answered on this thread: the
   * packet it returned (null: send as usual) or {@link #INTERCEPTORS_THREW}. Consumed by the
   * {@code sendCommand} that called it, whose exit runs after the interceptors' (and after any
   * command an interceptor ran itself, which consumes its own answer first).
   */
  private static final ThreadLocal<Object[]> INTERCEPTED =
      new ThreadLocal<Object[]>() {
        @Override
        protected Object[] initialValue() {
          return new Object[1];
        }
      };

  /** The configured query interceptors answered a command packet (before it was sent). */
  public static void interceptorsAnswered(Object packet, boolean threw) {
    // Not gated on activation: the slot is consumed by every sendCommand with interceptors.
    INTERCEPTED.get()[0] = threw ? INTERCEPTORS_THREW : packet;
  }

  /**
   * Called by {@code sendCommand}'s exit when query interceptors are configured: true when the
   * command never went out because an interceptor returned {@code response} in its place (or
   * threw, so that {@code sendCommand} threw before sending). Clears what the interceptors said.
   */
  public static boolean shortCircuited(Object response, boolean threw) {
    Object[] slot = INTERCEPTED.get();
    Object answer = slot[0];
    slot[0] = null;
    if (answer == null) {
      return false;
    }
    return threw ? answer == INTERCEPTORS_THREW : answer == response;
  }

  // ---- client-side prepared statements --------------------------------------------------

  /** The template of the client-side prepared statement executing on this thread, if any. */
  private static final ThreadLocal<String[]> TEMPLATE =
      new ThreadLocal<String[]>() {
        @Override
        protected String[] initialValue() {
          return new String[1];
        }
      };

  /** A client-side prepared statement starts executing {@code sql}; returns the previous one. */
  public static String enterTemplate(String sql) {
    String[] t = TEMPLATE.get();
    String previous = t[0];
    t[0] = sql;
    return previous;
  }

  public static void exitTemplate(String previous) {
    TEMPLATE.get()[0] = previous;
  }

  /**
   * Whether the COM_QUERY text in {@code buf[off, len)} starts like the template up to its first
   * placeholder (at most 64 chars, ASCII only), so a command the driver sends on the side (e.g.
   * {@code SET SQL_SELECT_LIMIT}) is never taken for the statement. Without placeholders the
   * lengths must match too.
   */
  static boolean sameStaticPrefix(String template, byte[] buf, int off, int len) {
    int n = template.length();
    int max = Math.min(n, 64);
    int i = 0;
    for (; i < max; i++) {
      char c = template.charAt(i);
      if (c == '?') {
        return i > 0;
      }
      if (c >= 0x80 || off + i >= len || buf[off + i] != (byte) c) {
        return false;
      }
    }
    return i < n || len - off == n;
  }

  // ---- batches ----------------------------------------------------------------------------

  /** {@code executeBatch()} of a prepared statement with {@code n} parameter sets. */
  public static void preparedBatch(String sql, int n) {
    if (!active || sql == null || n <= 0) {
      return;
    }
    ShapeHandle shape = window.recorder.shape(sql);
    shape.record(Via.BATCHES);
    shape.add(Via.BATCHED_STATEMENTS, n);
  }

  /** {@code executeBatch()} of a plain statement: its SQL texts. */
  public static void statementBatch(List<Object> batched) {
    if (!active || batched == null || batched.isEmpty()) {
      return;
    }
    Window w = window;
    ShapeHandle last = null;
    for (Object o : batched) {
      if (o instanceof String) {
        ShapeHandle shape = w.recorder.shape((String) o);
        shape.record(Via.BATCHED_STATEMENTS);
        // One batch per shape that appears in it; consecutive same-shape texts count once.
        if (last == null || !last.digest().equals(shape.digest())) {
          shape.record(Via.BATCHES);
        }
        last = shape;
      }
    }
  }

  // ---- connection description -------------------------------------------------------------

  /**
   * A connection finished connecting: keeps its configuration (values read from driver state;
   * nothing is sent to the server) pending in its state. It becomes a {@link Source} when the
   * connection sends its first business statement, so that the source carries the isolation the
   * statements ran under, which a pool typically sets right after connecting (see
   * {@link #isolationSet}); a connection that never runs one is registered at snapshot time.
   *
   * @param protocol the connection's {@code NativeProtocol}
   * @param isolation the session isolation the driver loaded at connect ({@code REPEATABLE-READ}, ...)
   * @param propertyValues values of {@link #PROPERTY_NAMES}, null where unknown
   */
  public static void connected(
      Object protocol,
      String driverVersion,
      String serverVersion,
      String isolation,
      String url,
      String[] propertyValues) {
    if (!active) {
      return;
    }
    ConnState conn = protocol == null ? null : CONNECTIONS.getOrCreate(protocol);
    connected(conn, driverVersion, serverVersion, isolation, url, propertyValues);
  }

  static void connected(
      ConnState conn,
      String driverVersion,
      String serverVersion,
      String isolation,
      String url,
      String[] propertyValues) {
    Map<String, String> props = new TreeMap<>();
    for (int i = 0; i < PROPERTY_NAMES.length && i < propertyValues.length; i++) {
      if (propertyValues[i] != null && !Source.isSecret(PROPERTY_NAMES[i])) {
        props.put(PROPERTY_NAMES[i], recordedValue(PROPERTY_NAMES[i], propertyValues[i]));
      }
    }
    ConnDescription d =
        new ConnDescription(driverVersion, serverVersion, isolation, sanitizeUrl(url), props);
    if (conn == null) {
      // Not tracked per connection (table full): describe it as it is now rather than not at all.
      register(d);
      return;
    }
    conn.description = d;
    conn.registered = false;
  }

  /**
   * The connection's {@code sql_mode} as the driver read it while connecting (after the server ran
   * {@code init_connect}): its escaping mode until a reply or a {@code SET sql_mode} says otherwise.
   */
  public static void sqlModeAtConnect(Object protocol, String sqlMode) {
    if (!active || protocol == null || sqlMode == null) {
      return;
    }
    ConnState conn = CONNECTIONS.get(protocol);
    if (conn != null && !conn.closed) {
      conn.sessionIn(window).escaping(Escaping.fromSqlMode(sqlMode));
    }
  }

  /**
   * {@code ConnectionImpl.setTransactionIsolation(level)} returned normally: the connection's
   * later statements run under {@code level}. If its statements already ran under another
   * isolation, the next business statement registers a second source (the traffic was mixed).
   */
  public static void isolationSet(Object protocol, int level) {
    if (!active || protocol == null) {
      return;
    }
    String name = ConnDescription.isolationName(level);
    ConnState conn = CONNECTIONS.get(protocol);
    if (name == null || conn == null) {
      return;
    }
    ConnDescription d = conn.description;
    if (d == null || name.equals(d.isolation)) {
      return;
    }
    conn.description = d.withIsolation(name);
    conn.registered = false;
  }

  /**
   * A statement ran on a connection whose current description is not registered yet: registers it
   * unless the statement is a session probe or was sent by the driver or the pool on their own
   * (setup, validation, reset), which run before the pool hands the connection out.
   */
  private static void business(ConnState conn, ShapeHandle shape) {
    ConnDescription d = conn.description;
    if (d == null || shape.classification().isProbe() || !Causes.inApplication()) {
      return;
    }
    conn.registered = true;
    conn.ranStatements = true;
    register(d);
  }

  /**
   * Registers the descriptions of live connections that have not run a business statement yet
   * (idle in a pool, say), so every open connection is described in a snapshot. Leaves the
   * connections' flags alone: their first statement still registers what it runs under.
   */
  static void describePending() {
    CONNECTIONS.forEach(
        c -> {
          ConnDescription d = c.description;
          if (d != null && !c.ranStatements) {
            register(d);
          }
        });
  }

  /** The current window's profile, every open connection described. */
  static io.wireadvisor.profile.TrafficProfile snapshot() {
    describePending();
    return window.recorder.snapshot();
  }

  private static void register(ConnDescription d) {
    String key = d.key();
    if (SOURCES.containsKey(key) || SOURCES.size() >= MAX_SOURCES) {
      return;
    }
    // Under reset()'s lock: the source lands in the window that is current when it is known.
    synchronized (Hooks.class) {
      Window w = window;
      Source s =
          new Source(
              Source.AGENT,
              AgentIdentity.version(),
              AgentIdentity.instance(),
              "MySQL Connector/J",
              d.driverVersion,
              d.serverVersion,
              d.isolation,
              d.url,
              d.properties,
              w.startMillis,
              w.startMillis);
      if (SOURCES.putIfAbsent(key, s) == null) {
        w.recorder.source(s);
      }
    }
  }

  /** {@code com.mysql.cj.Constants.CJ_VERSION} of the driver in {@code loader} (read reflectively:
   * a compile-time constant would be the version we compiled against). */
  public static String driverVersion(ClassLoader loader) {
    try {
      return String.valueOf(
          Class.forName("com.mysql.cj.Constants", false, loader).getField("CJ_VERSION").get(null));
    } catch (Throwable e) {
      return null;
    }
  }

  /**
   * What a JDBC URL addresses (scheme, hosts, ports, database), rebuilt from its parsed parts: no
   * user info, no {@code key=value} (which may be a password), no query string. See {@link
   * JdbcUrls}.
   */
  static String sanitizeUrl(String url) {
    return JdbcUrls.describe(url);
  }

  /**
   * A property value as recorded: {@code connectionAttributes} may carry anything the application
   * chose (tokens included), so only {@code none} and empty are kept as written.
   */
  static String recordedValue(String name, String value) {
    if ("connectionAttributes".equals(name) && !value.isEmpty() && !"none".equalsIgnoreCase(value)) {
      return "(set)";
    }
    return value;
  }

  private static Source withStart(Source s, long start) {
    return new Source(
        s.collector(), s.collectorVersion(), s.instance(), s.driverName(), s.driverVersion(),
        s.serverVersion(), s.isolation(), s.jdbcUrl(), s.properties(), start, start);
  }

  // ---- pool borrows ------------------------------------------------------------------------

  /**
   * HikariCP took the connection of {@code protocol} back ({@code ProxyConnection.close}, after
   * its rollback and reset): the borrow ends for the connection's session (see {@link
   * WireSession#borrowEnded}). Once per borrow; allocates nothing.
   */
  public static void borrowEnded(Object protocol) {
    if (!active || protocol == null) {
      return;
    }
    ConnState conn = CONNECTIONS.get(protocol);
    if (conn == null || conn.closed) {
      return;
    }
    conn.sessionIn(window).borrowEnded();
  }
}
