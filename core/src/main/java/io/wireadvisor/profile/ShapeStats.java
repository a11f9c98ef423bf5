package io.wireadvisor.profile;

import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything a profile knows about one statement shape (one digest of normalized SQL): what it is,
 * and how often it reached the server by each {@link Via}.
 */
public final class ShapeStats {
  /** Digest of the bucket that takes every shape beyond a collector's cap. */
  public static final String OVERFLOW_DIGEST = "overflow";

  private final String digest;
  private final String digestText;
  private String sample;
  private final StatementKind kind;
  private final List<String> tablesRead;
  private final List<String> tablesWritten;
  private final ProbeKind probe;
  /** A SELECT … FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE (the digest text decides it). */
  private boolean lockingRead;
  private int minSqlLength;
  private int maxSqlLength;
  private final long[] counters = new long[Via.values().length];
  private Histogram latency;
  /**
   * The counters again per client ({@link Source#clientKey()}), at most {@link #MAX_CLIENTS}
   * entries; null when the collector did not tell clients apart (the agent, older proxies).
   */
  private TreeMap<String, long[]> clients;
  /** ERR replies by server code, at most {@link #MAX_ERROR_CODES} entries; null until the first. */
  private TreeMap<Integer, ServerError> errors;
  /** Executions whose result rows the collector counted, and the rows they returned. */
  private long rowsCounted;
  private long rows;
  /** Statement patterns by {@link PatternStats#key()}, at most {@link #MAX_PATTERNS}; null until the first. */
  private TreeMap<String, PatternStats> patterns;

  /**
   * Patterns a shape keeps (kind and partner); past it the highest keys are folded into their
   * kind's entry without a partner, which keeps merges exact and order-independent.
   */
  public static final int MAX_PATTERNS = 4;
  /** Accounted bytes of a full pattern table (charged when a shape first takes part in one). */
  public static final long PATTERN_TABLE_BYTES = MAX_PATTERNS * (160L + 2 * 80) + 64;

  /**
   * Distinct error codes a shape keeps; the highest codes past it are counted under {@link
   * ServerError#OTHER}. Folding the highest keeps merges exact and order-independent.
   */
  public static final int MAX_ERROR_CODES = 8;
  /** Accounted bytes of a full error table (the recorder charges it when a shape first fails). */
  public static final long ERROR_TABLE_BYTES = MAX_ERROR_CODES * 160L + 64;

  /**
   * Clients a shape keeps counters for; past it the highest keys fold into {@link #OTHER_CLIENTS}
   * (as for error codes: merges stay exact and order-independent).
   */
  public static final int MAX_CLIENTS = 16;

  /** The client key that takes the clients past {@link #MAX_CLIENTS}. */
  public static final String OTHER_CLIENTS = "(other clients)";

  public ShapeStats(
      String digest,
      String digestText,
      StatementKind kind,
      List<String> tablesRead,
      List<String> tablesWritten,
      ProbeKind probe,
      int minSqlLength,
      int maxSqlLength) {
    this.digest = Objects.requireNonNull(digest, "digest");
    this.digestText = Objects.requireNonNull(digestText, "digestText");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.tablesRead = sortedCopy(tablesRead);
    this.tablesWritten = sortedCopy(tablesWritten);
    this.probe = probe;
    this.minSqlLength = minSqlLength;
    this.maxSqlLength = maxSqlLength;
  }

  /** The overflow bucket: shapes a collector stopped telling apart once it reached its cap. */
  public static ShapeStats overflow(int cap) {
    return new ShapeStats(
        OVERFLOW_DIGEST,
        "(statement shapes beyond the cap of " + cap + " distinct digests)",
        StatementKind.OTHER,
        Collections.<String>emptyList(),
        Collections.<String>emptyList(),
        null,
        0,
        0);
  }

  private static List<String> sortedCopy(List<String> tables) {
    if (tables == null || tables.isEmpty()) {
      return Collections.emptyList();
    }
    return Collections.unmodifiableList(new ArrayList<>(new TreeSet<>(tables)));
  }

  public String digest() {
    return digest;
  }

  public String digestText() {
    return digestText;
  }

  /** Values a statement of this shape carries ({@code ?} in its digest text); computed once. */
  private volatile int values = -1;

