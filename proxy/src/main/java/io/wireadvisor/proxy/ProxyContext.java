package io.wireadvisor.proxy;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.Source;
import java.util.Map;
import java.util.TreeMap;

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
  private volatile String serverVersion;
  /** Distinct clients seen (their source keys), at most {@link #MAX_CLIENT_SOURCES}. */
  private final Map<String, Boolean> clients = new java.util.HashMap<>();

  /**
   * Sources kept per client kind, version and program (each at most {@link
   * ClientAttributes#KEPT} values of {@link ClientAttributes#MAX_VALUE_CHARS} characters); more
   * clients count in one source named {@link #OTHER_CLIENTS}.
   */
  static final int MAX_CLIENT_SOURCES = 32;

  /** The driver name of the source past {@link #MAX_CLIENT_SOURCES}. */
  static final String OTHER_CLIENTS = "(other clients)";

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

  /** The upstream's version from a greeting: the server version of the profile's sources. */
  void serverVersion(String version) {
    capture.server(version);
    if (serverVersion == null) {
      serverVersion = version;
    }
  }

  /**
   * A client logged in with these connection attributes ({@link ClientAttributes#parse}): the
   * profile gets a source for its client name and version ({@code driverName}, {@code
   * driverVersion}) and the other kept attributes ({@code program_name}…, as properties); a
   * client without attributes gets a source without a driver name. Returns the client's key
   * ({@link Source#clientKey()}), under which the connection's shapes and commands are attributed.
   */
  synchronized String client(Map<String, String> attributes) {
    Map<String, String> props = new TreeMap<>(attributes);
    String name = props.remove("_client_name");
    String version = props.remove("_client_version");
    String key = name + '\u0000' + version + '\u0000' + props;
    if (!clients.containsKey(key)) {
      if (clients.size() >= MAX_CLIENT_SOURCES) {
        name = OTHER_CLIENTS;
        version = null;
        props.clear();
      } else {
        clients.putIfAbsent(key, Boolean.TRUE);
      }
    }
    Source source =
        new Source(
            Source.PROXY, WireProxy.VERSION, instance, name, version, serverVersion, null, null,
            props, startMillis, startMillis);
    recorder.source(source);
    return source.clientKey();
  }

  /** Distinct client sources registered (bounded by {@link #MAX_CLIENT_SOURCES}). */
  synchronized int clientSources() {
    return clients.size();
  }
}
