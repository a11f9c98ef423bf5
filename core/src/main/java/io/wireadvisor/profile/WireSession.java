package io.wireadvisor.profile;

import io.wireadvisor.profile.ProfileRecorder.ConnectionHandle;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.wire.Replies;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's recording: the rules by which a command seen on the wire becomes counts in a
 * {@link ProfileRecorder}, the same for both collectors. The agent's hooks and the proxy's tracker
 * only find the bytes (the command, its statement id or text, whether the reply was an error, how
 * long it took) and call this; what is counted, per connection and per shape, is decided here:
 *
 * <ul>
 *   <li>the statement-id table: an id counts for its connection only once the server answered
 *       PREPARE_OK ({@link #prepared}); a failed prepare is a command and an error, never a
 *       statement (it would inflate the per-connection count that sizes {@code prepStmtCacheSize});
 *       COM_STMT_CLOSE, COM_RESET_CONNECTION and COM_CHANGE_USER forget ids;
 *   <li>command-type counting, per shape ({@link Via}) and per connection;
 *   <li>the once-per-connection record of the shapes a connection used;
 *   <li>probe attribution (to the application's call site where the collector can see it) and
 *       business statements by the isolation they ran under;
 *   <li>the connection's {@link Escaping}, in which its texts are classified: unknown until a
 *       reply's status flags tell ({@link #serverStatus}), set by a {@code SET sql_mode} the
 *       connection sends ({@link #sent}) until the next reply.
 * </ul>
 *
 * <p>Bounded in bytes: the statement table and the used-shape set are paid for, entry by entry,
 * from a per-session limit and a budget shared by all sessions of one collector; past either, a
 * prepared statement is counted by type but not by shape, and the connection's count of shapes used
 * is a lower bound. Used by one thread at a time (a connection sends one command at a time), except
 * {@link #end()}, which an abort may call from another thread. The command path allocates nothing
 * once the tables have grown to the connection's working set.
 */
public final class WireSession {
  /** The statement id MariaDB clients send to mean "the statement just prepared" (pipelining). */
  public static final int LAST_PREPARED_ID = -1;
  /** The error code argument of a command that succeeded. */
  public static final int NO_ERROR = -1;
  /** Prepared statements one session tracks at most, whatever the byte limits. */
  public static final int MAX_STATEMENTS = 65_536;
  /**
   * Accounted bytes of one statement-table entry: the table's two slots at half load and a compact
   * shape handle (no text) shared with the shape's other entries.
   */
  public static final long STATEMENT_ENTRY_BYTES = 240;
  /** One shape in the used set and in the connection handle's set (two hash-set nodes). */
  public static final long USED_SHAPE_ENTRY_BYTES = 2 * 64;
  /** Default statement bytes per session (the proxy's {@code --max-statement-bytes-per-connection}). */
  public static final long DEFAULT_BYTES_PER_SESSION = 1L << 20;
  /** Default statement bytes over all sessions of a collector. */
  public static final long DEFAULT_BYTES_TOTAL = 64L << 20;

  /** Where a probe came from, when the collector can tell (the agent: the application's frame). */
  public interface CauseSource {
    /** The caller to charge the probe to, or null. */
    String current();
  }

  /** Bytes held by every session sharing it, and what did not fit. Thread-safe. */
  public static final class Budget {
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong untracked = new AtomicLong();

    /** Accounted bytes all sessions sharing this budget hold now. */
    public long used() {
      return used.get();
    }

    /** Prepared statements counted by type only because a limit was reached. */
    public long untrackedStatements() {
      return untracked.get();
    }

    /** Takes {@code n} bytes unless that would pass {@code limit}; true when taken. */
    public boolean reserve(long n, long limit) {
      if (used.addAndGet(n) > limit) {
        used.addAndGet(-n);
        return false;
      }
      return true;
    }

    /** Gives back {@code n} bytes taken by {@link #reserve}. */
    public void release(long n) {
      used.addAndGet(-n);
    }
  }

  private final Budget budget;
  private final CauseSource causes;
  private long bytesPerSession;
  private long bytesTotal;

  private ProfileRecorder recorder;
  /** The client's key ({@link #client}) and its slot in the recorder, -1 when none. */
  private String clientKey;
  private int clientSlot = -1;
  private volatile ConnectionHandle connection;
  private final StatementTable statements = new StatementTable();
  private final IdentitySet used = new IdentitySet();
  private int usedCount;
  private long statementBytes;
  private long usedBytes;
  private ShapeHandle lastUsed;
  private ShapeHandle lastPrepared;
  /** -1: this collector cannot tell the isolation (the proxy), so statements are not counted by it. */
  private int isolation = -1;
  /**
   * Unknown at first: the login's OK may precede {@code init_connect}, which can change the mode;
   * the first reply to a command settles it.
   */
  private Escaping escaping = Escaping.UNKNOWN;
  /** {@link #escaping} came from a SET this connection sent, not yet confirmed by a reply's flags. */
  private boolean escapingGuessed;

  /**
   * @param recorder where this session counts (see {@link #bindTo} for a recorder that changes)
   * @param budget shared by the collector's sessions
   * @param causes the source of probe causes, or null when the collector cannot see them
   */
  public WireSession(ProfileRecorder recorder, Budget budget, CauseSource causes) {
    this.budget = budget;
    this.causes = causes;
    this.bytesPerSession = DEFAULT_BYTES_PER_SESSION;
    this.bytesTotal = DEFAULT_BYTES_TOTAL;
    this.recorder = recorder;
    this.connection = recorder.openConnection();
  }

  /** Sets this session's byte limit and the shared budget's limit (both in accounted bytes). */
  public void limits(long perSession, long total) {
    this.bytesPerSession = perSession;
    this.bytesTotal = total;
  }

  /**
   * Counts in {@code current} from now on (the agent's window after a reset): the connection
   * starts afresh there and its used shapes are forgotten; prepared ids stay known and their
   * shapes move to {@code current} when next used. Returns this session's connection handle.
   */
  public ConnectionHandle bindTo(ProfileRecorder current) {
    if (current != recorder) {
      ConnectionHandle old = connection;
      recorder = current;
      connection = current.openConnection();
      if (clientKey != null) {
        clientSlot = current.clientSlot(clientKey);
      }
      forgetUsed();
      lastPrepared = null;
      old.close(); // its window is gone; closing keeps the old recorder consistent
    }
    return connection;
  }

  /** The recorder this session counts in now. */
  public ProfileRecorder recorder() {
    return recorder;
  }

  /**
   * The isolation index ({@link ProfileRecorder#isolationIndex}) business statements count under
   * from now on; -1 (the default) counts none.
   */
  public void isolation(int isolationIndex) {
    this.isolation = isolationIndex;
  }

  // ---- escaping ----------------------------------------------------------------------------

  /** How the server reads backslashes on this connection now: the mode to classify its texts in. */
  public Escaping escaping() {
    return escaping;
  }

  /** The collector learned the mode otherwise (the agent: the driver's {@code sql_mode} at connect). */
  public void escaping(Escaping mode) {
    this.escaping = mode == null ? Escaping.UNKNOWN : mode;
    this.escapingGuessed = false;
  }

  /**
   * A text of {@code c} went to the server to be run (COM_QUERY): a {@code SET sql_mode} in it sets
   * the mode for what follows, until a reply says otherwise.
   */
  public void sent(Classification c) {
    Escaping e = c.setsEscaping();
    if (e != null) {
      escaping = e;
      escapingGuessed = true;
    }
  }

  /**
   * The server answered a command with ERR, which carries no status flags: a mode taken from a
   * {@code SET sql_mode} it may not have run (rejected, or after a failed statement in the same
   * text) is not known any more. A mode a reply's flags told stays.
   */
  public void errorReply() {
    if (escapingGuessed) {
      escaping = Escaping.UNKNOWN;
      escapingGuessed = false;
    }
  }

  /**
   * The server's status flags from an OK or EOF packet that ends a reply to the last command sent
   * (a collector that pipelines passes only those: an earlier reply does not know a later {@code
   * SET}); {@code status} < 0 when the flags were not at hand. A status announcing more results
   * is passed over: statements still to run in the same text may change the mode.
   */
  public void serverStatus(int status) {
    if (status >= 0 && (status & Replies.SERVER_MORE_RESULTS_EXISTS) == 0) {
      escaping = Escaping.fromStatus(status);
      escapingGuessed = false;
    }
  }

  /** The server began a new session state (COM_CHANGE_USER, COM_RESET_CONNECTION): not known. */
  public void escapingReset() {
    escaping = Escaping.UNKNOWN;
    escapingGuessed = false;
  }

  // ---- commands --------------------------------------------------------------------------

  /**
   * The client that sent this connection's login, by its key ({@link Source#clientKey()}): the
   * commands and shapes recorded from now on count for it too (the proxy's, from the connection
   * attributes). Without it nothing is attributed.
   */
  public void client(String key) {
    clientKey = key;
    clientSlot = key == null ? -1 : recorder.clientSlot(key);
  }

  /** The recorder's slot of this session's client, or -1 when none was told. */
  public int clientSlot() {
    return clientSlot;
  }

  /** One command of {@code type} went out on this connection ({@code latencyNanos} < 0: untimed). */
  public void command(CommandType type, long latencyNanos) {
    recorder.command(type, latencyNanos);
    if (clientSlot >= 0) {
      recorder.clientCommand(clientSlot, type);
    }
    connection.command();
  }

  /** A COM_QUERY of {@code shape} completed. */
  public void query(ShapeHandle shape, long latencyNanos, boolean failed) {
    query(shape, latencyNanos, failed ? ServerError.OTHER : NO_ERROR, null);
  }

  /**
   * A COM_QUERY of {@code shape} completed: {@code errorCode} {@link #NO_ERROR} when it succeeded,
   * else the server's code ({@link ServerError#OTHER} when unknown) and SQLSTATE (or null).
   */
  public void query(ShapeHandle shape, long latencyNanos, int errorCode, String sqlState) {
    record(shape, Via.TEXT_EXECUTES, latencyNanos, errorCode, sqlState);
    used(shape);
    ran(shape);
  }

  /** A COM_STMT_PREPARE of {@code shape} completed (OK or ERR): counted as a prepare. */
  public void prepare(ShapeHandle shape, long latencyNanos, boolean failed) {
    prepare(shape, latencyNanos, failed ? ServerError.OTHER : NO_ERROR, null);
  }

  /** As {@link #prepare(ShapeHandle, long, boolean)}, with the error as in {@link #query}. */
  public void prepare(ShapeHandle shape, long latencyNanos, int errorCode, String sqlState) {
    record(shape, Via.PREPARES, latencyNanos, errorCode, sqlState);
  }

  /**
   * The server answered PREPARE_OK with {@code id} for {@code shape}: the connection holds a
   * prepared statement. Returns false when the id could not be remembered (a limit was reached):
   * its executions then count by type only.
   */
  public boolean prepared(int id, ShapeHandle shape) {
    lastPrepared = shape;
    connection.prepared(shape);
    ShapeHandle entry = shape.compact();
    if (statements.get(id) != null) {
      statements.put(id, entry); // the server reused an id this session missed the close of
      return true;
    }
    if (statements.size() < MAX_STATEMENTS
        && statementBytes + STATEMENT_ENTRY_BYTES <= bytesPerSession
        && budget.reserve(STATEMENT_ENTRY_BYTES, bytesTotal)) {
      statements.put(id, entry);
      statementBytes += STATEMENT_ENTRY_BYTES;
      return true;
    }
    budget.untracked.incrementAndGet();
    return false;
  }

  /**
   * The shape prepared under {@code id} on this connection, counted in the current recorder, or
   * null when unknown (prepared before the collector saw the connection, or not remembered).
   */
  public ShapeHandle statement(int id) {
    if (id == LAST_PREPARED_ID) {
      return lastPrepared;
    }
    ShapeHandle shape = statements.get(id);
    if (shape != null && !recorder.owns(shape)) {
      shape = recorder.rehome(shape); // prepared before a reset: moves to the current window
      statements.put(id, shape);
    }
    return shape;
  }

  /**
   * A statement command (COM_STMT_EXECUTE, FETCH, RESET, SEND_LONG_DATA, CLOSE) of {@code shape}
   * completed; an execution is a statement run (used, probe or business).
   */
  public void statementCommand(ShapeHandle shape, Via via, long latencyNanos, boolean failed) {
    statementCommand(shape, via, latencyNanos, failed ? ServerError.OTHER : NO_ERROR, null);
  }

  /** As {@link #statementCommand(ShapeHandle, Via, long, boolean)}, with the error as in {@link #query}. */
  public void statementCommand(
      ShapeHandle shape, Via via, long latencyNanos, int errorCode, String sqlState) {
    record(shape, via, latencyNanos, errorCode, sqlState);
    used(shape);
    if (via == Via.EXECUTES) {
      ran(shape);
    }
  }

  /** COM_STMT_CLOSE of {@code id}: the shape it was prepared from (null when unknown), forgotten. */
  public ShapeHandle close(int id) {
    ShapeHandle shape = statement(id);
    if (id != LAST_PREPARED_ID && statements.remove(id) != null) {
      releaseStatement();
    }
    return shape;
  }

  /**
   * The server dropped every prepared statement of the session (COM_RESET_CONNECTION or
   * COM_CHANGE_USER answered OK).
   */
  public void forgetStatements() {
    budget.release(statementBytes);
    statementBytes = 0;
    statements.clear();
    lastPrepared = null;
  }

  /** The connection ended (COM_QUIT, closed, or found collected). Releases its bytes; idempotent. */
  public void end() {
    connection.close();
  }

  /** Releases what this session holds of the shared budget (after {@link #end()}). */
  public void release() {
    forgetStatements();
    forgetUsed();
  }

  /** Statements this session remembers by id now. */
  public int statements() {
    return statements.size();
  }

  /** Accounted bytes this session holds of its budget (statement table and used shapes). */
  public long accountedBytes() {
    return statementBytes + usedBytes;
  }

  /** Accounted bytes of the statement table alone. */
  public long statementBytes() {
    return statementBytes;
  }

  /** This session's connection handle in the current recorder. */
  public ConnectionHandle connection() {
    return connection;
  }

  // ---- rules ------------------------------------------------------------------------------

  private void record(
      ShapeHandle shape, Via via, long latencyNanos, int errorCode, String sqlState) {
    shape.record(via, latencyNanos);
    shape.recordClient(clientSlot, via);
    if (errorCode != NO_ERROR) {
      shape.record(Via.ERRORS);
      shape.recordClient(clientSlot, Via.ERRORS);
      shape.recordError(errorCode, sqlState, latencyNanos);
    }
  }

  /** Counts one command of {@code via} of {@code shape} unanswered (a connection that closed). */
  public void recordUnanswered(ShapeHandle shape, Via via) {
    shape.record(via);
    shape.recordClient(clientSlot, via);
  }

  /** Counts a probe and its cause, or a business statement under the session's isolation. */
  private void ran(ShapeHandle shape) {
    Classification c = shape.classification();
    ProbeKind probe = c.probe();
    if (probe != null) {
      recorder.probe(probe, causes == null ? null : causes.current());
    } else if (isolation >= 0 && c.kind().isBusiness()) {
      recorder.statementUnder(isolation);
    }
  }

  /** Records that this connection used {@code shape}, telling the recorder only the first time. */
  private void used(ShapeHandle shape) {
    // A connection mostly repeats its last statement: skip the set lookup then.
    if (shape == lastUsed) {
      return;
    }
    lastUsed = shape;
    // Shapes are held here and in the connection handle's set: found in review at 364 KiB a
    // connection. They stop at MAX_SHAPES_PER_CONNECTION and each is paid for from the budget.
    String digest = shape.digest();
    if (usedCount < ProfileRecorder.MAX_SHAPES_PER_CONNECTION
        && !used.contains(digest)
        && usedBytes + USED_SHAPE_ENTRY_BYTES <= bytesPerSession
        && budget.reserve(USED_SHAPE_ENTRY_BYTES, bytesTotal)) {
      used.add(digest);
      usedCount++;
      usedBytes += USED_SHAPE_ENTRY_BYTES;
      connection.used(shape);
    }
  }

  private void forgetUsed() {
    budget.release(usedBytes);
    usedBytes = 0;
    usedCount = 0;
    used.clear();
    lastUsed = null;
  }

  private void releaseStatement() {
    statementBytes -= STATEMENT_ENTRY_BYTES;
    budget.release(STATEMENT_ENTRY_BYTES);
  }
}
