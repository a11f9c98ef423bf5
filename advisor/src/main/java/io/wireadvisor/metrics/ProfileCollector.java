package io.wireadvisor.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.wireadvisor.advisor.Workload;
import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The metrics both collectors (agent and proxy) expose, with one naming scheme: every series is
 * derived at scrape time from one {@link TrafficProfile} snapshot, so each counter equals the
 * profile's count at that moment, and nothing is added to the per-command hot path.
 *
 * <p>Register it with a Prometheus registry (e.g. Micrometer's {@code
 * PrometheusMeterRegistry.getPrometheusRegistry()}); the registry holds it strongly, so nothing is
 * lost at a garbage collection (Micrometer keeps function-meter targets only weakly).
 *
 * <p>Every series carries {@code collector} ({@code agent} or {@code proxy}) and {@code instance}
 * (the collector's own name for itself: {@code host:pid} for the agent, the listen address for a
 * proxy). Metric names and labels are listed in docs/metrics.md.
 */
public final class ProfileCollector implements MultiCollector {
  /**
   * Latency bucket bounds in seconds: 10 µs to 10 s, 1-2.5-5 per decade. A command is counted in
   * the first bucket whose bound is at least the upper end of the profile's own (12.5%-wide)
   * bucket for it, so a {@code le} count never includes a command slower than {@code le}.
   */
  static final double[] LATENCY_BOUNDS = {
    0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
    0.1, 0.25, 0.5, 1, 2.5, 5, 10, Double.POSITIVE_INFINITY
  };

  /** Distinct prepared shapes per connection, bounds chosen around prepStmtCacheSize defaults. */
  static final double[] PER_CONNECTION_BOUNDS = {
    0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, Double.POSITIVE_INFINITY
  };

  /**
   * Command types with series from the first scrape (at zero), so that {@code rate()} sees their
   * first increase; the other (rare, mostly administrative) types appear once counted. Keeps an
   * instance at about 14 x 23 command series instead of every MySQL command type.
   */
  public static final Set<CommandType> ALWAYS =
      Collections.unmodifiableSet(
          EnumSet.of(
              CommandType.QUERY,
              CommandType.STMT_PREPARE,
              CommandType.STMT_EXECUTE,
              CommandType.STMT_CLOSE,
              CommandType.STMT_RESET,
              CommandType.STMT_SEND_LONG_DATA,
              CommandType.STMT_FETCH,
              CommandType.PING,
              CommandType.INIT_DB,
              CommandType.RESET_CONNECTION,
              CommandType.QUIT,
              CommandType.SET_OPTION,
              CommandType.CHANGE_USER,
              CommandType.UNKNOWN));

  private final String collector;
  private final String instance;
  private final Supplier<TrafficProfile> profiles;
  private final LongSupplier openConnections;

  /**
   * @param collector {@code agent} or {@code proxy}
   * @param instance the value of every series' {@code instance} label
   * @param profiles a fresh snapshot per call (called once per scrape)
   * @param openConnections connections open now
   */
  public ProfileCollector(
      String collector,
      String instance,
      Supplier<TrafficProfile> profiles,
      LongSupplier openConnections) {
    this.collector = collector;
    this.instance = instance;
    this.profiles = profiles;
    this.openConnections = openConnections;
  }

  /** Prometheus' spelling of a command type: {@code COM_STMT_EXECUTE} → {@code stmt_execute}. */
  public static String typeLabel(CommandType type) {
    String name = type.wireName();
    if (name.startsWith("COM_")) {
      name = name.substring(4);
    }
    return name.toLowerCase(Locale.ROOT);
  }

