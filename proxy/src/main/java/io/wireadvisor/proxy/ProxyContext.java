package io.wireadvisor.proxy;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.Source;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/** What every connection of one proxy shares: configuration, recorder, counters. */
final class ProxyContext {
  final ProxyConfig config;
  final ProfileRecorder recorder;
  final Transport transport;
  final ProxyStats stats = new ProxyStats();
  /** Clients not logged in yet, in total and per source (--max-prelogin-*). */
  final PreloginLimiter prelogin;
  /** Traffic capture to a file (off unless configured). */
  final ProxyCapture capture;
  private volatile String instance;
  private final long startMillis = System.currentTimeMillis();
  private final AtomicBoolean sourceKnown = new AtomicBoolean();

  ProxyContext(ProxyConfig config, ProfileRecorder recorder, Transport transport) {
    this.config = config;
    this.transport = transport;
    this.recorder = recorder;
    this.instance = config.listenHost() + ":" + config.listenPort();
    this.capture = new ProxyCapture(config.capture(), config.limits(),
        config.upstreamHost() + ":" + config.upstreamPort());
    ProxyLimits limits = config.limits();
    this.prelogin =
        new PreloginLimiter(
            Math.min(limits.maxPrelogin(), limits.maxConnections()), limits.maxPreloginPerSource());
  }

  /** Names the proxy instance by its bound address (known only after binding port 0). */
  void instance(String listenAddress) {
    this.instance = listenAddress;
  }

  /** The bound listen address, {@code host:port}: the {@code instance} of profile and metrics. */
  String instance() {
    return instance;
  }

  /** The upstream's version from a greeting: names the profile's source (once). */
  void serverVersion(String version) {
    capture.server(version);
    if (sourceKnown.compareAndSet(false, true)) {
      recorder.source(
          new Source(
              Source.PROXY, WireProxy.VERSION, instance, null, null, version, null, null,
              Map.of(), startMillis, startMillis));
    }
  }
}
