package io.wireadvisor.profile;

import io.wireadvisor.profile.ProfileRecorder.ConnectionHandle;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import io.wireadvisor.sql.TransactionSet;
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
 *       connection sends ({@link #sent}) until the next reply;
 *   <li>where the collector does not know the isolation otherwise (the proxy, {@link
 *       #followTransactionSets}), the connection's isolation and access mode from the texts it
 *       sends ({@link TransactionSet}): the session's, the next transaction's ({@code SET
 *       TRANSACTION ...}, used by the statements up to the first reply outside a transaction), and
 *       {@code START TRANSACTION READ ONLY}'s; the session's value at login is {@code default}
 *       ({@link ProfileRecorder#DEFAULT_ISOLATION}), which the advisor reads from the server.
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
  /**
   * Executions of one SELECT shape in one transaction, each returning at most one row, from which
   * the transaction counts as N+1 loading ({@link PatternStats.Kind#N_PLUS_ONE}).
   */
  public static final int N_PLUS_ONE_MIN_EXECUTIONS = 3;
  /**
   * Accounted bytes of a session's transaction window ({@link #patternBytes()}), fixed: allocated
   * once with the session, never grown.
   */
  public static final long PATTERN_WINDOW_BYTES = TransactionPatterns.ACCOUNTED_BYTES;

  /** Where a probe came from, when the collector can tell (the agent: the application's frame). */
  public interface CauseSource {
    /** The caller to charge the probe to, or null. */
    String current();
  }

  /** Bytes held by every session sharing it, and what did not fit. Thread-safe. */
  public static final class Budget {
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong untracked = new AtomicLong();
    /**
     * Set once any session of the collector saw a pool borrow end ({@link #borrowEnded}): from then
     * on statements outside transactions are judged for patterns per borrow, not one by one.
     */
    private volatile boolean borrowsSeen;

    /** Whether a session sharing this budget saw a pool borrow end. */
    public boolean borrowsSeen() {
      return borrowsSeen;
    }

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
  /** The current transaction's shapes, judged for statement patterns when it ends. */
  private final TransactionPatterns transaction = new TransactionPatterns();
  /**
   * The shape of the last execution recorded, to which {@link #result} adds rows, while {@link
   * #executedValid}. The flag is what each command resets, not the reference: a reference store
   * pays the collector's write barrier, and a connection mostly repeats its last statement, so
   * the reference changes only with the statement. (On a connection in the old generation the
   * barrier may fence; in CommandHookBenchmark, whose objects stay young, it did not show.)
   */
  private ShapeHandle lastExecuted;
  private boolean executedValid;
  /**
   * A result of {@link #lastExecuted} was heard with more to follow (a multi-statement query or a
   * CALL): its rows were taken, and the transaction is judged at the last result's status.
   */
  private boolean resultsFollow;
  /** This borrow (since the last {@link #borrowEnded}) ran a business statement outside a transaction. */
  private boolean borrowOutside;
  /** The last statement ended outside a transaction: a run of such statements is open. */
  private boolean outsideRun;
  /** {@link System#nanoTime()} at which the last command completed ({@link #command}). */
  private long endNanos = System.nanoTime();
  /** -1: this collector cannot tell the isolation, so statements are not counted by it. */
  private int isolation = -1;

  // ---- transaction characteristics followed from texts (fixed size: a few ints) ----
  /** Access modes ({@link #accessMode()}). */
  public static final int ACCESS_DEFAULT = 0;

  public static final int ACCESS_READ_ONLY = 1;
  public static final int ACCESS_READ_WRITE = 2;
  public static final int ACCESS_UNKNOWN = 3;
  /** Whether texts set the isolation and access mode (the proxy); the agent tells them itself. */
  private boolean followsTransactionSets;
  /** {@code SET @@transaction_isolation = v} applies to the next transaction (MySQL), not the session. */
  private boolean unscopedVariableIsNextTransaction;
  /** The next transaction's isolation ({@code SET TRANSACTION ...}), -1 when none is pending. */
  private int nextIsolation = -1;
  private int accessMode = ACCESS_DEFAULT;
  private int nextAccessMode = -1;
  /** {@code START TRANSACTION READ ONLY | READ WRITE}: the running transaction's, or -1. */
  private int transactionAccessMode = -1;
  /** The last reply's SERVER_STATUS_IN_TRANS. */
  private boolean inTransaction;
  /** The state before the last text that changed it, restored when the server refuses the text. */
  private int savedIsolation;
  private int savedNextIsolation;
  private int savedAccessMode;
  private int savedNextAccessMode;
  private int savedTransactionAccessMode;
  private boolean transactionSetGuessed;
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
      transaction.clear(); // its shapes count in the old window
      lastExecuted = null;
      executedValid = false;
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

  /**
   * Follows the connection's isolation and access mode from the texts it sends, from the session's
   * value at login ({@link ProfileRecorder#DEFAULT_ISOLATION}) on: for a collector that does not see
   * them otherwise (the proxy). {@code unscopedVariableIsNextTransaction}: whether the server applies
   * {@code SET @@transaction_isolation = v} to the next transaction only (MySQL) rather than to
   * the session (TiDB).
   */
  public void followTransactionSets(boolean unscopedVariableIsNextTransaction) {
    this.followsTransactionSets = true;
    this.unscopedVariableIsNextTransaction = unscopedVariableIsNextTransaction;
    if (isolation < 0) {
      isolation = ProfileRecorder.DEFAULT_ISOLATION;
    }
  }

  /**
   * The isolation index the connection's next business statement counts under: the pending next
   * transaction's if any, else the session's; -1 when not counted.
   */
  public int isolation() {
    return nextIsolation >= 0 ? nextIsolation : isolation;
  }

  /** The session's isolation index (what later transactions take), -1 when not counted. */
  public int sessionIsolation() {
    return isolation;
  }

  /**
   * The access mode the connection's statements run in now ({@link #ACCESS_DEFAULT}: the session's
   * at login, not changed by a text seen): the running transaction's, the next one's, the session's.
   */
  public int accessMode() {
    return transactionAccessMode >= 0 ? transactionAccessMode
        : nextAccessMode >= 0 ? nextAccessMode : accessMode;
  }

  /** Applies a text's change (see {@link TransactionSet}) as the server will once it runs it. */
  private void transactionSet(TransactionSet set) {
    savedIsolation = isolation;
    savedNextIsolation = nextIsolation;
    savedAccessMode = accessMode;
    savedNextAccessMode = nextAccessMode;
    savedTransactionAccessMode = transactionAccessMode;
    transactionSetGuessed = true;
    if (set.isolation() != null) {
      int index = isolationIndex(set.isolation());
      if (scope(set.isolationScope()) == TransactionSet.Scope.SESSION) {
        isolation = index;
        nextIsolation = -1; // the session's value is the next transaction's too
      } else {
        nextIsolation = set.isolation().equals(TransactionSet.DEFAULT) ? -1 : index;
      }
    }
    if (set.accessMode() != null) {
      int mode = accessModeOf(set.accessMode());
      TransactionSet.Scope scope = scope(set.accessModeScope());
      if (scope == TransactionSet.Scope.SESSION) {
        accessMode = mode;
        nextAccessMode = -1;
      } else if (scope == TransactionSet.Scope.THIS_TRANSACTION) {
        transactionAccessMode = mode;
        nextAccessMode = -1;
      } else {
        nextAccessMode = mode == ACCESS_DEFAULT ? -1 : mode;
      }
    }
  }

  private TransactionSet.Scope scope(TransactionSet.Scope s) {
    if (s == TransactionSet.Scope.UNSCOPED_VARIABLE) {
      return unscopedVariableIsNextTransaction
          ? TransactionSet.Scope.NEXT_TRANSACTION
          : TransactionSet.Scope.SESSION;
    }
    return s;
  }

  private static int isolationIndex(String name) {
    return name.equals(TransactionSet.DEFAULT)
        ? ProfileRecorder.DEFAULT_ISOLATION
        : ProfileRecorder.isolationIndex(name); // UNKNOWN: the last index
  }

  private static int accessModeOf(String mode) {
    if (mode.equals(TransactionSet.READ_ONLY)) {
      return ACCESS_READ_ONLY;
    }
    if (mode.equals(TransactionSet.READ_WRITE)) {
      return ACCESS_READ_WRITE;
    }
    return mode.equals(TransactionSet.DEFAULT) ? ACCESS_DEFAULT : ACCESS_UNKNOWN;
  }

  /**
   * A statement's reply completed: the text that changed the characteristics is confirmed; any
   * other statement that ended outside a transaction ends the one-transaction values.
   */
  private void afterStatement(Classification c) {
    if (c.transactionSet() != null) {
      transactionSetGuessed = false;
      if (c.transactionSet().accessModeScope() != TransactionSet.Scope.THIS_TRANSACTION) {
        return;
      }
    }
    if (!inTransaction) {
      nextIsolation = -1;
      nextAccessMode = -1;
      transactionAccessMode = -1;
    }
  }

  /**
   * The server began a new session state (COM_CHANGE_USER, COM_RESET_CONNECTION): the escaping
   * mode is not known, the isolation and access mode are the login's again.
   */
  public void sessionReset() {
    escapingReset();
    if (followsTransactionSets) {
      isolation = ProfileRecorder.DEFAULT_ISOLATION;
      nextIsolation = -1;
      accessMode = ACCESS_DEFAULT;
      nextAccessMode = -1;
      transactionAccessMode = -1;
      inTransaction = false;
      transactionSetGuessed = false;
    }
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
    if (followsTransactionSets && c.transactionSet() != null) {
      transactionSet(c.transactionSet());
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
    if (transactionSetGuessed) {
      // Refused (1568: characteristics cannot change inside a transaction, or a bad value).
      isolation = savedIsolation;
      nextIsolation = savedNextIsolation;
      accessMode = savedAccessMode;
      nextAccessMode = savedNextAccessMode;
      transactionAccessMode = savedTransactionAccessMode;
      transactionSetGuessed = false;
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
      inTransaction = (status & Replies.SERVER_STATUS_IN_TRANS) != 0;
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
    command(type, latencyNanos, System.nanoTime());
  }

  /**
   * As {@link #command(CommandType, long)}, with the {@link System#nanoTime()} at which the
   * command completed ({@code endNanos}, the time the collector took for its latency): the shape
   * recorded next for this command takes its traffic time from it, reading no clock.
   */
  public void command(CommandType type, long latencyNanos, long endNanos) {
    this.endNanos = endNanos;
    recorder.command(type, latencyNanos);
    if (clientSlot >= 0) {
      recorder.clientCommand(clientSlot, type);
    }
    connection.command();
    executedValid = false;
    resultsFollow = false;
  }

  /**
   * What the reply to the last command (a COM_QUERY or COM_STMT_EXECUTE that succeeded) said, told
   * after the command was recorded: {@code rows} the rows of its result sets read in full (summed
   * over multi-results; < 0 when none or not counted: an OK, a cursor, a streamed result), {@code
   * status} the server's status flags that ended it (< 0 when not at hand). Rows go to the
   * shape and to the transaction's judgment; a status without {@code SERVER_STATUS_IN_TRANS}
   * ends the transaction (a statement under autocommit is one on its own), and its patterns are
   * judged.
   */
  /**
   * The status of a result that came after one with {@code SERVER_MORE_RESULTS_EXISTS} and was
   * heard on its own (the agent: an OK that ends a multi-statement reply): judged as {@link
   * #result}'s last status; ignored when no earlier result of the last execution said more would
   * follow, so an OK already judged at its command is not judged twice.
   */
  public void followingResult(int status) {
    if (resultsFollow) {
      result(-1, status);
    }
  }

  /**
   * Whether a result of the last execution said more would follow and the last has not been heard
   * yet: only then does {@link #followingResult} change anything.
   */
  public boolean resultsFollow() {
    return resultsFollow;
  }

  public void result(long rows, int status) {
    ShapeHandle executed = executedValid ? lastExecuted : null;
    if (rows >= 0 && executed != null && !resultsFollow) {
      executed.recordRows(rows);
      transaction.rows(rows);
    }
    if (status >= 0 && (status & Replies.SERVER_MORE_RESULTS_EXISTS) != 0) {
      // The agent hears every result of a multi-statement query or a CALL, the proxy only the
      // reply's last status: the rows are the first result's (as the proxy counts them) and the
      // transaction is judged at the last result, for both. Found by OneTrafficTwoCollectorsIT:
      // "select ?; select ?; update ..." under autocommit was outside a transaction for the proxy
      // and not for the agent.
      resultsFollow = true;
      return;
    }
    resultsFollow = false;
    executedValid = false;
    if (status >= 0 && (status & Replies.SERVER_STATUS_IN_TRANS) == 0) {
      if (outsideTransaction(executed, status)) {
        transaction.outside(recorder, budget.borrowsSeen);
      } else if (!transaction.inRun() || (status & Replies.SERVER_STATUS_AUTOCOMMIT) == 0) {
        transaction.end(recorder);
      }
    } else if (status >= 0 && (status & Replies.SERVER_MORE_RESULTS_EXISTS) == 0) {
      outsideRun = false; // in a transaction: a run of statements outside one ended
    }
  }

  /**
   * Whether the statement just answered ({@code executed}, null when none succeeded) was a business
   * statement that ran outside any transaction (status: autocommit on, no transaction open); counts
   * it ({@link Via#OUTSIDE_TRANSACTION}), the borrow and the run it belongs to. A reply with
   * autocommit off ends the run.
   */
  private boolean outsideTransaction(ShapeHandle executed, int status) {
    if ((status & Replies.SERVER_MORE_RESULTS_EXISTS) != 0) {
      return false;
    }
    if ((status & Replies.SERVER_STATUS_AUTOCOMMIT) == 0) {
      outsideRun = false;
      return false;
    }
    if (executed == null) {
      return false;
    }
    ShapeStats st = executed.stats();
    if (st.probe() != null || st.kind() == null || !st.kind().isBusiness()) {
      return false;
    }
    executed.record(Via.OUTSIDE_TRANSACTION);
    executed.recordClient(clientSlot, Via.OUTSIDE_TRANSACTION);
    borrowOutside = true;
    if (!outsideRun) {
      outsideRun = true;
      recorder.outsideRun();
    }
    return true;
  }

  /**
   * The pool took the connection back (the agent: HikariCP's {@code ProxyConnection.close}, after
   * its rollback and reset): counts the borrow, and whether it ran statements outside transactions
   * ({@link TrafficProfile#borrowsOutsideTransaction()}); ends the run of such statements and the
   * pattern window that held them (judged per borrow from now on, for every session of this
   * collector).
   */
  public void borrowEnded() {
    budget.borrowsSeen = true;
    recorder.borrow(borrowOutside);
    borrowOutside = false;
    outsideRun = false;
    if (transaction.inRun()) {
      transaction.end(recorder);
    }
  }

  /** Accounted bytes of this session's transaction window: fixed ({@link #PATTERN_WINDOW_BYTES}). */
  public long patternBytes() {
    return PATTERN_WINDOW_BYTES;
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
    executed(shape, latencyNanos, errorCode);
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
      executed(shape, latencyNanos, errorCode);
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
    transaction.clear(); // a new server session: its transaction, if any, was rolled back
    lastExecuted = null;
    executedValid = false;
  }

  /**
   * The connection ended (COM_QUIT, closed, or found collected). Releases its bytes; idempotent.
   * A transaction still open is not judged: the server rolls it back, and an abort may call this
   * from another thread than the one using the window.
   */
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
    shape.record(via, latencyNanos, endNanos);
    int client = clientSlot;
    if (client >= 0) {
      shape.recordClient(client, via);
    }
    if (errorCode != NO_ERROR) {
      recordError(shape, latencyNanos, errorCode, sqlState);
    }
  }

  private void recordError(ShapeHandle shape, long latencyNanos, int errorCode, String sqlState) {
    shape.record(Via.ERRORS);
    shape.recordClient(clientSlot, Via.ERRORS);
    shape.recordError(errorCode, sqlState, latencyNanos);
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
      probe(probe);
    } else if (isolation >= 0 && c.kind().isBusiness()) {
      recorder.statementUnder(nextIsolation >= 0 ? nextIsolation : isolation);
    }
    if (followsTransactionSets) {
      afterStatement(c);
    }
  }

  private void probe(ProbeKind probe) {
    recorder.probe(probe, causes == null ? null : causes.current());
  }

  /**
   * One execution in the current transaction; a COMMIT or ROLLBACK ends it, a BEGIN or START
   * TRANSACTION starts a new one (the server commits the open one), whether or not the reply's
   * status flags come (see {@link #result}).
   */
  private void executed(ShapeHandle shape, long latencyNanos, int errorCode) {
    if (shape.controlsTransaction() || errorCode != NO_ERROR) {
      executedRarely(shape, latencyNanos, errorCode);
      return;
    }
    transaction.executed(shape, latencyNanos);
    if (lastExecuted != shape) {
      lastExecuted = shape;
    }
    executedValid = true;
    resultsFollow = false;
  }

  /** {@link #executed} of a BEGIN, COMMIT or ROLLBACK, or of a statement that failed. */
  private void executedRarely(ShapeHandle shape, long latencyNanos, int errorCode) {
    StatementKind kind = shape.stats().kind();
    if (kind == StatementKind.BEGIN) {
      transaction.end(recorder);
    }
    if (errorCode != NO_ERROR) {
      return;
    }
    transaction.executed(shape, latencyNanos);
    if (lastExecuted != shape) {
      lastExecuted = shape;
    }
    executedValid = true;
    resultsFollow = false;
    if (kind == StatementKind.COMMIT || kind == StatementKind.ROLLBACK) {
      transaction.end(recorder);
    }
  }

  /** Records that this connection used {@code shape}, telling the recorder only the first time. */
  private void used(ShapeHandle shape) {
    // A connection mostly repeats its last statement: skip the set lookup then.
    if (shape != lastUsed) {
      usedFirst(shape);
    }
  }

  private void usedFirst(ShapeHandle shape) {
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
