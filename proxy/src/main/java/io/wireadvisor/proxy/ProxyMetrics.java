package io.wireadvisor.proxy;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.wireadvisor.metrics.ProfileCollector;
import io.wireadvisor.profile.Source;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The proxy's meters: the metrics both collectors share ({@link ProfileCollector}, derived from a
 * profile snapshot at every scrape, so they equal {@code /profile}) and the proxy's own counters.
 *
 * <p>Every meter holds its source strongly: Micrometer keeps a function meter's target only
 * through a weak reference unless told otherwise, and a target that nothing else keeps (this
 * binder used to be one) is collected at the next GC, after which the meter reads 0 or NaN.
 */
final class ProxyMetrics {
  private ProxyMetrics() {}

  /** Registers every meter of {@code proxy} on {@code registry}. */
  static void bind(WireProxy proxy, PrometheusMeterRegistry registry) {
    String instance = proxy.instance();
    registry.config().commonTags("collector", Source.PROXY, "instance", instance);
    ProxyStats s = proxy.stats();
    registry
        .getPrometheusRegistry()
        .register(
            new ProfileCollector(
                Source.PROXY, instance, proxy::profile, s.clientConnections::get));

    counter(registry, "wireadvisor.proxy.client.bytes", "Bytes received from clients (added per MiB and at connection close)", "bytes", s.bytesFromClients);
    counter(registry, "wireadvisor.proxy.upstream.bytes", "Bytes received from the upstream server (added per MiB and at connection close)", "bytes", s.bytesFromServer);
    counter(registry, "wireadvisor.proxy.connections.accepted", "Client connections accepted", null, s.connectionsAccepted);
    counter(registry, "wireadvisor.proxy.tls.connections", "Client connections that switched to TLS at the proxy", null, s.tlsConnections);
    counter(registry, "wireadvisor.proxy.upstream.tls.connections", "Upstream connections that completed a TLS handshake", null, s.upstreamTlsConnections);
    counter(registry, "wireadvisor.proxy.upstream.tls.failures", "Upstream TLS handshakes that failed", null, s.upstreamTlsFailures);
    counter(registry, "wireadvisor.proxy.upstream.connect.failures", "Upstream connection attempts that failed", null, s.upstreamConnectFailures);
    counter(registry, "wireadvisor.proxy.handshake.timeouts", "Clients closed for not logging in within --handshake-timeout", null, s.handshakeTimeouts);
    counter(registry, "wireadvisor.proxy.idle.timeouts", "Clients closed after --idle-timeout without a command", null, s.idleTimeouts);
    counter(registry, "wireadvisor.proxy.connections.refused", "Clients refused with ERR 1040 past --max-connections", null, s.connectionsRefused);
    FunctionCounter.builder("wireadvisor.proxy.statements.untracked", s.statements, b -> b.untrackedStatements())
        .description("Prepared statements not remembered because a statement byte limit was reached")
        .register(registry);
    counter(registry, "wireadvisor.proxy.upstream.lost", "Upstream connections lost during a command (the client got an ERR)", null, s.upstreamLostMidCommand);
    counter(registry, "wireadvisor.proxy.client.protocol.errors", "Client connections closed for breaking the protocol", null, s.clientProtocolErrors);
    counter(registry, "wireadvisor.proxy.unparseable.responses", "Server responses the proxy could not follow (classification stopped on that connection)", null, s.unparseableResponses);
    Gauge.builder("wireadvisor.proxy.statement.bytes", s.statements, b -> b.used())
        .description("Bytes of prepared-statement bookkeeping held by every connection")
        .baseUnit("bytes")
        .strongReference(true)
        .register(registry);
    for (String limit : new String[] {"total", "source"}) {
      FunctionCounter.builder(
              "wireadvisor.proxy.prelogin.refused",
              limit.equals("total") ? s.preloginRefusedTotal : s.preloginRefusedSource,
              LongAdder::doubleValue)
          .description(
              "Clients refused with ERR 1040 because too many clients were not logged in yet:"
                  + " limit=total past --max-prelogin-connections, limit=source past"
                  + " --max-prelogin-per-source from their address")
          .tag("limit", limit)
          .register(registry);
    }
    Gauge.builder("wireadvisor.proxy.prelogin.connections", proxy.prelogin(), PreloginLimiter::total)
        .description("Client connections not logged in yet")
        .strongReference(true)
        .register(registry);
    Gauge.builder("wireadvisor.proxy.client.connections", s.clientConnections, AtomicInteger::get)
        .description("Client connections open now")
        .strongReference(true)
        .register(registry);
    Gauge.builder("wireadvisor.proxy.upstream.connections", s.upstreamConnections, AtomicInteger::get)
        .description("Upstream connections open now")
        .strongReference(true)
        .register(registry);
  }

  private static void counter(
      PrometheusMeterRegistry registry,
      String name,
      String description,
      String unit,
      LongAdder adder) {
    // FunctionCounter has no strongReference option; the adder is a field of ProxyStats, which the
    // running proxy holds, so the weak reference Micrometer keeps never outlives its target.
    FunctionCounter.builder(name, adder, LongAdder::doubleValue)
        .description(description)
        .baseUnit(unit)
        .register(registry);
  }
}