  /**
   * The values one statement of this shape carries: its digest text's {@code ?}s (bound
   * parameters and literals alike; an IN list collapsed to {@code (...)} counts none).
   */
  public int values() {
    int v = values;
    if (v < 0) {
      v = 0;
      for (int i = 0; i < digestText.length(); i++) {
        if (digestText.charAt(i) == '?') {
          v++;
        }
      }
      values = v;
    }
    return v;
  }

  /**
   * A SELECT that locks what it reads ({@code FOR UPDATE}, {@code FOR SHARE}, {@code LOCK IN SHARE
   * MODE}), as the classifier marked it. False in profiles written before the mark existed.
   */
  public boolean lockingRead() {
    return lockingRead;
  }

  /** Marks this shape a locking read (the recorder, from its classification; the profile reader). */
  public void markLockingRead() {
    this.lockingRead = true;
  }

  /** One original text of this shape, or null: only kept when sampling is enabled. */
  public String sample() {
    return sample;
  }

  public void setSample(String sample) {
    this.sample = sample;
  }

  public StatementKind kind() {
    return kind;
  }

  public List<String> tablesRead() {
    return tablesRead;
  }

  public List<String> tablesWritten() {
    return tablesWritten;
  }

  /** The probe kind when this shape is a session-variable probe, else null. */
  public ProbeKind probe() {
    return probe;
  }

  public boolean isOverflow() {
    return OVERFLOW_DIGEST.equals(digest);
  }

  public int minSqlLength() {
    return minSqlLength;
  }

  /** The longest original text seen, in chars: what {@code prepStmtCacheSqlLimit} is compared to. */
  public int maxSqlLength() {
    return maxSqlLength;
  }

  public void observeSqlLength(int length) {
    if (minSqlLength == 0 || length < minSqlLength) {
      minSqlLength = length;
    }
    maxSqlLength = Math.max(maxSqlLength, length);
  }

  public long count(Via via) {
    return counters[via.ordinal()];
  }

  public void add(Via via, long n) {
    counters[via.ordinal()] += n;
  }

  /** Commands that carried this shape to the server (text executes, prepares, executes, ...). */
  public long wireCommands() {
    long total = 0;
    for (Via via : Via.values()) {
      if (via != Via.BATCHES && via != Via.BATCHED_STATEMENTS && via != Via.ERRORS) {
        total += counters[via.ordinal()];
      }
    }
    return total;
  }

  /** Times the statement ran: text executes plus binary executes. */
  public long executions() {
    return count(Via.TEXT_EXECUTES) + count(Via.EXECUTES);
  }

  /**
   * This shape's counters per client key ({@link Source#clientKey()}), in key order: each array is
   * indexed by {@link Via#ordinal()}. Empty when the collector did not attribute the shape.
   */
  public Map<String, long[]> clients() {
    return clients == null
        ? Collections.<String, long[]>emptyMap()
        : Collections.unmodifiableMap(clients);
  }

  /** The counter {@code via} of client {@code key} (0 when the shape has no such client). */
  public long count(String key, Via via) {
    long[] c = clients == null ? null : clients.get(key);
    return c == null ? 0 : c[via.ordinal()];
  }

  /** Adds {@code n} to client {@code key}'s counter {@code via} (not to the shape's own). */
  public void addClient(String key, Via via, long n) {
    if (n == 0) {
      return;
    }
    if (clients == null) {
      clients = new TreeMap<>();
    }
    long[] c = clients.get(key);
    if (c == null) {
      c = new long[Via.values().length];
      clients.put(key, c);
    }
    c[via.ordinal()] += n;
    while (clients.size() > MAX_CLIENTS) {
      long[] last = clients.pollLastEntry().getValue();
      long[] other = clients.get(OTHER_CLIENTS);
      if (other == null) {
        other = new long[Via.values().length];
        clients.put(OTHER_CLIENTS, other);
      }
      for (int i = 0; i < last.length; i++) {
        other[i] += last[i];
      }
    }
  }

  /** ERR replies of this shape by server error code, in code order; empty when none failed. */
  public Map<Integer, ServerError> errors() {
    return errors == null
        ? Collections.<Integer, ServerError>emptyMap()
        : Collections.unmodifiableMap(errors);
  }

