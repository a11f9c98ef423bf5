package io.wireadvisor.agent;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.wireadvisor.agent.internal.MetricsServer;
import io.wireadvisor.metrics.ProfileCollector;
import io.wireadvisor.profile.Source;

/**
 * The agent's metrics (names in docs/metrics.md), in the agent's own registry: Micrometer and the
 * Prometheus client are relocated inside the agent jar, so they are read through the optional
 * Prometheus endpoint ({@code prometheus=host:port}, loopback by default), not through the
 * application's registry.
 *
 * <p>Every series is derived at scrape time from the recorder's snapshot ({@link
 * ProfileCollector}, shared with the proxy), so it equals the profile at that moment and the
 * per-command hook does no extra work. The registry holds the collector strongly: nothing is
 * lost at a garbage collection. {@code AgentApi.reset()} starts a new window, and the counters
 * start again from zero with it (Prometheus' {@code rate}/{@code increase} treat that as a
 * counter reset).
 */
final class Metrics {
  private static volatile PrometheusMeterRegistry registry;
  private static volatile MetricsServer server;

  private Metrics() {}

  /** Starts the registry (and the endpoint when asked for); the endpoint's bound port, or -1. */
  static int start(AgentOptions options) {
    if (!options.metrics() && options.prometheusPort() < 0) {
      return -1;
    }
    PrometheusMeterRegistry r = create();
    registry = r;
    if (options.prometheusPort() >= 0) {
      serve(options, r);
    }
    MetricsServer s = server;
    return s == null ? -1 : s.port();
  }

  /** A registry with every agent meter. */
  static PrometheusMeterRegistry create() {
    PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    String instance = AgentIdentity.instance();
    r.config().commonTags("collector", Source.AGENT, "instance", instance);
    r.getPrometheusRegistry()
        .register(
            new ProfileCollector(
                Source.AGENT, instance, Hooks::snapshot, () -> Hooks.trackedConnections()));
    Gauge.builder("wireadvisor.active", () -> Hooks.isActive() ? 1 : 0)
        .description("1 when the driver's hooks are installed and matched the driver version")
        .strongReference(true)
        .register(r);
    return r;
  }

  private static void serve(AgentOptions options, PrometheusMeterRegistry r) {
    try {
      MetricsServer http =
          MetricsServer.start(options.prometheusHost(), options.prometheusPort(), r::scrape);
      server = http;
      AgentLog.info(
          "Prometheus metrics at http://" + options.prometheusHost() + ":" + http.port()
              + "/metrics");
    } catch (Throwable e) {
      AgentLog.warn(
          "could not serve Prometheus metrics on " + options.prometheusHost() + ":"
              + options.prometheusPort() + " (" + e + "); continuing without");
    }
  }

  /** The registry, or null when metrics are off. */
  static PrometheusMeterRegistry registry() {
    return registry;
  }
}
