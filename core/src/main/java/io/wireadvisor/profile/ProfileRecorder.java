package io.wireadvisor.profile;

import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.Secrets;
import io.wireadvisor.sql.SqlClassifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The collectors' shared, thread-safe recording side of a {@link TrafficProfile}.
 *
 * <p>Hot path (a command of a text seen before): array-indexed {@link LongAdder}s, one {@code
 * ConcurrentHashMap.get}, lock-free histograms; no allocation once warm. Memory is bounded by
 * {@link RecorderSettings}: past {@code maxShapes} digests, new shapes are counted in the
 * overflow bucket.
 */
public final class ProfileRecorder {
  /** Texts longer than this (chars) are classified every time rather than remembered. */
  public static final int MAX_REMEMBERED_CHARS = 16 * 1024;
  /** Longest sample kept per shape with {@code sampleSql}; a longer one is cut, ending " ...". */
  public static final int MAX_SAMPLE_CHARS = 1024;
  /** Most distinct shapes counted per connection (the connection metrics saturate there). */
  public static final int MAX_SHAPES_PER_CONNECTION = 1024;
  /**
   * Accounted fixed cost of one shape: its counters, latency histogram, map node and template
   * (measured on a 64-bit JVM with compressed references, rounded up; see ProfileRecorderTest).
   */
  public static final int SHAPE_FIXED_BYTES = 3 * 1024;
  /** Accounted fixed cost of one remembered text besides its chars: map node, String, handle. */
  public static final int TEXT_FIXED_BYTES = 128;

  private static final AtomicLong IDS = new AtomicLong();

  /** Distinct per recorder; shapes keep it rather than the recorder (see ShapeAggregate). */
  private final long id = IDS.incrementAndGet();
  private final RecorderSettings settings;
  private final AtomicLong textBytes = new AtomicLong();
  private final AtomicLong shapeBytes = new AtomicLong();
  /**
   * Commands per type that were not timed; a timed one is counted by its latency histogram alone
   * ({@link #commandLatency}: its count), which saves the hot path an atomic add per command.
   */
  private final LongAdder[] untimedCommands = new LongAdder[CommandType.values().length];
  /** The isolation names {@link #statementUnder} counts by, in index order. */
  static final String[] ISOLATIONS = {
    "READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE", "default", "unknown"
  };
  /**
   * The index of {@code default}: the session's isolation at login, which the collector did not see
   * (the proxy); the advisor takes the server's global for it.
   */
  public static final int DEFAULT_ISOLATION = 4;
  private final LongAdder[] byIsolation = new LongAdder[ISOLATIONS.length];
  private final LongAdder transactions = new LongAdder();
  /** Pool borrows ended, those that ran statements outside transactions, and runs of such statements. */
  private final LongAdder borrows = new LongAdder();
  private final LongAdder borrowsOutside = new LongAdder();
  private final LongAdder outsideRuns = new LongAdder();
  /**
   * {@link System#nanoTime()} of the first and last execution of a non-DDL statement, taken from
   * the time the collector already read for the command's latency; made wall-clock times at
   * {@link #snapshot} from the offset taken when this recorder was made (the hot path reads no
   * wall clock: found costing ~20 ns a command in CommandHookBenchmark).
   */
  final TrafficSpan traffic = new TrafficSpan();
  private final ConcurrentHistogram[] commandLatency =
      new ConcurrentHistogram[CommandType.values().length];

  private final ConcurrentHashMap<String, ShapeHandle> byText = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ShapeAggregate> byDigest = new ConcurrentHashMap<>();
  private final AtomicInteger shapeSlots = new AtomicInteger();
  private final ShapeAggregate overflow;

  private final EnumMap<ProbeKind, ProbeAggregate> probes = new EnumMap<>(ProbeKind.class);

  private final Set<ConnectionHandle> openConnections = ConcurrentHashMap.newKeySet();
  private final ConnectionStats closedConnections = new ConnectionStats();

  private final ConcurrentHashMap<String, Source> sources = new ConcurrentHashMap<>();

  /**
   * Bytes a shape is charged for each client it keeps counters for ({@link #clientSlot}): an
   * array of {@link Via} counters and its slot. A shape holds at most {@link
   * ShapeStats#MAX_CLIENTS} of them, so at most {@link #MAX_CLIENT_BYTES_PER_SHAPE} bytes more.
   */
  public static final long CLIENT_COUNTER_BYTES = 40 + 8L * Via.values().length;

  /** The most a shape's per-client counters take (all slots in use). */
  public static final long MAX_CLIENT_BYTES_PER_SHAPE =
      16 + 4L * ShapeStats.MAX_CLIENTS + ShapeStats.MAX_CLIENTS * CLIENT_COUNTER_BYTES;

