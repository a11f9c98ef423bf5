package io.wireadvisor.profile;

import io.wireadvisor.sql.ProbeKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an application sent to its database over a time window: the one format both collectors
 * (agent, proxy) write and the advisor reads. See {@code docs/profile.md} for the JSON schema.
 *
 * <p>A profile is a plain mutable value; {@link #merge} builds a new one and is exact, associative
 * and commutative, so profiles from many JVMs and proxies combine in any order.
 */
public final class TrafficProfile {
  /** The {@code schema} field of every profile JSON document. */
  public static final String SCHEMA = "wire-advisor/traffic-profile";

  /** The schema version this code writes and reads. */
  public static final int SCHEMA_VERSION = 1;

  /** Default cap on distinct digests a collector keeps before using the overflow bucket. */
  public static final int DEFAULT_MAX_SHAPES = 5000;

  private final List<Source> sources = new ArrayList<>();
  private final EnumMap<CommandType, CommandStats> commands = new EnumMap<>(CommandType.class);
  private final TreeMap<String, ShapeStats> shapes = new TreeMap<>();
  private final EnumMap<ProbeKind, ProbeStats> probes = new EnumMap<>(ProbeKind.class);
  private final ConnectionStats connections = new ConnectionStats();
  private final TreeMap<String, Long> statementsByIsolation = new TreeMap<>();
  private long transactions;
  /**
   * Command counts per client key ({@link Source#clientKey()}), each indexed by {@link
   * CommandType#ordinal()}; at most {@link ShapeStats#MAX_CLIENTS} keys (the highest past it fold
   * into {@link ShapeStats#OTHER_CLIENTS}). Empty when the collector did not tell clients apart.
   */
  private final TreeMap<String, long[]> commandsByClient = new TreeMap<>();
  private long firstStatementMillis;
  private long lastStatementMillis;
  /** CPU of the recording process and its host over the window; null when not measured. */
  private CpuUsage cpu;

  /** Sources, sorted; one per distinct collector instance and configuration. */
  public List<Source> sources() {
    return Collections.unmodifiableList(sources);
  }

  /** Adds a source, widening the window of an existing one of the same origin. */
  public void addSource(Source source) {
    for (Source s : sources) {
      if (s.sameOrigin(source)) {
        s.widen(source);
        return;
      }
    }
    sources.add(source.copy());
    Collections.sort(sources);
  }

  /** Earliest start over all sources, or 0 without sources. */
  public long startMillis() {
    long start = Long.MAX_VALUE;
    for (Source s : sources) {
      start = Math.min(start, s.startMillis());
    }
    return sources.isEmpty() ? 0 : start;
  }

  /** Latest end over all sources, or 0 without sources. */
  public long endMillis() {
    long end = 0;
    for (Source s : sources) {
      end = Math.max(end, s.endMillis());
    }
    return end;
  }

  /**
   * Widens the span of the traffic: the first and last execution of a non-DDL statement (epoch
   * milliseconds; 0 for unknown).
   */
  public void observeTraffic(long firstMillis, long lastMillis) {
    if (firstMillis > 0 && lastMillis >= firstMillis) {
      firstStatementMillis = firstStatementMillis == 0 ? firstMillis : Math.min(firstStatementMillis, firstMillis);
      lastStatementMillis = Math.max(lastStatementMillis, lastMillis);
    }
  }

  /** First execution of a non-DDL statement, epoch milliseconds, or 0 when the profile does not say. */
  public long firstStatementMillis() {
    return firstStatementMillis;
  }

  /** Last execution of a non-DDL statement, epoch milliseconds, or 0 when the profile does not say. */
  public long lastStatementMillis() {
    return lastStatementMillis;
  }

  /**
   * Seconds from the first statement to the last where the profile records them (a JVM's start-up
   * is not traffic), else {@link #windowSeconds()}; at least a millisecond.
   */
  public double trafficSeconds() {
    return firstStatementMillis > 0
        ? Math.max(1, lastStatementMillis - firstStatementMillis) / 1000.0
        : windowSeconds();
  }

  /** Length of the window in seconds (at least a millisecond, so rates stay finite). */
  public double windowSeconds() {
    return Math.max(1, endMillis() - startMillis()) / 1000.0;
  }

  public Map<CommandType, CommandStats> commands() {
    return Collections.unmodifiableMap(commands);
  }

  /** How many commands of this type went on the wire. */
  public long count(CommandType type) {
    CommandStats stats = commands.get(type);
    return stats == null ? 0 : stats.count();
  }

  /** Commands of every type. */
  public long totalCommands() {
    long total = 0;
    for (CommandStats stats : commands.values()) {
      total += stats.count();
    }
    return total;
  }

  public void addCommand(CommandType type, CommandStats stats) {
    CommandStats existing = commands.get(type);
    if (existing == null) {
      commands.put(type, stats.copy());
    } else {
      existing.add(stats);
    }
  }

  /** Command counts per client key, each indexed by {@link CommandType#ordinal()}; see there. */
  public Map<String, long[]> commandsByClient() {
    return Collections.unmodifiableMap(commandsByClient);
  }

  /** Adds {@code n} commands of {@code type} sent by client {@code key}. */
  public void addClientCommands(String key, CommandType type, long n) {
    if (n == 0) {
      return;
    }
    long[] c = commandsByClient.get(key);
    if (c == null) {
      c = new long[CommandType.values().length];
      commandsByClient.put(key, c);
    }
    c[type.ordinal()] += n;
    while (commandsByClient.size() > ShapeStats.MAX_CLIENTS) {
      long[] last = commandsByClient.pollLastEntry().getValue();
      long[] other = commandsByClient.get(ShapeStats.OTHER_CLIENTS);
      if (other == null) {
        other = new long[CommandType.values().length];
        commandsByClient.put(ShapeStats.OTHER_CLIENTS, other);
      }
      for (int i = 0; i < last.length; i++) {
        other[i] += last[i];
      }
    }
  }

  /** Shapes by digest, in digest order. */
  public Map<String, ShapeStats> shapes() {
    return Collections.unmodifiableMap(shapes);
  }

  public ShapeStats shape(String digest) {
    return shapes.get(digest);
  }

  /** Adds a shape, summing into an existing one of the same digest. */
  public void addShape(ShapeStats shape) {
    ShapeStats existing = shapes.get(shape.digest());
    if (existing == null) {
      shapes.put(shape.digest(), shape.copy());
    } else {
      existing.add(shape);
    }
  }

  /** Sum of one counter over all shapes. */
  public long total(Via via) {
    long total = 0;
    for (ShapeStats s : shapes.values()) {
      total += s.count(via);
    }
    return total;
  }

  public Map<ProbeKind, ProbeStats> probes() {
    return Collections.unmodifiableMap(probes);
  }

  /** Probes of every kind. */
  public long totalProbes() {
    long total = 0;
    for (ProbeStats p : probes.values()) {
      total += p.count();
    }
    return total;
  }

  public void addProbe(ProbeKind kind, ProbeStats stats) {
    ProbeStats existing = probes.get(kind);
    if (existing == null) {
      probes.put(kind, stats.copy());
    } else {
      existing.add(stats);
    }
  }

  public ConnectionStats connections() {
    return connections;
  }

  /**
   * Business statements by the isolation level they ran under ({@code READ-COMMITTED}, ...,
   * {@code unknown}), where the collector knows it (the agent); empty otherwise.
   */
  public Map<String, Long> statementsByIsolation() {
    return Collections.unmodifiableMap(statementsByIsolation);
  }

  public void addStatementsUnder(String isolation, long n) {
    if (n > 0) {
      Long v = statementsByIsolation.get(isolation);
      statementsByIsolation.put(isolation, (v == null ? 0 : v) + n);
    }
  }

  /**
   * Transactions the collectors saw end (by the server's status flags, or a COMMIT or ROLLBACK)
   * with at least one business statement in them; a statement run under autocommit is one. 0 in
   * profiles written before transactions were counted.
   */
  public long transactions() {
    return transactions;
  }

  public void addTransactions(long n) {
    if (n > 0) {
      transactions += n;
    }
  }

  /**
   * CPU the recording process and its host used over the window (the agent measures it; a proxy's
   * profile and older profiles have none): null when not measured.
   */
  public CpuUsage cpu() {
    return cpu;
  }

  /** Adds CPU figures (several add up, as in a merge). */
  public void addCpu(CpuUsage usage) {
    if (usage == null) {
      return;
    }
    if (cpu == null) {
      cpu = usage.copy();
    } else {
      cpu.add(usage);
    }
  }

  /**
   * True when this profile tells its clients' traffic apart: command counts per client were
   * recorded and every counter of every shape is the sum of its clients' ({@link
   * ShapeStats#clients()}). A profile merged with one from a collector that did not (the agent, a
   * proxy from before) is not.
   */
  public boolean attributed() {
    if (commandsByClient.isEmpty()) {
      return false;
    }
    for (ShapeStats s : shapes.values()) {
      for (Via via : Via.values()) {
        long attributed = 0;
        for (long[] c : s.clients().values()) {
          attributed += c[via.ordinal()];
        }
        if (attributed != s.count(via)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The part of an {@link #attributed()} profile the clients {@code keys} ({@link
   * Source#clientKey()}) sent, described by {@code sources}: their command counts and shapes
   * ({@link ShapeStats#part}); command latencies shared in the part's proportion; probes counted
   * from the part's probe shapes. Connection distributions and statements by isolation are not
   * recorded per client: the part keeps the whole profile's.
   */
  public TrafficProfile part(Collection<Source> sources, Collection<String> keys) {
    TrafficProfile p = new TrafficProfile();
    for (Source s : sources) {
      p.addSource(s);
    }
    for (CommandType type : CommandType.values()) {
      long n = 0;
      for (String key : keys) {
        long[] c = commandsByClient.get(key);
        if (c != null) {
          n += c[type.ordinal()];
          p.addClientCommands(key, type, c[type.ordinal()]);
        }
      }
      CommandStats whole = commands.get(type);
      if (n > 0 && whole != null) {
        Histogram latency = whole.latency();
        Histogram share =
            latency == null || whole.count() == 0
                ? null
                : latency.share(Math.round((double) latency.count() * n / whole.count()));
        p.addCommand(type, new CommandStats(Math.min(n, whole.count()), share));
      }
    }
    for (ShapeStats s : shapes.values()) {
      ShapeStats part = s.part(keys);
      if (part != null) {
        p.addShape(part);
        if (part.probe() != null && part.executions() > 0) {
          ProbeStats probe = new ProbeStats();
          probe.add(part.executions());
          p.addProbe(part.probe(), probe);
        }
      }
    }
    p.connections.add(connections);
    for (Map.Entry<String, Long> e : statementsByIsolation.entrySet()) {
      p.addStatementsUnder(e.getKey(), e.getValue());
    }
    p.observeTraffic(firstStatementMillis, lastStatementMillis);
    return p;
  }

  /** A new profile holding everything in this one and in {@code other}. */
  public TrafficProfile merge(TrafficProfile other) {
    TrafficProfile merged = new TrafficProfile();
    merged.addAll(this);
    merged.addAll(other);
    return merged;
  }

  /** Merges any number of profiles; an empty collection gives an empty profile. */
  public static TrafficProfile mergeAll(Collection<TrafficProfile> profiles) {
    TrafficProfile merged = new TrafficProfile();
    for (TrafficProfile p : profiles) {
      merged.addAll(p);
    }
    return merged;
  }

  /** Adds everything in {@code other} into this profile. */
  public void addAll(TrafficProfile other) {
    observeTraffic(other.firstStatementMillis, other.lastStatementMillis);
    for (Source s : other.sources) {
      addSource(s);
    }
    for (Map.Entry<CommandType, CommandStats> e : other.commands.entrySet()) {
      addCommand(e.getKey(), e.getValue());
    }
    for (ShapeStats s : other.shapes.values()) {
      addShape(s);
    }
    for (Map.Entry<ProbeKind, ProbeStats> e : other.probes.entrySet()) {
      addProbe(e.getKey(), e.getValue());
    }
    connections.add(other.connections);
    for (Map.Entry<String, Long> e : other.statementsByIsolation.entrySet()) {
      addStatementsUnder(e.getKey(), e.getValue());
    }
    addTransactions(other.transactions);
    addCpu(other.cpu);
    for (Map.Entry<String, long[]> e : other.commandsByClient.entrySet()) {
      for (CommandType t : CommandType.values()) {
        addClientCommands(e.getKey(), t, e.getValue()[t.ordinal()]);
      }
    }
  }

  /**
   * A copy that keeps at most {@code maxShapes} shapes (the overflow bucket included): the busiest
   * by wire commands, ties by digest, the rest folded into the overflow bucket. Capping loses the
   * folded shapes' identities, so it is applied after merging, never between merges.
   */
  public TrafficProfile capped(int maxShapes) {
    if (maxShapes < 1) {
      throw new IllegalArgumentException("maxShapes must be >= 1, was " + maxShapes);
    }
    TrafficProfile copy = new TrafficProfile();
    copy.addAll(this);
    if (copy.shapes.size() <= maxShapes) {
      return copy;
    }
    List<ShapeStats> ranked = new ArrayList<>();
    ShapeStats overflow = ShapeStats.overflow(maxShapes);
    for (ShapeStats s : copy.shapes.values()) {
      if (s.isOverflow()) {
        overflow.add(s);
      } else {
        ranked.add(s);
      }
    }
    Collections.sort(
        ranked,
        new Comparator<ShapeStats>() {
          @Override
          public int compare(ShapeStats a, ShapeStats b) {
            int c = Long.compare(b.wireCommands(), a.wireCommands());
            return c != 0 ? c : a.digest().compareTo(b.digest());
          }
        });
    copy.shapes.clear();
    for (int i = 0; i < ranked.size(); i++) {
      ShapeStats s = ranked.get(i);
      if (i < maxShapes - 1) {
        copy.shapes.put(s.digest(), s);
      } else {
        foldInto(overflow, s);
      }
    }
    copy.shapes.put(overflow.digest(), overflow);
    return copy;
  }

  private static void foldInto(ShapeStats overflow, ShapeStats shape) {
    for (Via via : Via.values()) {
      overflow.add(via, shape.count(via));
    }
    for (Map.Entry<String, long[]> e : shape.clients().entrySet()) {
      for (Via via : Via.values()) {
        overflow.addClient(e.getKey(), via, e.getValue()[via.ordinal()]);
      }
    }
    overflow.observeSqlLength(shape.maxSqlLength());
    overflow.addRows(shape.rowsCounted(), shape.rows());
    // Its patterns go: their partners' identities would not survive the fold either.
    if (shape.latency() != null) {
      if (overflow.latency() == null) {
        overflow.setLatency(shape.latency().copy());
      } else {
        overflow.latency().add(shape.latency());
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TrafficProfile)) {
      return false;
    }
    TrafficProfile p = (TrafficProfile) o;
    return sources.equals(p.sources)
        && commands.equals(p.commands)
        && shapes.equals(p.shapes)
        && probes.equals(p.probes)
        && connections.equals(p.connections)
        && statementsByIsolation.equals(p.statementsByIsolation)
        && transactions == p.transactions
        && firstStatementMillis == p.firstStatementMillis
        && lastStatementMillis == p.lastStatementMillis
        && Objects.equals(cpu, p.cpu)
        && sameCommandsByClient(p);
  }

  private boolean sameCommandsByClient(TrafficProfile p) {
    if (!commandsByClient.keySet().equals(p.commandsByClient.keySet())) {
      return false;
    }
    for (Map.Entry<String, long[]> e : commandsByClient.entrySet()) {
      if (!java.util.Arrays.equals(e.getValue(), p.commandsByClient.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return Objects.hash(sources, commands, shapes.keySet(), probes);
  }

  @Override
  public String toString() {
    return "TrafficProfile{sources="
        + sources.size()
        + ", commands="
        + totalCommands()
        + ", shapes="
        + shapes.size()
        + ", probes="
        + totalProbes()
        + "}";
  }
}