  /**
   * Adds {@code count} ERR replies of {@code code} ({@link ServerError#OTHER} when unknown), of
   * which {@code timed} took {@code nanos} together. Does not touch {@link Via#ERRORS}, which
   * counts failed commands of any kind.
   */
  public void addError(int code, String sqlState, long count, long timed, long nanos) {
    if (count <= 0) {
      return;
    }
    int c = code < 0 ? ServerError.OTHER : code;
    if (errors == null) {
      errors = new TreeMap<>();
    }
    ServerError e = errors.get(c);
    if (e == null) {
      e = new ServerError(c);
      errors.put(c, e);
    }
    e.add(sqlState, count, timed, nanos);
    while (errors.size() > MAX_ERROR_CODES) {
      ServerError last = errors.pollLastEntry().getValue();
      ServerError other = errors.get(ServerError.OTHER);
      if (other == null) {
        other = new ServerError(ServerError.OTHER);
        errors.put(ServerError.OTHER, other);
      }
      other.add(null, last.count(), last.timed(), last.nanos());
    }
  }

  /** Executions of this shape whose result rows were counted (result sets read in full). */
  public long rowsCounted() {
    return rowsCounted;
  }

  /** Rows those executions returned. */
  public long rows() {
    return rows;
  }

  /** Adds {@code executions} counted executions that returned {@code n} rows together. */
  public void addRows(long executions, long n) {
    rowsCounted += executions;
    rows += n;
  }

  /** The patterns this shape took part in, by kind and partner; empty when none. */
  public java.util.Collection<PatternStats> patterns() {
    return patterns == null
        ? Collections.<PatternStats>emptyList()
        : Collections.unmodifiableCollection(patterns.values());
  }

  /** The pattern of {@code kind} with {@code partner}, or null. Allocation-free. */
  public PatternStats pattern(PatternStats.Kind kind, String partner) {
    if (patterns != null) {
      for (PatternStats p : patterns.values()) {
        if (p.kind() == kind && p.partner().equals(partner)) {
          return p;
        }
      }
    }
    return null;
  }

  /**
   * Adds to the pattern of {@code kind} with {@code partner} ("" when unknown); allocates only for
   * a pattern not seen before.
   */
  public void addPattern(PatternStats.Kind kind, String partner, long transactionsN,
      long executionsN, long rowsN, long timedN, long nanosN) {
    String other = partner == null ? "" : partner;
    PatternStats p = pattern(kind, other);
    if (p == null) {
      if (patterns == null) {
        patterns = new TreeMap<>();
      }
      p = new PatternStats(kind, other);
      patterns.put(p.key(), p);
    }
    p.add(transactionsN, executionsN, rowsN, timedN, nanosN);
    while (patterns.size() > MAX_PATTERNS) {
      PatternStats last = patterns.pollLastEntry().getValue();
      PatternStats.Kind k = last.kind();
      PatternStats none = pattern(k, "");
      if (none == null) {
        none = new PatternStats(k, "");
        patterns.put(none.key(), none);
      }
      none.add(last);
    }
  }

  /** Latency of this shape's commands, or null when the collector could not time them. */
  public Histogram latency() {
    return latency;
  }

  public void setLatency(Histogram latency) {
    this.latency = latency;
  }

  /** Adds {@code other} (of the same digest) into this shape. */
  public void add(ShapeStats other) {
    if (!digest.equals(other.digest)) {
      throw new IllegalArgumentException("digest mismatch: " + digest + " vs " + other.digest);
    }
    for (int i = 0; i < counters.length; i++) {
      counters[i] += other.counters[i];
    }
    lockingRead |= other.lockingRead;
    if (other.minSqlLength != 0) {
      minSqlLength =
          minSqlLength == 0 ? other.minSqlLength : Math.min(minSqlLength, other.minSqlLength);
    }
    maxSqlLength = Math.max(maxSqlLength, other.maxSqlLength);
    if (other.clients != null) {
      for (Map.Entry<String, long[]> e : other.clients.entrySet()) {
        for (Via via : Via.values()) {
          addClient(e.getKey(), via, e.getValue()[via.ordinal()]);
        }
      }
    }
    for (ServerError e : other.errors().values()) {
      addError(e.code(), e.sqlState(), e.count(), e.timed(), e.nanos());
    }
    rowsCounted += other.rowsCounted;
    rows += other.rows;
    for (PatternStats p : other.patterns()) {
      addPattern(p.kind(), p.partner(), p.transactions(), p.executions(), p.rows(), p.timed(),
          p.nanos());
    }
    // The smaller sample wins so that merging in any order keeps the same one.
    if (other.sample != null && (sample == null || other.sample.compareTo(sample) < 0)) {
      sample = other.sample;
    }
    if (other.latency != null) {
      if (latency == null) {
        latency = other.latency.copy();
      } else {
        latency.add(other.latency);
      }
    }
  }

