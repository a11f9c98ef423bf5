package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The headline numbers of a profile, as reports show them. */
public final class ProfileSummary {
  private final double windowSeconds;
  private final long wireCommands;
  private final long statements;
  private final long selects;
  private final int shapes;
  private final long probes;
  private final long connections;
  private final Map<String, Long> commands;
  private final Map<Metric, Double> metrics;
  private final List<String> sources;

  private ProfileSummary(TrafficProfile p) {
    Workload w = Workload.of(p);
    this.windowSeconds = p.windowSeconds();
    this.wireCommands = p.totalCommands();
    this.statements = w.businessExecutions;
    this.selects = w.selectExecutions;
    this.shapes = p.shapes().size();
    this.probes = p.totalProbes();
    this.connections = p.connections().connections();
    Map<String, Long> c = new LinkedHashMap<>();
    for (Map.Entry<CommandType, CommandStats> e : p.commands().entrySet()) {
      if (e.getValue().count() > 0) {
        c.put(e.getKey().wireName(), e.getValue().count());
      }
    }
    this.commands = Collections.unmodifiableMap(c);
    Map<Metric, Double> m = new LinkedHashMap<>();
    for (Metric metric : Metric.values()) {
      m.put(metric, metric.compute(p));
    }
    this.metrics = Collections.unmodifiableMap(m);
    List<String> s = new ArrayList<>();
    for (Source src : p.sources()) {
      StringBuilder sb = new StringBuilder(src.collector());
      if (src.instance() != null) {
        sb.append(' ').append(src.instance());
      }
      if (src.driverName() != null || src.driverVersion() != null) {
        sb.append(", ").append(src.driverName() == null ? "driver" : src.driverName());
        if (src.driverVersion() != null) {
          sb.append(' ').append(src.driverVersion());
        }
      }
      if (src.serverVersion() != null) {
        sb.append(", server ").append(src.serverVersion());
      }
      // Defence in depth: collectors never record credentials, but a profile is only a file.
      Map<String, String> props = Redaction.withoutSecrets(src.properties());
      if (!props.isEmpty()) {
        sb.append(", ").append(props);
      }
      s.add(Redaction.text(sb.toString(), null));
    }
    this.sources = Collections.unmodifiableList(s);
  }

  private ProfileSummary(
      double windowSeconds, long wireCommands, long statements, long selects, int shapes,
      long probes, long connections, Map<String, Long> commands, Map<Metric, Double> metrics,
      List<String> sources) {
    this.windowSeconds = windowSeconds;
    this.wireCommands = wireCommands;
    this.statements = statements;
    this.selects = selects;
    this.shapes = shapes;
    this.probes = probes;
    this.connections = connections;
    this.commands = Collections.unmodifiableMap(new LinkedHashMap<>(commands));
    this.metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    this.sources = Collections.unmodifiableList(new ArrayList<>(sources));
  }

  /** Summarizes a profile. */
  public static ProfileSummary of(TrafficProfile profile) {
    return new ProfileSummary(profile);
  }

  /** Restores a summary (reading an analysis back from JSON). */
  public static ProfileSummary restore(
      double windowSeconds, long wireCommands, long statements, long selects, int shapes,
      long probes, long connections, Map<String, Long> commands, Map<Metric, Double> metrics,
      List<String> sources) {
    return new ProfileSummary(windowSeconds, wireCommands, statements, selects, shapes, probes,
        connections, commands, metrics, sources);
  }

  public double windowSeconds() {
    return windowSeconds;
  }

  /** Commands of every type on the wire. */
  public long wireCommands() {
    return wireCommands;
  }

  /** Business statements (DML) executed, by any protocol. */
  public long statements() {
    return statements;
  }

  public long selects() {
    return selects;
  }

  public int shapes() {
    return shapes;
  }

  public long probes() {
    return probes;
  }

  public long connections() {
    return connections;
  }

  /** Count per MySQL command name ({@code COM_QUERY} ...), in command-byte order. */
  public Map<String, Long> commands() {
    return commands;
  }

  /** Every {@link Metric} on this profile. */
  public Map<Metric, Double> metrics() {
    return metrics;
  }

  /** One line per source. */
  public List<String> sources() {
    return sources;
  }

  /** Business statements per second. */
  public double statementsPerSecond() {
    return statements / windowSeconds;
  }

  /** Business statements per wire command (1.0 is ideal; probes and PREPARE/CLOSE lower it). */
  public double statementsPerCommand() {
    return Workload.ratio(statements, wireCommands);
  }
}