  /** Client keys by slot ({@link #clientSlot}); the last slot is {@link ShapeStats#OTHER_CLIENTS}. */
  private final String[] clientKeys = new String[ShapeStats.MAX_CLIENTS];
  /** Commands per client slot and type, made when the slot is. */
  private final LongAdder[][] clientCommands = new LongAdder[ShapeStats.MAX_CLIENTS][];
  private int clientSlots;

  public ProfileRecorder(RecorderSettings settings) {
    this.settings = settings;
    for (int i = 0; i < byIsolation.length; i++) {
      byIsolation[i] = new LongAdder();
    }
    for (int i = 0; i < untimedCommands.length; i++) {
      untimedCommands[i] = new LongAdder();
      commandLatency[i] = new ConcurrentHistogram(Histogram.LATENCY_PRECISION);
    }
    for (ProbeKind kind : ProbeKind.values()) {
      probes.put(kind, new ProbeAggregate());
    }
    ShapeStats o = ShapeStats.overflow(settings.maxShapes());
    this.overflow = new ShapeAggregate(this, o, null);
  }

  public RecorderSettings settings() {
    return settings;
  }

  /**
   * Counts one command on the wire.
   *
   * @param latencyNanos request-to-response time, or a negative value when not timed
   */
  public void command(CommandType type, long latencyNanos) {
    int i = type.ordinal();
    if (latencyNanos >= 0) {
      commandLatency[i].record(latencyNanos);
    } else {
      untimedCommands[i].increment();
    }
  }

  /**
   * The shape of a SQL text; never null (the overflow bucket when a cap is reached). Reads at most
   * {@link SqlClassifier#PREFIX_CHARS} characters of it; remembers it only when it is at most
   * {@link #MAX_REMEMBERED_CHARS} long.
   */
  public ShapeHandle shape(String sql) {
    return shape(sql, Escaping.UNKNOWN);
  }

  /**
   * The shape of a SQL text as the server reads it in {@code escaping} (the connection's mode, see
   * {@link Escaping}). A text whose reading depends on the mode is never remembered by text: its
   * shape in one connection's mode must not answer for another's.
   */
  public ShapeHandle shape(String sql, Escaping escaping) {
    if (sql.length() > MAX_REMEMBERED_CHARS) {
      return handle(SqlClassifier.classify(sql, escaping), sql, escaping);
    }
    ShapeHandle handle = byText.get(sql);
    if (handle != null) {
      return handle; // only texts read alike in every mode are remembered
    }
    return newHandle(sql, escaping);
  }

  /**
   * The shape of a statement of which only its head is at hand (the collector decoded no more);
   * nothing is remembered.
   *
   * @param head the statement's first characters
   * @param sqlLength the statement's whole length
   * @param truncated whether the statement continues after {@code head}
   */
  public ShapeHandle shape(String head, int sqlLength, boolean truncated) {
    return shape(head, sqlLength, truncated, Escaping.UNKNOWN);
  }

  /** As {@link #shape(String, int, boolean)}, read in {@code escaping}. */
  public ShapeHandle shape(String head, int sqlLength, boolean truncated, Escaping escaping) {
    return handle(SqlClassifier.classifyHead(head, sqlLength, truncated, escaping),
        truncated ? null : head, escaping);
  }

  /**
   * The handle in this recorder for the shape {@code other} has in another one (after a reset):
   * the same classification, counted here. Allocates; for the rare commands that cross windows.
   */
  public ShapeHandle rehome(ShapeHandle other) {
    if (other.aggregate.recorderId == id) {
      return other;
    }
    Classification c = other.classification();
    if (c.digestText().isEmpty()) {
      // A compact handle (a statement table's): its shape's own record still has the text.
      ShapeStats t = other.aggregate.template;
      c = Classification.of(t.digest(), t.digestText(), t.kind(), t.tablesRead(),
          t.tablesWritten(), t.probe(), c.sqlLength(), t.lockingRead());
    }
    return handle(c, null, Escaping.UNKNOWN);
  }

  /** Whether {@code shape} counts in this recorder. */
  public boolean owns(ShapeHandle shape) {
    return shape.aggregate.recorderId == id;
  }

  /**
   * Accounted bytes this recorder holds for texts and shapes (see {@link RecorderSettings}); the
   * per-connection and per-probe structures are not included.
   */
  public long accountedBytes() {
    return textBytes.get() + shapeBytes.get();
  }

  /** Accounted bytes of the remembered texts now (at most {@link RecorderSettings#maxTextBytes()}). */
  public long textBytes() {
    return textBytes.get();
  }

  /** Accounted bytes of the shapes now (at most {@link RecorderSettings#maxShapeBytes()}). */
  public long shapeBytes() {
    return shapeBytes.get();
  }

