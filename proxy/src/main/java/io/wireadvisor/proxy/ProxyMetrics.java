package io.wireadvisor.proxy;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

/**
 * The proxy's Micrometer meters: its own counters, read live, and per-command counts and
 * latencies, read from a profile snapshot taken at most once per scrape.
 */
final class ProxyMetrics implements MeterBinder {
  private static final long SNAPSHOT_MAX_AGE_NANOS = 500_000_000L;

  private final WireProxy proxy;
  private TrafficProfile cached;
  private long cachedAt;

  ProxyMetrics(WireProxy proxy) {
    this.proxy = proxy;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    ProxyStats s = proxy.stats();
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
    counter(registry, "wireadvisor.proxy.statements.untracked", "Prepared statements not remembered because a statement byte limit was reached", null, s.statementsNotTracked);
    Gauge.builder("wireadvisor.proxy.statement.bytes", s.statementBytes, java.util.concurrent.atomic.AtomicLong::get).description("Bytes of prepared-statement bookkeeping held by every connection").baseUnit("bytes").register(registry);
    counter(registry, "wireadvisor.proxy.upstream.lost", "Upstream connections lost during a command (the client got an ERR)", null, s.upstreamLostMidCommand);
    counter(registry, "wireadvisor.proxy.client.protocol.errors", "Client connections closed for breaking the protocol", null, s.clientProtocolErrors);
    counter(registry, "wireadvisor.proxy.unparseable.responses", "Server responses the proxy could not follow (classification stopped on that connection)", null, s.unparseableResponses);
    Gauge.builder("wireadvisor.proxy.client.connections", s.clientConnections, Number::doubleValue)
        .description("Client connections open now")
        .register(registry);
    Gauge.builder("wireadvisor.proxy.upstream.connections", s.upstreamConnections, Number::doubleValue)
        .description("Upstream connections open now")
        .register(registry);
    for (CommandType type : CommandType.values()) {
      String tag = type.wireName().toLowerCase(java.util.Locale.ROOT);
      FunctionCounter.builder("wireadvisor.proxy.commands", this, m -> m.profile().count(type))
          .description("Commands forwarded to the server, by type")
          .tag("type", tag)
          .register(registry);
      latencyGauge(registry, type, tag, "0.5", h -> h.quantile(0.5));
      latencyGauge(registry, type, tag, "0.99", h -> h.quantile(0.99));
    }
    Gauge.builder("wireadvisor.proxy.probes", this, m -> m.profile().totalProbes())
        .description("Session-variable probes seen (SELECT @@..., SET autocommit, ...)")
        .register(registry);
    Gauge.builder("wireadvisor.proxy.shapes", this, m -> m.profile().shapes().size())
        .description("Distinct statement shapes recorded")
        .register(registry);
    Gauge.builder("wireadvisor.proxy.statement.errors", this, m -> m.profile().total(Via.ERRORS))
        .description("Statements the server answered with ERR")
        .register(registry);
  }

  private void latencyGauge(
      MeterRegistry registry, CommandType type, String tag, String q, ToDoubleFunction<Histogram> f) {
    Gauge.builder(
            "wireadvisor.proxy.command.latency",
            this,
            m -> {
              CommandStats c = m.profile().commands().get(type);
              return c == null || c.latency() == null ? Double.NaN : f.applyAsDouble(c.latency()) / 1e9;
            })
        .description("Request-to-response time by command type, since start (upper bucket bound)")
        .baseUnit("seconds")
        .tag("type", tag)
        .tag("quantile", q)
        .register(registry);
  }

  private static void counter(
      MeterRegistry registry, String name, String description, String unit, LongAdder adder) {
    FunctionCounter.builder(name, adder, LongAdder::doubleValue)
        .description(description)
        .baseUnit(unit)
        .register(registry);
  }

  private synchronized TrafficProfile profile() {
    long now = System.nanoTime();
    if (cached == null || now - cachedAt > SNAPSHOT_MAX_AGE_NANOS) {
      cached = proxy.profile();
      cachedAt = now;
    }
    return cached;
  }
}
