package io.wireadvisor.proxy;

import java.util.List;
import java.util.Objects;

/**
 * What a hostile or broken peer may cost the proxy, and how the admin endpoint is protected.
 * Immutable; {@code with...} methods return changed copies. Kept apart from {@link ProxyConfig}'s
 * addresses and TLS so each can change without the other.
 */
public final class ProxyLimits {
  /**
   * The standalone proxy's default {@code --max-shape-bytes}: 64 MiB, more than an agent's
   * ({@link io.wireadvisor.profile.RecorderSettings#DEFAULT_MAX_SHAPE_BYTES}) since one proxy
   * records many applications.
   */
  public static final long DEFAULT_MAX_SHAPE_BYTES = 64L << 20;

  /** The standalone proxy's default {@code --max-text-bytes}: 32 MiB. */
  public static final long DEFAULT_MAX_TEXT_BYTES = 32L << 20;

  /** Default {@code --handshake-timeout}: a client must be logged in this long after connecting. */
  public static final int DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
  /** Default {@code --max-connections}: two file descriptors each (client and upstream). */
  public static final int DEFAULT_MAX_CONNECTIONS = 2048;
  /** Default {@code --max-statement-bytes}: prepared statements remembered per connection. */
  public static final long DEFAULT_STATEMENT_BYTES_PER_CONNECTION = 1L << 20;
  /** Default {@code --max-statement-bytes-total}: across every connection. */
  public static final long DEFAULT_STATEMENT_BYTES_TOTAL = 64L << 20;
  /**
   * Default {@code --max-prelogin-connections}: clients connected but not logged in yet, from
   * every source together. Each holds an upstream connection (the greeting comes from the
   * server), so this is also what stalled clients can take of the server's {@code
   * max_connections} (MySQL's default is 151).
   */
  public static final int DEFAULT_MAX_PRELOGIN_CONNECTIONS = 128;
  /**
   * Default {@code --max-prelogin-per-source}: clients not logged in yet from one address (an
   * IPv6 address counts by its /64).
   */
  public static final int DEFAULT_MAX_PRELOGIN_PER_SOURCE = 32;
  /** Default {@code --admin-timeout}: an admin request must arrive whole this fast. */
  public static final int DEFAULT_ADMIN_TIMEOUT_MILLIS = 5_000;
  /** Default {@code --admin-max-connections}. */
  public static final int DEFAULT_ADMIN_MAX_CONNECTIONS = 16;

  static final ProxyLimits DEFAULTS =
      new ProxyLimits(
          DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, 0, DEFAULT_MAX_CONNECTIONS,
          DEFAULT_STATEMENT_BYTES_PER_CONNECTION, DEFAULT_STATEMENT_BYTES_TOTAL,
          DEFAULT_ADMIN_TIMEOUT_MILLIS, DEFAULT_ADMIN_MAX_CONNECTIONS, null, List.of(), null, -1,
          DEFAULT_MAX_PRELOGIN_CONNECTIONS, DEFAULT_MAX_PRELOGIN_PER_SOURCE);

  private final int handshakeTimeoutMillis;
  private final int idleTimeoutMillis;
  private final int maxConnections;
  private final long statementBytesPerConnection;
  private final long statementBytesTotal;
  private final int adminTimeoutMillis;
  private final int adminMaxConnections;
  private final String adminToken;
  private final List<String> adminHosts;
  private final String metricsHost;
  private final int metricsPort;
  private final int maxPrelogin;
  private final int maxPreloginPerSource;

  private ProxyLimits(
      int handshakeTimeoutMillis,
      int idleTimeoutMillis,
      int maxConnections,
      long statementBytesPerConnection,
      long statementBytesTotal,
      int adminTimeoutMillis,
      int adminMaxConnections,
      String adminToken,
      List<String> adminHosts,
      String metricsHost,
      int metricsPort,
      int maxPrelogin,
      int maxPreloginPerSource) {
    this.maxPrelogin = atLeast(maxPrelogin, 1, "max pre-login connections");
    this.maxPreloginPerSource = atLeast(maxPreloginPerSource, 1, "max pre-login connections per source");
    this.handshakeTimeoutMillis = atLeast(handshakeTimeoutMillis, 0, "handshake timeout");
    this.idleTimeoutMillis = atLeast(idleTimeoutMillis, 0, "idle timeout");
    this.maxConnections = atLeast(maxConnections, 1, "max connections");
    if (statementBytesPerConnection < 0 || statementBytesTotal < 0) {
      throw new IllegalArgumentException("statement byte limits must be >= 0");
    }
    this.statementBytesPerConnection = statementBytesPerConnection;
    this.statementBytesTotal = statementBytesTotal;
    this.adminTimeoutMillis = atLeast(adminTimeoutMillis, 1, "admin timeout");
    this.adminMaxConnections = atLeast(adminMaxConnections, 1, "admin max connections");
    if (adminToken != null && adminToken.isBlank()) {
      throw new IllegalArgumentException("the admin token must not be blank");
    }
    this.adminToken = adminToken;
    this.adminHosts = List.copyOf(adminHosts);
    this.metricsHost = metricsHost;
    this.metricsPort = metricsPort;
  }