  private ShapeHandle handle(Classification c, String sample, Escaping escaping) {
    ShapeAggregate aggregate = byDigest.get(c.digest());
    if (aggregate == null) {
      aggregate = addShape(c, sample, escaping);
    }
    aggregate.observeLength(c.sqlLength());
    return new ShapeHandle(aggregate, c);
  }

  private ShapeHandle newHandle(String sql, Escaping escaping) {
    ShapeHandle handle = handle(SqlClassifier.classify(sql, escaping), sql, escaping);
    if (handle.classification().dependsOnEscaping()) {
      return handle;
    }
    long cost = TEXT_FIXED_BYTES + 2L * sql.length() + handle.retainedBytes();
    if (byText.size() >= settings.maxTexts()
        || textBytes.get() + cost > settings.maxTextBytes()) {
      // Forgetting texts loses no counts (they live per digest); it only costs re-classifying.
      byText.clear();
      textBytes.set(0);
    }
    ShapeHandle raced = byText.putIfAbsent(sql, handle);
    if (raced == null) {
      textBytes.addAndGet(cost);
    }
    return raced == null ? handle : raced;
  }

  private ShapeAggregate addShape(Classification c, String sql, Escaping escaping) {
    String sample = settings.sampleSql() && sql != null && mayBeSampled(c, sql, escaping)
        ? sample(sql) : null;
    long cost = shapeCost(c, sample);
    // One slot stays free for the overflow bucket, so a capped profile has maxShapes entries.
    if (shapeSlots.incrementAndGet() > settings.maxShapes() - 1) {
      shapeSlots.decrementAndGet();
      return overflow;
    }
    if (shapeBytes.addAndGet(cost) > settings.maxShapeBytes()) {
      shapeBytes.addAndGet(-cost);
      shapeSlots.decrementAndGet();
      return overflow;
    }
    ShapeStats template =
        new ShapeStats(
            c.digest(), c.digestText(), c.kind(), c.tablesRead(), c.tablesWritten(), c.probe(),
            0, 0);
    if (c.lockingRead()) {
      template.markLockingRead();
    }
    ShapeAggregate fresh = new ShapeAggregate(this, template, sample);
    ShapeAggregate raced = byDigest.putIfAbsent(c.digest(), fresh);
    if (raced != null) {
      shapeSlots.decrementAndGet();
      shapeBytes.addAndGet(-cost);
      return raced;
    }
    return fresh;
  }

  /**
   * Whether {@code --sample-sql} may keep {@code sql} as the sample of its shape: not when it may
   * carry a credential ({@link #mayHoldCredentials(Classification)}, {@link Secrets}: keys of
   * encryption functions, credential parameters of URLs, user variables set to strings), nor when
   * it was read only in part because its escaping mode was not known.
   */
  static boolean mayBeSampled(Classification c, String sql, Escaping escaping) {
    return !c.cutAtUnknownEscaping() && !mayHoldCredentials(c) && !Secrets.mayHold(sql, escaping);
  }

  /**
   * Account management and anything naming a password ({@code CREATE USER … IDENTIFIED BY '…'},
   * {@code SET PASSWORD}, {@code ALTER USER}, {@code GRANT … IDENTIFIED BY}, {@code CHANGE
   * MASTER TO MASTER_PASSWORD=…}): {@code --sample-sql} keeps no original text of these, whose
   * literals are credentials. Judged on the digest text, where literals are already {@code ?}.
   */
  public static boolean mayHoldCredentials(Classification c) {
    String d = c.digestText().toLowerCase(java.util.Locale.ROOT);
    return d.contains("identified") || d.contains("password") || d.contains("passwd")
        || d.matches("^\\s*(create|alter|drop|rename)\\s+user\\b.*") || d.startsWith("grant ")
        || d.contains("secret") || d.contains("token");
  }

  private static String sample(String sql) {
    return sql.length() <= MAX_SAMPLE_CHARS ? sql : sql.substring(0, MAX_SAMPLE_CHARS - 4) + " ...";
  }

  private static long shapeCost(Classification c, String sample) {
    long chars = c.digest().length() + c.digestText().length();
    for (String t : c.tablesRead()) {
      chars += t.length() + 24;
    }
    for (String t : c.tablesWritten()) {
      chars += t.length() + 24;
    }
    if (sample != null) {
      chars += sample.length();
    }
    return SHAPE_FIXED_BYTES + 2 * chars;
  }

  /**
   * Counts a session-variable probe and what caused it.
   *
   * @param cause the driver or pool call behind it ({@link ProbeStats#UNKNOWN_CAUSE} when the
   *     collector looked and could not tell), or null when the collector cannot see callers at all
   *     (the proxy): then only the count is kept and {@code causes} stays empty
   */
  public void probe(ProbeKind kind, String cause) {
    ProbeAggregate p = probes.get(kind);
    p.count.increment();
    if (cause == null) {
      return;
    }
    LongAdder byCause = p.causes.get(cause);
    if (byCause == null) {
      LongAdder fresh = new LongAdder();
      byCause = p.causes.putIfAbsent(cause, fresh);
      if (byCause == null) {
        byCause = fresh;
      }
    }
    byCause.increment();
  }