  /**
   * The part of this shape the clients {@code keys} sent ({@link #clients()}), or null when they
   * sent none of it: their counters; the latency histogram and error table shared in the part's
   * proportion of wire commands (of errors), as only counts were kept per client.
   */
  public ShapeStats part(java.util.Collection<String> keys) {
    ShapeStats s = emptyCopy();
    s.minSqlLength = minSqlLength;
    s.maxSqlLength = maxSqlLength;
    s.sample = sample;
    boolean any = false;
    for (String key : keys) {
      long[] c = clients == null ? null : clients.get(key);
      if (c == null) {
        continue;
      }
      for (Via via : Via.values()) {
        s.add(via, c[via.ordinal()]);
        s.addClient(key, via, c[via.ordinal()]);
        any |= c[via.ordinal()] != 0;
      }
    }
    if (!any) {
      return null;
    }
    long wire = wireCommands();
    if (latency != null && wire > 0) {
      s.latency =
          latency.share(Math.round((double) latency.count() * s.wireCommands() / wire));
    }
    long failed = count(Via.ERRORS);
    long partFailed = s.count(Via.ERRORS);
    if (errors != null && partFailed > 0 && failed > 0) {
      double f = Math.min(1.0, (double) partFailed / failed);
      for (ServerError e : errors.values()) {
        long n = Math.max(1, Math.round(e.count() * f));
        s.addError(e.code(), e.sqlState(), n, Math.min(n, Math.round(e.timed() * f)),
            Math.round(e.nanos() * f));
      }
    }
    // Rows and statement patterns are not kept per client: the part takes its share of executions.
    long executions = executions();
    double share = executions == 0 ? 0 : Math.min(1.0, (double) s.executions() / executions);
    if (rowsCounted > 0 && share > 0) {
      s.addRows(Math.round(rowsCounted * share), Math.round(rows * share));
    }
    if (patterns != null && share > 0) {
      for (PatternStats ps : patterns.values()) {
        long n = Math.round(ps.executions() * share);
        if (n > 0) {
          s.addPattern(ps.kind(), ps.partner(), Math.max(1, Math.round(ps.transactions() * share)), n,
              Math.round(ps.rows() * share), Math.min(n, Math.round(ps.timed() * share)),
              Math.round(ps.nanos() * share));
        }
      }
    }
    return s;
  }

  /** A deep copy. */
  public ShapeStats copy() {
    ShapeStats copy =
        new ShapeStats(
            digest, digestText, kind, tablesRead, tablesWritten, probe, minSqlLength, maxSqlLength);
    copy.add(this);
    return copy;
  }

  /** The same shape with counters, lengths and latency emptied: a seed for folding into. */
  ShapeStats emptyCopy() {
    ShapeStats s = new ShapeStats(digest, digestText, kind, tablesRead, tablesWritten, probe, 0, 0);
    s.lockingRead = lockingRead;
    return s;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ShapeStats)) {
      return false;
    }
    ShapeStats s = (ShapeStats) o;
    return digest.equals(s.digest)
        && digestText.equals(s.digestText)
        && Objects.equals(sample, s.sample)
        && kind == s.kind
        && tablesRead.equals(s.tablesRead)
        && tablesWritten.equals(s.tablesWritten)
        && probe == s.probe
        && lockingRead == s.lockingRead
        && minSqlLength == s.minSqlLength
        && maxSqlLength == s.maxSqlLength
        && Arrays.equals(counters, s.counters)
        && Objects.equals(latency, s.latency)
        && errors().equals(s.errors())
        && rowsCounted == s.rowsCounted
        && rows == s.rows
        && new ArrayList<>(patterns()).equals(new ArrayList<>(s.patterns()))
        && sameClients(s);
  }

  private boolean sameClients(ShapeStats s) {
    if (!clients().keySet().equals(s.clients().keySet())) {
      return false;
    }
    for (Map.Entry<String, long[]> e : clients().entrySet()) {
      if (!Arrays.equals(e.getValue(), s.clients.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return 31 * digest.hashCode() + Arrays.hashCode(counters);
  }

  @Override
  public String toString() {
    return "ShapeStats{" + digest + " " + digestText + " " + Arrays.toString(counters) + "}";
  }
}