  private static int atLeast(int value, int min, String what) {
    if (value < min) {
      throw new IllegalArgumentException(what + " must be >= " + min + ", was " + value);
    }
    return value;
  }

  public static ProxyLimits defaults() {
    return DEFAULTS;
  }

  /** A client not logged in this long after connecting gets an ERR and is closed; 0 = never. */
  public ProxyLimits withHandshakeTimeoutMillis(int millis) {
    return new ProxyLimits(millis, idleTimeoutMillis, maxConnections, statementBytesPerConnection,
        statementBytesTotal, adminTimeoutMillis, adminMaxConnections, adminToken, adminHosts,
        metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** A logged-in client with no command in flight and no bytes this long is closed; 0 = never. */
  public ProxyLimits withIdleTimeoutMillis(int millis) {
    return new ProxyLimits(handshakeTimeoutMillis, millis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, adminMaxConnections,
        adminToken, adminHosts, metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** Client connections open at once; past it a client gets ERR 1040 and is closed. */
  public ProxyLimits withMaxConnections(int max) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, max,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, adminMaxConnections,
        adminToken, adminHosts, metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /**
   * Clients connected but not logged in yet: at most {@code total} at once, and at most {@code
   * perSource} from one source address; past either a client gets ERR 1040 and no upstream
   * connection is opened for it.
   */
  public ProxyLimits withMaxPrelogin(int total, int perSource) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, adminMaxConnections,
        adminToken, adminHosts, metricsHost, metricsPort, total, perSource);
  }

  /** Clients not logged in yet, all sources together (see {@link #withMaxPrelogin}). */
  public int maxPrelogin() {
    return maxPrelogin;
  }

  /** Clients not logged in yet from one source address (see {@link #withMaxPrelogin}). */
  public int maxPreloginPerSource() {
    return maxPreloginPerSource;
  }

  /** Bytes of statement-id bookkeeping per connection and in total (see docs/proxy.md). */
  public ProxyLimits withStatementBytes(long perConnection, long total) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        perConnection, total, adminTimeoutMillis, adminMaxConnections, adminToken, adminHosts,
        metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** An admin request must arrive whole, and a connection not idle, this long. */
  public ProxyLimits withAdminTimeoutMillis(int millis) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, millis, adminMaxConnections, adminToken,
        adminHosts, metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** Admin connections open at once (each listener); more are closed at once. */
  public ProxyLimits withAdminMaxConnections(int max) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, max, adminToken,
        adminHosts, metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** A Bearer token every admin request must carry ({@code /health}, {@code /metrics} exempt). */
  public ProxyLimits withAdminToken(String token) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, adminMaxConnections,
        token, adminHosts, metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** Host header values accepted besides the bound address and localhost names. */
  public ProxyLimits withAdminHosts(List<String> hosts) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, adminMaxConnections,
        adminToken, Objects.requireNonNull(hosts), metricsHost, metricsPort, maxPrelogin, maxPreloginPerSource);
  }

  /** Serves {@code /metrics} and {@code /health} (only) on a listener of their own. */
  public ProxyLimits withMetricsListen(String host, int port) {
    return new ProxyLimits(handshakeTimeoutMillis, idleTimeoutMillis, maxConnections,
        statementBytesPerConnection, statementBytesTotal, adminTimeoutMillis, adminMaxConnections,
        adminToken, adminHosts, Objects.requireNonNull(host), port, maxPrelogin, maxPreloginPerSource);
  }

  public int handshakeTimeoutMillis() {
    return handshakeTimeoutMillis;
  }

  public int idleTimeoutMillis() {
    return idleTimeoutMillis;
  }

  public int maxConnections() {
    return maxConnections;
  }

  public long statementBytesPerConnection() {
    return statementBytesPerConnection;
  }

  public long statementBytesTotal() {
    return statementBytesTotal;
  }

  public int adminTimeoutMillis() {
    return adminTimeoutMillis;
  }

  public int adminMaxConnections() {
    return adminMaxConnections;
  }

  /** The admin Bearer token, or null when none is required. */
  public String adminToken() {
    return adminToken;
  }

  public List<String> adminHosts() {
    return adminHosts;
  }

  /** The separate metrics listener's host, or null when metrics are served with the admin. */
  public String metricsHost() {
    return metricsHost;
  }

  public int metricsPort() {
    return metricsPort;
  }
}
