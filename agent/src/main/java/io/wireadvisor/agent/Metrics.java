package io.wireadvisor.agent;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wireadvisor.agent.internal.MetricsServer;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.sql.ProbeKind;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The agent's Micrometer meters (names in docs/agent.md), in the agent's own registry: Micrometer
 * is relocated inside the agent jar, so they are read through the optional Prometheus endpoint
 * ({@code prometheus=host:port}, loopback by default), not through the application's registry.
 *
 * <p>Meters are functions over the agent's monotonic counters, so recording costs nothing extra
 * and {@code AgentApi.reset()} does not make them go backwards.
 */
final class Metrics {
  /** Command types with a meter each; every type is still counted in the profile. */
  static final CommandType[] METERED = {
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
    CommandType.UNKNOWN,
  };

  private static volatile MeterRegistry registry;
  private static volatile MetricsServer server;

  private Metrics() {}

  static void start(AgentOptions options) {
    if (!options.metrics() && options.prometheusPort() < 0) {
      return;
    }
    MeterRegistry r = new SimpleMeterRegistry();
    bind(r);
    registry = r;
    if (options.prometheusPort() >= 0) {
      serve(options, r);
    }
  }

  private static void serve(AgentOptions options, MeterRegistry r) {
    try {
      MetricsServer http =
          MetricsServer.start(options.prometheusHost(), options.prometheusPort(), () -> scrape(r));
      server = http;
      AgentMain.info(
          "Prometheus metrics at http://" + options.prometheusHost() + ":" + http.port()
              + "/metrics");
    } catch (Throwable e) {
      AgentMain.warn(
          "could not serve Prometheus metrics on " + options.prometheusHost() + ":"
              + options.prometheusPort() + " (" + e + "); continuing without");
    }
  }

  /** Registers the meters in {@code r}. */
  static void bind(MeterRegistry r) {
    for (CommandType type : METERED) {
      int i = type.ordinal();
      FunctionCounter.builder("wireadvisor.commands", Hooks.METER_COUNTS[i], a -> (double) a.sum())
          .tag("type", type.wireName())
          .baseUnit("commands")
          .description("Commands sent on the wire by MySQL Connector/J, by COM_* type")
          .register(r);
      FunctionTimer.builder(
              "wireadvisor.command.latency",
              Hooks.METER_NANOS[i],
              a -> Hooks.METER_COUNTS[i].sum(),
              a -> (double) a.sum(),
              TimeUnit.NANOSECONDS)
          .tag("type", type.wireName())
          .description("Request-to-response time of commands, by COM_* type")
          .register(r);
    }
    for (ProbeKind kind : ProbeKind.values()) {
      FunctionCounter.builder(
              "wireadvisor.probes", Hooks.METER_PROBES[kind.ordinal()], a -> (double) a.sum())
          .tag("kind", kind.name())
          .baseUnit("statements")
          .description("Session-variable probes (SELECT @@..., SET autocommit, ...) by kind")
          .register(r);
    }
    Gauge.builder("wireadvisor.connections", () -> Hooks.trackedConnections())
        .description("Live connections the agent tracks")
        .register(r);
    Gauge.builder("wireadvisor.active", () -> Hooks.isActive() ? 1 : 0)
        .description("1 when the driver's hooks are installed and matched the driver version")
        .register(r);
  }

  /** The registry, or null when metrics are off. */
  static MeterRegistry registry() {
    return registry;
  }

  /** The meters in Prometheus' text exposition format (version 0.0.4). */
  static String scrape(MeterRegistry r) {
    StringBuilder sb = new StringBuilder();
    String lastType = null;
    for (Meter m : r.getMeters()) {
      String base = m.getId().getName().replace('.', '_');
      String labels = labels(m);
      if (m instanceof FunctionCounter) {
        String name = base + "_total";
        lastType = header(sb, lastType, name, "counter", m);
        sample(sb, name, labels, ((FunctionCounter) m).count());
      } else if (m instanceof FunctionTimer) {
        FunctionTimer t = (FunctionTimer) m;
        String name = base + "_seconds";
        lastType = header(sb, lastType, name, "summary", m);
        sample(sb, name + "_count", labels, t.count());
        sample(sb, name + "_sum", labels, t.totalTime(TimeUnit.SECONDS));
      } else if (m instanceof Gauge) {
        lastType = header(sb, lastType, base, "gauge", m);
        sample(sb, base, labels, ((Gauge) m).value());
      }
    }
    return sb.toString();
  }

  private static String header(StringBuilder sb, String lastType, String name, String type, Meter m) {
    if (!name.equals(lastType)) {
      String help = m.getId().getDescription();
      if (help != null) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
      }
      sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }
    return name;
  }

  private static String labels(Meter m) {
    StringBuilder sb = new StringBuilder();
    for (Tag t : m.getId().getTagsAsIterable()) {
      sb.append(sb.length() == 0 ? "{" : ",");
      sb.append(t.getKey()).append("=\"")
          .append(t.getValue().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
          .append('"');
    }
    return sb.length() == 0 ? "" : sb.append('}').toString();
  }

  private static void sample(StringBuilder sb, String name, String labels, double value) {
    sb.append(name).append(labels).append(' ');
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      sb.append((long) value);
    } else {
      sb.append(value);
    }
    sb.append('\n');
  }
}