  /** Starts tracking a connection; call {@link ConnectionHandle#close()} when it ends. */
  public ConnectionHandle openConnection() {
    ConnectionHandle handle = new ConnectionHandle(this, System.currentTimeMillis());
    openConnections.add(handle);
    return handle;
  }

  void closed(ConnectionHandle handle, long[] values) {
    if (openConnections.remove(handle)) {
      synchronized (closedConnections) {
        closedConnections.recordConnection(values);
      }
    }
  }

  /**
   * The slot of the client {@code key} ({@link Source#clientKey()}): shapes and commands a session
   * records after {@link WireSession#client} count for it too. At most {@link
   * ShapeStats#MAX_CLIENTS} slots; past the last but one every new key shares the last, {@link
   * ShapeStats#OTHER_CLIENTS}.
   */
  public synchronized int clientSlot(String key) {
    for (int i = 0; i < clientSlots; i++) {
      if (clientKeys[i].equals(key)) {
        return i;
      }
    }
    if (clientSlots == clientKeys.length - 1) {
      key = ShapeStats.OTHER_CLIENTS;
      for (int i = 0; i < clientSlots; i++) {
        if (clientKeys[i].equals(key)) {
          return i;
        }
      }
    }
    if (clientSlots == clientKeys.length) {
      return clientKeys.length - 1;
    }
    LongAdder[] commands = new LongAdder[CommandType.values().length];
    for (int i = 0; i < commands.length; i++) {
      commands[i] = new LongAdder();
    }
    clientCommands[clientSlots] = commands;
    clientKeys[clientSlots] = key;
    return clientSlots++;
  }

  /** Counts one command of {@code type} for client {@code slot} ({@link #clientSlot}). */
  void clientCommand(int slot, CommandType type) {
    clientCommands[slot][type.ordinal()].increment();
  }

  /**
   * Registers where the traffic comes from. Sources of the same origin are kept once; each
   * snapshot reports them with its own time as their end.
   */
  public void source(Source source) {
    String key = source.collector() + '|' + source.instance() + '|' + source.driverName() + '|'
        + source.driverVersion() + '|'
        + source.jdbcUrl() + '|' + source.properties() + '|' + source.serverVersion() + '|'
        + source.isolation();
    sources.putIfAbsent(key, source);
  }

  /**
   * The index {@link #statementUnder} takes for an isolation name ({@code READ-COMMITTED},
   * {@code READ COMMITTED}, ...); the last index for null or anything else.
   */
  public static int isolationIndex(String isolation) {
    if (isolation != null) {
      String n = isolation.trim().toUpperCase(java.util.Locale.ROOT).replace(' ', '-').replace('_', '-');
      for (int i = 0; i < DEFAULT_ISOLATION; i++) {
        if (ISOLATIONS[i].equals(n)) {
          return i;
        }
      }
    }
    return ISOLATIONS.length - 1;
  }

  /**
   * One business statement ran under the isolation of index {@code isolationIndex}
   * ({@link #isolationIndex}): rules judge isolation by the traffic that ran under it.
   * Allocation-free.
   */
  public void statementUnder(int isolationIndex) {
    byIsolation[isolationIndex].increment();
  }

  /** One transaction with business statements in it ended (see {@link TrafficProfile#transactions()}). */
  public void transaction() {
    transactions.increment();
  }

  /**
   * A pool borrow ended (the agent: HikariCP took the connection back); {@code outside}: business
   * statements ran outside any transaction during it (see {@link TrafficProfile#borrowsOutsideTransaction()}).
   */
  public void borrow(boolean outside) {
    borrows.increment();
    if (outside) {
      borrowsOutside.increment();
    }
  }

  /** A run of consecutive statements outside transactions began on a connection. */
  public void outsideRun() {
    outsideRuns.increment();
  }

