package io.wireadvisor.profile;

import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.SqlClassifier;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
  private final RecorderSettings settings;
  private final LongAdder[] commandCounts = new LongAdder[CommandType.values().length];
  private final ConcurrentHistogram[] commandLatency =
      new ConcurrentHistogram[CommandType.values().length];

  private final ConcurrentHashMap<String, ShapeHandle> byText = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ShapeAggregate> byDigest = new ConcurrentHashMap<>();
  private final AtomicInteger shapeSlots = new AtomicInteger();
  /** Estimated bytes held by {@link #byText} (keys and handles). */
  private final AtomicLong textBytes = new AtomicLong();
  /** Estimated bytes held by shapes beyond their counters (texts, tables, samples). */
  private final AtomicLong shapeBytes = new AtomicLong();
  private final ShapeAggregate overflow;

  private final EnumMap<ProbeKind, ProbeAggregate> probes = new EnumMap<>(ProbeKind.class);

  private final Set<ConnectionHandle> openConnections = ConcurrentHashMap.newKeySet();
  private final ConnectionStats closedConnections = new ConnectionStats();

  private final ConcurrentHashMap<String, Source> sources = new ConcurrentHashMap<>();

  public ProfileRecorder(RecorderSettings settings) {
    this.settings = settings;
    for (int i = 0; i < commandCounts.length; i++) {
      commandCounts[i] = new LongAdder();
      commandLatency[i] = new ConcurrentHistogram(Histogram.LATENCY_PRECISION);
    }
    for (ProbeKind kind : ProbeKind.values()) {
      probes.put(kind, new ProbeAggregate());
    }
    ShapeStats o = ShapeStats.overflow(settings.maxShapes());
    this.overflow = new ShapeAggregate(o, null);
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
    commandCounts[i].increment();
    if (latencyNanos >= 0) {
      commandLatency[i].record(latencyNanos);
    }
  }

  /** The shape of a SQL text; never null (the overflow bucket when the cap is reached). */
  public ShapeHandle shape(String sql) {
    ShapeHandle handle = byText.get(sql);
    if (handle != null) {
      return handle;
    }
    return newHandle(sql);
  }

  private ShapeHandle newHandle(String sql) {
    Classification c = SqlClassifier.classify(sql);
    ShapeAggregate aggregate = byDigest.get(c.digest());
    if (aggregate == null) {
      aggregate = addShape(c, sql);
    }
    aggregate.observeLength(sql.length());
    ShapeHandle handle = new ShapeHandle(aggregate, c);
    long cost = TEXT_ENTRY_BYTES + Classification.stringBytes(sql) + c.retainedBytes();
    if (byText.size() >= settings.maxTexts()
        || textBytes.get() + cost > settings.maxTextBytes()) {
      // Forgetting texts loses no counts (they live per digest); it only costs re-classifying.
      byText.clear();
      textBytes.set(0);
    }
    if (cost > settings.maxTextBytes()) {
      return handle; // larger than the whole memory: classified each time, never kept
    }
    ShapeHandle raced = byText.putIfAbsent(sql, handle);
    if (raced == null) {
      textBytes.addAndGet(cost);
      return handle;
    }
    return raced;
  }

  /** Map node, key string header and handle, besides the texts themselves. */
  private static final long TEXT_ENTRY_BYTES = 64;
  /** A shape's counters, histogram and map entry, besides its texts (an estimate). */
  private static final long SHAPE_ENTRY_BYTES = 1024;

  /**
   * Estimated bytes of remembered texts now (at most {@link RecorderSettings#maxTextBytes()},
   * plus what concurrent writers add in the instant of a reset).
   */
  public long textBytes() {
    return textBytes.get();
  }

  /** Estimated bytes shapes hold beyond their counters (at most {@code maxShapeBytes}). */
  public long shapeBytes() {
    return shapeBytes.get();
  }

  private ShapeAggregate addShape(Classification c, String sql) {
    // One slot stays free for the overflow bucket, so a capped profile has maxShapes entries.
    if (shapeSlots.incrementAndGet() > settings.maxShapes() - 1) {
      shapeSlots.decrementAndGet();
      return overflow;
    }
    String sample = settings.sampleSql() ? sql : null;
    long cost = SHAPE_ENTRY_BYTES + c.retainedBytes() + Classification.stringBytes(sample);
    if (shapeBytes.addAndGet(cost) > settings.maxShapeBytes()) {
      shapeBytes.addAndGet(-cost);
      shapeSlots.decrementAndGet();
      return overflow;
    }
    ShapeStats template =
        new ShapeStats(
            c.digest(), c.digestText(), c.kind(), c.tablesRead(), c.tablesWritten(), c.probe(),
            0, 0);
    ShapeAggregate fresh = new ShapeAggregate(template, sample);
    ShapeAggregate raced = byDigest.putIfAbsent(c.digest(), fresh);
    if (raced != null) {
      shapeSlots.decrementAndGet();
      shapeBytes.addAndGet(-cost);
      return raced;
    }
    return fresh;
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
   * Registers where the traffic comes from. Sources of the same origin are kept once; each
   * snapshot reports them with its own time as their end.
   */
  public void source(Source source) {
    String key = source.collector() + '|' + source.instance() + '|' + source.driverVersion() + '|'
        + source.jdbcUrl() + '|' + source.properties() + '|' + source.serverVersion() + '|'
        + source.isolation();
    sources.putIfAbsent(key, source);
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
      long count = commandCounts[type.ordinal()].sum();
      if (count != 0) {
        Histogram latency = commandLatency[type.ordinal()].snapshot();
        p.addCommand(type, new CommandStats(count, latency.count() == 0 ? null : latency));
      }
    }
    for (ShapeAggregate a : byDigest.values()) {
      p.addShape(a.snapshot());
    }
    if (overflow.hasCounts()) {
      p.addShape(overflow.snapshot());
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
    final ShapeStats template;
    final String sample;
    final LongAdder[] counters = new LongAdder[Via.values().length];
    final ConcurrentHistogram latency = new ConcurrentHistogram(Histogram.LATENCY_PRECISION);
    final AtomicInteger minLength = new AtomicInteger(Integer.MAX_VALUE);
    final AtomicInteger maxLength = new AtomicInteger();

    ShapeAggregate(ShapeStats template, String sample) {
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

    ShapeStats snapshot() {
      ShapeStats s = template.emptyCopy();
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

    /** One command of any type sent on this connection. */
    public void command() {
      commands.incrementAndGet();
    }

    /** This connection sent COM_STMT_PREPARE for {@code shape}. */
    public void prepared(ShapeHandle shape) {
      prepared.incrementAndGet();
      preparedShapes.add(shape.digest());
      shapes.add(shape.digest());
    }

    /** This connection ran {@code shape} (by text or binary protocol). */
    public void used(ShapeHandle shape) {
      shapes.add(shape.digest());
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
      Classification slim = classification.withoutText();
      return slim == classification ? this : new ShapeHandle(aggregate, slim);
    }

    /** Counts one command of this shape. */
    public void record(Via via) {
      aggregate.counters[via.ordinal()].increment();
    }

    /** Counts one command of this shape and its latency. */
    public void record(Via via, long latencyNanos) {
      aggregate.counters[via.ordinal()].increment();
      if (latencyNanos >= 0) {
        aggregate.latency.record(latencyNanos);
      }
    }

    /** Counts {@code n} events at once (e.g. the statements of one batch). */
    public void add(Via via, long n) {
      aggregate.counters[via.ordinal()].add(n);
    }
  }
}