  /** Prometheus' spelling of a probe kind or a {@link Via}: lowercase with underscores. */
  static String label(String name) {
    StringBuilder b = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (b.length() > 0 && b.charAt(b.length() - 1) != '_') {
          b.append('_');
        }
        b.append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private Labels labels(String... pairs) {
    String[] all = new String[pairs.length + 4];
    all[0] = "collector";
    all[1] = collector;
    all[2] = "instance";
    all[3] = instance;
    System.arraycopy(pairs, 0, all, 4, pairs.length);
    return Labels.of(all);
  }

  @Override
  public List<String> getPrometheusNames() {
    List<String> names = new ArrayList<String>();
    String[] all = {
      "wireadvisor_commands",
      "wireadvisor_command_latency_seconds",
      "wireadvisor_statements",
      "wireadvisor_business_statements",
      "wireadvisor_statement_errors",
      "wireadvisor_probes",
      "wireadvisor_shapes",
      "wireadvisor_overflow_statements",
      "wireadvisor_connections",
      "wireadvisor_connections_opened",
      "wireadvisor_connection_distinct_prepared_shapes"
    };
    for (String n : all) {
      names.add(n);
    }
    return names;
  }

  @Override
  public MetricSnapshots collect() {
    TrafficProfile p = profiles.get();
    MetricSnapshots.Builder out = MetricSnapshots.builder();

    CounterSnapshot.Builder commands =
        CounterSnapshot.builder()
            .name("wireadvisor_commands")
            .help("Wire commands sent to the server, by type");
    HistogramSnapshot.Builder latency =
        HistogramSnapshot.builder()
            .name("wireadvisor_command_latency_seconds")
            .unit(Unit.SECONDS)
            .help("Time from a command's request to its response, by type");
    for (CommandType type : CommandType.values()) {
      CommandStats c = p.commands().get(type);
      long count = c == null ? 0 : c.count();
      if (count == 0 && !ALWAYS.contains(type)) {
        continue;
      }
      Labels l = labels("type", typeLabel(type));
      commands.dataPoint(CounterDataPointSnapshot.builder().labels(l).value(count).build());
      Histogram h = c == null ? null : c.latency();
      latency.dataPoint(
          HistogramDataPointSnapshot.builder()
              .labels(l)
              .classicHistogramBuckets(buckets(h, LATENCY_BOUNDS, 1e-9))
              .sum(h == null ? 0 : h.sum() / 1e9)
              .build());
    }
    out.metricSnapshot(commands.build()).metricSnapshot(latency.build());

    long[] byVia = new long[Via.values().length];
    long business = 0;
    long overflow = 0;
    long errors = 0;
    for (ShapeStats s : p.shapes().values()) {
      for (Via via : Via.values()) {
        byVia[via.ordinal()] += s.count(via);
      }
      if (Workload.isBusiness(s)) {
        business += s.executions();
      }
      if (s.isOverflow()) {
        overflow += s.wireCommands();
      }
      errors += s.count(Via.ERRORS);
    }
    CounterSnapshot.Builder statements =
        CounterSnapshot.builder()
            .name("wireadvisor_statements")
            .help(
                "Statement-level counts summed over every shape, by how the statement reached the"
                    + " server (text_executes, prepares, executes, closes, ..., batches,"
                    + " batched_statements, errors)");
    for (Via via : Via.values()) {
      statements.dataPoint(
          CounterDataPointSnapshot.builder()
              .labels(labels("via", label(via.jsonName())))
              .value(byVia[via.ordinal()])
              .build());
    }
    out.metricSnapshot(statements.build());
    out.metricSnapshot(
        counter(
            "wireadvisor_business_statements",
            "Executions (text or binary) of the application's own DML: SELECT, INSERT, UPDATE,"
                + " DELETE, REPLACE, CALL; not probes, not transaction control",
            business));
    out.metricSnapshot(
        counter(
            "wireadvisor_statement_errors",
            "Commands of a statement shape the server answered with an ERR packet",
            errors));
    out.metricSnapshot(
        counter(
            "wireadvisor_overflow_statements",
            "Wire commands of statements counted in the overflow shape (past maxShapes or the"
                + " shape byte budget)",
            overflow));

    CounterSnapshot.Builder probes =
        CounterSnapshot.builder()
            .name("wireadvisor_probes")
            .help(
                "Session-variable probes (SELECT @@..., SET autocommit, ...) by kind and by the"
                    + " driver or pool operation that caused them");
    for (Map.Entry<ProbeKind, ProbeStats> e : p.probes().entrySet()) {
      String kind = label(e.getKey().name().toLowerCase(Locale.ROOT));
      long attributed = 0;
      for (Map.Entry<String, Long> c : e.getValue().causes().entrySet()) {
        attributed += c.getValue();
        probes.dataPoint(
            CounterDataPointSnapshot.builder()
                .labels(labels("kind", kind, "cause", c.getKey()))
                .value(c.getValue())
                .build());
      }
      long rest = e.getValue().count() - attributed;
      if (rest > 0 && !e.getValue().causes().containsKey(ProbeStats.UNKNOWN_CAUSE)) {
        probes.dataPoint(
            CounterDataPointSnapshot.builder()
                .labels(labels("kind", kind, "cause", ProbeStats.UNKNOWN_CAUSE))
                .value(rest)
                .build());
      }
    }
    out.metricSnapshot(probes.build());

    out.metricSnapshot(
        gauge(
            "wireadvisor_shapes",
            "Distinct statement shapes recorded (the overflow shape included when in use)",
            p.shapes().size()));
    out.metricSnapshot(
        gauge("wireadvisor_connections", "Connections open now", openConnections.getAsLong()));
    out.metricSnapshot(
        counter(
            "wireadvisor_connections_opened",
            "Connections seen (open or closed) since the collector started or was reset",
            p.connections().connections()));

    Histogram perConnection =
        p.connections().distribution(ConnectionMetric.DISTINCT_PREPARED_SHAPES);
    out.metricSnapshot(
        HistogramSnapshot.builder()
            .name("wireadvisor_connection_distinct_prepared_shapes")
            .help(
                "Distinct statements each connection prepared, one observation per connection"
                    + " (statement cache pressure: compare with prepStmtCacheSize)")
            .dataPoint(
                HistogramDataPointSnapshot.builder()
                    .labels(labels())
                    .classicHistogramBuckets(buckets(perConnection, PER_CONNECTION_BOUNDS, 1))
                    .sum(perConnection == null ? 0 : perConnection.sum())
                    .build())
            .build());
    return out.build();
  }

  private CounterSnapshot counter(String name, String help, long value) {
    return CounterSnapshot.builder()
        .name(name)
        .help(help)
        .dataPoint(CounterDataPointSnapshot.builder().labels(labels()).value(value).build())
        .build();
  }

  private GaugeSnapshot gauge(String name, String help, double value) {
    return GaugeSnapshot.builder()
        .name(name)
        .help(help)
        .dataPoint(GaugeDataPointSnapshot.builder().labels(labels()).value(value).build())
        .build();
  }

  /**
   * Re-buckets a profile histogram onto fixed bounds: each of its buckets goes to the first bound
   * at least its upper end (times {@code scale}); counts are cumulative-free (the model
   * accumulates).
   */
  static ClassicHistogramBuckets buckets(Histogram h, final double[] bounds, final double scale) {
    final long[] counts = new long[bounds.length];
    if (h != null) {
      h.forEachBucket(
          new Histogram.BucketVisitor() {
            @Override
            public void visit(long lowerBound, long upperBound, long count) {
              double upper = upperBound * scale;
              int i = 0;
              while (bounds[i] < upper) {
                i++;
              }
              counts[i] += count;
            }
          });
    }
    return ClassicHistogramBuckets.of(bounds, counts);
  }
}