  /** A profile of everything recorded so far (counts are cumulative since the recorder began). */
  public TrafficProfile snapshot() {
    long now = System.currentTimeMillis();
    TrafficProfile p = new TrafficProfile();
    for (Source s : sources.values()) {
      p.addSource(
          new Source(
              s.collector(), s.collectorVersion(), s.instance(), s.driverName(), s.driverVersion(),
              s.serverVersion(), s.isolation(), s.jdbcUrl(), s.properties(), s.startMillis(),
              Math.max(s.startMillis(), now)));
    }
    for (CommandType type : CommandType.values()) {
      long untimed = untimedCommands[type.ordinal()].sum();
      if (untimed == 0 && commandLatency[type.ordinal()].isEmpty()) {
        continue;
      }
      Histogram latency = commandLatency[type.ordinal()].snapshot();
      long count = untimed + latency.count();
      if (count != 0) {
        p.addCommand(type, new CommandStats(count, latency.count() == 0 ? null : latency));
      }
    }
    for (int i = 0; i < byIsolation.length; i++) {
      p.addStatementsUnder(ISOLATIONS[i], byIsolation[i].sum());
    }
    p.addTransactions(transactions.sum());
    p.addBorrows(borrows.sum(), borrowsOutside.sum(), outsideRuns.sum());
    String[] keys;
    synchronized (this) {
      keys = Arrays.copyOf(clientKeys, clientSlots);
    }
    for (int slot = 0; slot < keys.length; slot++) {
      for (CommandType type : CommandType.values()) {
        p.addClientCommands(keys[slot], type, clientCommands[slot][type.ordinal()].sum());
      }
    }
    p.observeTraffic(traffic.firstMillis(), traffic.lastMillis());
    for (ShapeAggregate a : byDigest.values()) {
      p.addShape(a.snapshot(keys));
    }
    if (overflow.hasCounts()) {
      p.addShape(overflow.snapshot(keys));
    }
    for (Map.Entry<ProbeKind, ProbeAggregate> e : probes.entrySet()) {
      long count = e.getValue().count.sum();
      if (count != 0) {
        ProbeStats stats = new ProbeStats();
        stats.add(count);
        for (Map.Entry<String, LongAdder> c : e.getValue().causes.entrySet()) {
          stats.addCause(c.getKey(), c.getValue().sum());
        }
        p.addProbe(e.getKey(), stats);
      }
    }
    synchronized (closedConnections) {
      p.connections().add(closedConnections);
    }
    List<ConnectionHandle> open = new ArrayList<>(openConnections);
    for (ConnectionHandle c : open) {
      p.connections().recordConnection(c.values(now));
    }
    return p;
  }

  /** The recording side of one shape: counters shared by every text of the same digest. */
  static final class ShapeAggregate {
    /**
     * The recorder's id, not the recorder: a handle kept past a reset (a prepared statement's)
     * must pin only its own shape, never the old recorder with all its shapes and texts.
     */
    final long recorderId;
    final ShapeStats template;
    final String sample;
    final LongAdder[] counters = new LongAdder[Via.values().length];
    final ConcurrentHistogram latency = new ConcurrentHistogram(Histogram.LATENCY_PRECISION);
    final AtomicInteger minLength = new AtomicInteger(Integer.MAX_VALUE);
    final AtomicInteger maxLength = new AtomicInteger();
    /** The recorder's shape-byte account (not the recorder), charged for an error table. */
    final AtomicLong shapeBytes;
    /** The recorder's traffic span (not the recorder); null for DDL, which does not count. */
    final TrafficSpan traffic;
    /**
     * Whether a transaction's statement patterns judge this shape: a business statement, not a
     * probe, not the overflow bucket (decided once: the command path reads one field).
     */
    final boolean judged;
    /** Whether the shape is a BEGIN, COMMIT or ROLLBACK (decided once, like {@link #judged}). */
    final boolean controlsTransaction;
    /** ERR replies by code: a shape's error table, made on its first error; guarded by this. */
    private ShapeStats errors;
    final LongAdder rowsCounted = new LongAdder();
    final LongAdder rows = new LongAdder();
    /** Statement patterns (a shape's pattern table), made on the first; guarded by this. */
    private ShapeStats patterns;
    /** Counters per client slot, made on the first command a client session records. */
    private volatile AtomicReferenceArray<AtomicLongArray> clients;

    ShapeAggregate(ProfileRecorder recorder, ShapeStats template, String sample) {
      this.recorderId = recorder.id;
      this.shapeBytes = recorder.shapeBytes;
      this.traffic = template.kind() == io.wireadvisor.sql.StatementKind.DDL ? null : recorder.traffic;
      this.judged =
          !template.isOverflow() && template.probe() == null && template.kind().isBusiness();
      io.wireadvisor.sql.StatementKind kind = template.kind();
      this.controlsTransaction = kind == io.wireadvisor.sql.StatementKind.BEGIN
          || kind == io.wireadvisor.sql.StatementKind.COMMIT
          || kind == io.wireadvisor.sql.StatementKind.ROLLBACK;
      this.template = template;
      this.sample = sample;
      for (int i = 0; i < counters.length; i++) {
        counters[i] = new LongAdder();
      }
    }

    void observeLength(int length) {
      int m = minLength.get();
      while (length < m && !minLength.compareAndSet(m, length)) {
        m = minLength.get();
      }
      m = maxLength.get();
      while (length > m && !maxLength.compareAndSet(m, length)) {
        m = maxLength.get();
      }
    }

    boolean hasCounts() {
      for (LongAdder c : counters) {
        if (c.sum() != 0) {
          return true;
        }
      }
      return false;
    }

    /**
     * One ERR reply of {@code code}. Errors are rare, so a lock is fine here; the table is bounded
     * ({@link ShapeStats#MAX_ERROR_CODES}) and its bytes are charged to the shape account.
     */
    synchronized void error(int code, String sqlState, long latencyNanos) {
      if (errors == null) {
        errors = template.emptyCopy();
        shapeBytes.addAndGet(ShapeStats.ERROR_TABLE_BYTES);
      }
      errors.addError(code, sqlState, 1, latencyNanos >= 0 ? 1 : 0, Math.max(0, latencyNanos));
    }

    /**
     * One transaction's pattern of this shape. Patterns are judged once per transaction, so a lock
     * is fine; the table is bounded ({@link ShapeStats#MAX_PATTERNS}) and its bytes are charged to
     * the shape account when it is made.
     */
    synchronized void pattern(PatternStats.Kind kind, String partner, long executions, long rowsN,
        long timed, long nanos) {
      if (template.isOverflow()) {
        return; // the overflow bucket stands for many shapes: no pattern is its own
      }
      if (patterns == null) {
        patterns = template.emptyCopy();
        shapeBytes.addAndGet(ShapeStats.PATTERN_TABLE_BYTES);
      }
      patterns.addPattern(kind, partner, 1, executions, rowsN, timed, nanos);
    }

    synchronized void copyPatternsInto(ShapeStats s) {
      if (patterns != null) {
        for (PatternStats p : patterns.patterns()) {
          s.addPattern(p.kind(), p.partner(), p.transactions(), p.executions(), p.rows(),
              p.timed(), p.nanos());
        }
      }
    }

    synchronized void copyErrorsInto(ShapeStats s) {
      if (errors != null) {
        for (ServerError e : errors.errors().values()) {
          s.addError(e.code(), e.sqlState(), e.count(), e.timed(), e.nanos());
        }
      }
    }

    /** One command of {@code via} by client {@code slot}; charges the bytes of a new slot. */
    void client(int slot, Via via, long n) {
      AtomicReferenceArray<AtomicLongArray> c = clients;
      if (c == null) {
        synchronized (this) {
          c = clients;
          if (c == null) {
            c = new AtomicReferenceArray<>(ShapeStats.MAX_CLIENTS);
            shapeBytes.addAndGet(16 + 4L * ShapeStats.MAX_CLIENTS);
            clients = c;
          }
        }
      }
      AtomicLongArray counts = c.get(slot);
      if (counts == null) {
        AtomicLongArray made = new AtomicLongArray(Via.values().length);
        if (c.compareAndSet(slot, null, made)) {
          shapeBytes.addAndGet(CLIENT_COUNTER_BYTES);
          counts = made;
        } else {
          counts = c.get(slot);
        }
      }
      counts.addAndGet(via.ordinal(), n);
    }

    /** The per-client counters' accounted bytes (0 until a client recorded). */
    long clientBytes() {
      AtomicReferenceArray<AtomicLongArray> c = clients;
      if (c == null) {
        return 0;
      }
      long bytes = 16 + 4L * ShapeStats.MAX_CLIENTS;
      for (int i = 0; i < c.length(); i++) {
        bytes += c.get(i) == null ? 0 : CLIENT_COUNTER_BYTES;
      }
      return bytes;
    }

    ShapeStats snapshot(String[] clientKeys) {
      ShapeStats s = snapshot();
      AtomicReferenceArray<AtomicLongArray> c = clients;
      if (c != null) {
        for (int slot = 0; slot < clientKeys.length; slot++) {
          AtomicLongArray counts = c.get(slot);
          if (counts != null) {
            for (Via via : Via.values()) {
              s.addClient(clientKeys[slot], via, counts.get(via.ordinal()));
            }
          }
        }
      }
      return s;
    }

    ShapeStats snapshot() {
      ShapeStats s = template.emptyCopy();
      copyErrorsInto(s);
      copyPatternsInto(s);
      s.addRows(rowsCounted.sum(), rows.sum());
      int min = minLength.get();
      if (min != Integer.MAX_VALUE) {
        s.observeSqlLength(min);
        s.observeSqlLength(maxLength.get());
      }
      s.setSample(sample);
      for (Via via : Via.values()) {
        s.add(via, counters[via.ordinal()].sum());
      }
      Histogram h = latency.snapshot();
      s.setLatency(h.count() == 0 ? null : h);
      return s;
    }
  }

  private static final class ProbeAggregate {
    final LongAdder count = new LongAdder();
    final ConcurrentHashMap<String, LongAdder> causes = new ConcurrentHashMap<>();
  }

  /** Per-connection tracking; one per physical connection, used by one thread at a time. */
  public static final class ConnectionHandle {
    private final ProfileRecorder recorder;
    private final long openedMillis;
    private final AtomicLong prepared = new AtomicLong();
    private final AtomicLong commands = new AtomicLong();
    private final Set<String> preparedShapes = ConcurrentHashMap.newKeySet();
    private final Set<String> shapes = ConcurrentHashMap.newKeySet();

    ConnectionHandle(ProfileRecorder recorder, long openedMillis) {
      this.recorder = recorder;
      this.openedMillis = openedMillis;
    }

    /**
     * One command of any type sent on this connection. Its one writer at a time (the connection's
     * thread; a handover between threads goes through the pool's or the driver's locks) needs no
     * atomic add: a read and an ordered store, where {@code incrementAndGet} is a locked add.
     */
    public void command() {
      commands.lazySet(commands.get() + 1);
    }

    /** This connection sent COM_STMT_PREPARE for {@code shape}. */
    public void prepared(ShapeHandle shape) {
      prepared.incrementAndGet();
      addBounded(preparedShapes, shape.digest());
      addBounded(shapes, shape.digest());
    }

    /** Sets of digests grow with the traffic: they stop at MAX_SHAPES_PER_CONNECTION. */
    private static void addBounded(Set<String> set, String digest) {
      if (set.size() < MAX_SHAPES_PER_CONNECTION) {
        set.add(digest);
      }
    }

    /** This connection ran {@code shape} (by text or binary protocol). */
    public void used(ShapeHandle shape) {
      addBounded(shapes, shape.digest());
    }

    /** Distinct shapes prepared so far (to compare with {@code prepStmtCacheSize}). */
    public int distinctPreparedShapes() {
      return preparedShapes.size();
    }

    long[] values(long nowMillis) {
      long[] v = new long[ConnectionMetric.values().length];
      v[ConnectionMetric.PREPARED_STATEMENTS.ordinal()] = prepared.get();
      v[ConnectionMetric.DISTINCT_PREPARED_SHAPES.ordinal()] = preparedShapes.size();
      v[ConnectionMetric.DISTINCT_SHAPES.ordinal()] = shapes.size();
      v[ConnectionMetric.COMMANDS.ordinal()] = commands.get();
      v[ConnectionMetric.LIFETIME_MILLIS.ordinal()] = Math.max(0, nowMillis - openedMillis);
      return v;
    }

    /** The connection ended; its values join the closed-connection distributions. Idempotent. */
    public void close() {
      recorder.closed(this, values(System.currentTimeMillis()));
    }
  }

  /** One SQL text's route to its shape counters; cheap to keep, safe to share across threads. */
  public static final class ShapeHandle {
    private final ShapeAggregate aggregate;
    private final Classification classification;

    ShapeHandle(ShapeAggregate aggregate, Classification classification) {
      this.aggregate = aggregate;
      this.classification = classification;
    }

    /** The text's classification (its own, even when counted in the overflow bucket). */
    public Classification classification() {
      return classification;
    }

    /** The digest counted under: the overflow digest once the cap is reached. */
    public String digest() {
      return aggregate.template.digest();
    }

    public boolean isOverflow() {
      return aggregate.template.isOverflow();
    }

    /**
     * The same counters and digest, with a classification stripped of its text and tables: what
     * a long-lived per-statement map should keep (a fixed few dozen bytes per entry).
     */
    public ShapeHandle compact() {
      ShapeHandle c = compact;
      if (c == null) {
        Classification slim = classification.withoutText();
        c = slim == classification ? this : new ShapeHandle(aggregate, slim);
        compact = c; // made once per handle: a prepare on the hot path allocates nothing
      }
      return c;
    }

    private volatile ShapeHandle compact;

    /**
     * Accounted bytes of this handle and its classification (digest and digest text, table
     * names), not counting the shape's counters, which all handles of a digest share.
     */
    public long retainedBytes() {
      Classification c = classification;
      long chars = c.digest().length() + c.digestText().length();
      for (String t : c.tablesRead()) {
        chars += t.length() + 24;
      }
      for (String t : c.tablesWritten()) {
        chars += t.length() + 24;
      }
      return 160 + 2 * chars;
    }

    /** Counts one command of this shape. */
    public void record(Via via) {
      aggregate.counters[via.ordinal()].increment();
      if (via == Via.EXECUTES || via == Via.TEXT_EXECUTES) {
        // The clock only for what the span takes: an error or OUTSIDE_TRANSACTION count read it
        // for nothing (~18 ns, found with CommandHookBenchmark.comQueryDmlWithOk).
        span(via, System.nanoTime());
      }
    }

    private void span(Via via, long nowNanos) {
      if (aggregate.traffic != null && (via == Via.EXECUTES || via == Via.TEXT_EXECUTES)) {
        aggregate.traffic.observe(nowNanos);
      }
    }

    /** Counts one command of this shape and its latency. */
    public void record(Via via, long latencyNanos) {
      record(via, latencyNanos, System.nanoTime());
    }

    /**
     * Counts one command of this shape and its latency; {@code endNanos} is the {@link
     * System#nanoTime()} at which it completed (the time the collector took for its latency), so
     * the traffic span reads no clock of its own.
     */
    public void record(Via via, long latencyNanos, long endNanos) {
      aggregate.counters[via.ordinal()].increment();
      span(via, endNanos);
      if (latencyNanos >= 0) {
        aggregate.latency.record(latencyNanos);
      }
    }

    /**
     * Counts one ERR reply of this shape by its server code ({@link ServerError#OTHER} when
     * unknown) and SQLSTATE (null when unknown); {@link Via#ERRORS} is counted apart.
     */
    public void recordError(int code, String sqlState, long latencyNanos) {
      aggregate.error(code, sqlState, latencyNanos);
    }

    /** The shape's own record (kind and tables even when this handle is compact). */
    ShapeStats stats() {
      return aggregate.template;
    }

    /** Whether transactions' statement patterns judge this shape (see TransactionPatterns). */
    boolean judged() {
      return aggregate.judged;
    }

    /** Whether the shape is a BEGIN, COMMIT or ROLLBACK (see WireSession's transactions). */
    boolean controlsTransaction() {
      return aggregate.controlsTransaction;
    }

    /** Whether {@code other} counts in the same shape (of the same recorder). */
    boolean sameShape(ShapeHandle other) {
      return other != null && other.aggregate == aggregate;
    }

    /** One execution of this shape returned {@code n} rows (a result set read in full). */
    public void recordRows(long n) {
      aggregate.rowsCounted.increment();
      aggregate.rows.add(n);
    }

    /**
     * One transaction in which this shape was part of {@code kind} with the statement of digest
     * {@code partner} ("" when unknown): {@code executions} of it, returning {@code rows}, of which
     * {@code timed} took {@code nanos}.
     */
    public void recordPattern(PatternStats.Kind kind, String partner, long executions, long rows,
        long timed, long nanos) {
      aggregate.pattern(kind, partner, executions, rows, timed, nanos);
    }

    /** Counts {@code n} events at once (e.g. the statements of one batch). */
    public void add(Via via, long n) {
      aggregate.counters[via.ordinal()].add(n);
    }

    /** Counts one command of {@code via} for client {@code slot} too ({@link #clientSlot}). */
    public void recordClient(int slot, Via via) {
      if (slot >= 0 && slot < ShapeStats.MAX_CLIENTS) {
        aggregate.client(slot, via, 1);
      }
    }

    /** The accounted bytes of this shape's per-client counters. */
    public long clientBytes() {
      return aggregate.clientBytes();
    }
  }

  /**
   * First and last execution times, shared by a recorder's shapes: {@link System#nanoTime()}
   * values, made wall-clock milliseconds from the offset taken when the span was made. The last
   * time moves only when it is a millisecond behind (the profile's resolution), so a busy recorder
   * does not write one shared word per command.
   */
  static final class TrafficSpan {
    private static final long NONE = Long.MIN_VALUE;
    private static final long GRANULE_NANOS = 1_000_000;
    private final long originMillis = System.currentTimeMillis();
    private final long originNanos = System.nanoTime();
    final AtomicLong first = new AtomicLong(NONE);
    final AtomicLong last = new AtomicLong(NONE);

    void observe(long nowNanos) {
      long l = last.get();
      if (l != NONE && nowNanos - l < GRANULE_NANOS) {
        return;
      }
      if (first.get() == NONE) {
        first.compareAndSet(NONE, nowNanos);
      }
      while ((l == NONE || nowNanos - l > 0) && !last.compareAndSet(l, nowNanos)) {
        l = last.get();
      }
    }

    /** The first execution, epoch milliseconds (rounded up), 0 before any. */
    long firstMillis() {
      return millis(first.get());
    }

    /** The last execution, epoch milliseconds (rounded up), 0 before any. */
    long lastMillis() {
      return millis(last.get());
    }

    private long millis(long nanos) {
      if (nanos == NONE) {
        return 0;
      }
      long d = nanos - originNanos;
      // Rounded up: the origin's wall clock was read truncated to its millisecond.
      return originMillis + (d >= 0 ? (d + GRANULE_NANOS - 1) / GRANULE_NANOS : d / GRANULE_NANOS);
    }
  }
}
