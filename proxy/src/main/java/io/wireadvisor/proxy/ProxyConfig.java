package io.wireadvisor.proxy;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.wireadvisor.profile.RecorderSettings;
import java.io.File;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * What a {@link WireProxy} listens on and forwards to. Immutable; {@code with...} methods return
 * changed copies.
 */
public final class ProxyConfig {
  private final String listenHost;
  private final int listenPort;
  private final String upstreamHost;
  private final int upstreamPort;
  private final String adminHost;
  private final int adminPort;
  private final int connectTimeoutMillis;
  private final int workerThreads;
  private final RecorderSettings recorderSettings;
  private final SslContext tls;
  private final Transport.Kind transport;
  private final UpstreamTls upstreamTls;
  private ProxyLimits limits = ProxyLimits.DEFAULTS; // set by withLimits, carried by every copy
  private CaptureSettings capture = CaptureSettings.OFF; // set by withCapture, carried likewise
  /** {@code --allow-cleartext-passwords}; carried likewise. */
  private boolean cleartextPasswordsAllowed;
  /** How client TLS was set up, for the startup line; carried likewise. */
  private String clientTlsDescription = "client TLS off (CLIENT_SSL not offered)";

  private ProxyConfig(
      String listenHost,
      int listenPort,
      String upstreamHost,
      int upstreamPort,
      String adminHost,
      int adminPort,
      int connectTimeoutMillis,
      int workerThreads,
      RecorderSettings recorderSettings,
      SslContext tls,
      Transport.Kind transport,
      UpstreamTls upstreamTls) {
    this.listenHost = Objects.requireNonNull(listenHost, "listenHost");
    this.listenPort = checkPort(listenPort, "listen");
    this.upstreamHost = Objects.requireNonNull(upstreamHost, "upstreamHost");
    this.upstreamPort = checkPort(upstreamPort, "upstream");
    this.adminHost = adminHost;
    this.adminPort = adminHost == null ? -1 : checkPort(adminPort, "admin");
    if (connectTimeoutMillis <= 0) {
      throw new IllegalArgumentException(
          "connect timeout must be positive, was " + connectTimeoutMillis + " ms");
    }
    this.connectTimeoutMillis = connectTimeoutMillis;
    if (workerThreads < 0) {
      throw new IllegalArgumentException("worker threads must be >= 0, was " + workerThreads);
    }
    this.workerThreads = workerThreads;
    this.recorderSettings = Objects.requireNonNull(recorderSettings, "recorderSettings");
    this.tls = tls;
    this.transport = Objects.requireNonNull(transport, "transport");
    this.upstreamTls = Objects.requireNonNull(upstreamTls, "upstreamTls");
  }

  private static int checkPort(int port, String what) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(what + " port must be 0..65535, was " + port);
    }
    return port;
  }

  /**
   * Listens on {@code listenHost:listenPort} (port 0 picks a free one) and forwards to {@code
   * upstreamHost:upstreamPort}; no admin endpoint, 5 s connect timeout, default recorder bounds.
   */
  public static ProxyConfig of(
      String listenHost, int listenPort, String upstreamHost, int upstreamPort) {
    return new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, null, -1, 5_000, 0,
        RecorderSettings.defaults(), null, Transport.Kind.AUTO, UpstreamTls.OFF);
  }

  /** Serves the admin HTTP endpoints on {@code host:port} (port 0 picks a free one). */
  public ProxyConfig withAdmin(String host, int port) {
    return carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, Objects.requireNonNull(host), port,
        connectTimeoutMillis, workerThreads, recorderSettings, tls, transport, upstreamTls));
  }

  public ProxyConfig withConnectTimeoutMillis(int millis) {
    return carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort, millis,
        workerThreads, recorderSettings, tls, transport, upstreamTls));
  }

  /** Event-loop threads for connections; 0 means one per core. */
  public ProxyConfig withWorkerThreads(int threads) {
    return carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort,
        connectTimeoutMillis, threads, recorderSettings, tls, transport, upstreamTls));
  }

  public ProxyConfig withRecorderSettings(RecorderSettings settings) {
    return carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort,
        connectTimeoutMillis, workerThreads, settings, tls, transport, upstreamTls));
  }

  /**
   * Terminates client TLS with this certificate chain and PKCS#8 private key (PEM files): the
   * proxy offers CLIENT_SSL and handles the SSLRequest; the upstream connection is plaintext
   * unless {@link #withUpstreamTls} says otherwise.
   *
   * @throws IllegalArgumentException when the files cannot be read as a certificate and key
   */
  public ProxyConfig withTls(File certificateChainPem, File privateKeyPem) {
    SslContext context;
    try {
      context = SslContextBuilder.forServer(certificateChainPem, privateKeyPem).build();
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "cannot use TLS certificate " + certificateChainPem + " with key " + privateKeyPem
              + ": " + e.getMessage(), e);
    }
    ProxyConfig copy = carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort,
        connectTimeoutMillis, workerThreads, recorderSettings, context, transport, upstreamTls));
    copy.clientTlsDescription = "client TLS with certificate " + certificateChainPem;
    return copy;
  }

  /**
   * Terminates client TLS with a certificate generated now ({@link GeneratedCertificate}: RSA
   * 2048, self-signed, its private key in memory only), as MySQL 8 and TiDB's auto-tls do when
   * no certificate is configured: clients that prefer TLS get it, so no password a client sends
   * in clear ever crosses the client's leg unencrypted. Clients cannot verify it except by its
   * fingerprint ({@link #clientTlsDescription()}).
   */
  public ProxyConfig withGeneratedTls() {
    GeneratedCertificate generated = GeneratedCertificate.generate(GeneratedCertificate.DEFAULT_NAME);
    SslContext context;
    try {
      context = SslContextBuilder.forServer(generated.privateKey(), generated.certificate()).build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot use the generated TLS certificate: " + e.getMessage(), e);
    }
    ProxyConfig copy = carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort,
        connectTimeoutMillis, workerThreads, recorderSettings, context, transport, upstreamTls));
    copy.clientTlsDescription =
        "client TLS with a generated self-signed certificate (" + generated.describe()
            + "), SHA-256 fingerprint " + generated.sha256Fingerprint();
    return copy;
  }

  /**
   * Dangerous: relays passwords in clear over any plaintext leg ({@code
   * --allow-cleartext-passwords}): a plaintext client's answer to caching_sha2_password's full
   * authentication, {@code mysql_clear_password}, {@code dialog}… Off by default: such logins get
   * ERR 1045 unless both legs are TLS. Implies {@link #withPlaintextUpstreamPasswordsAllowed}.
   */
  public ProxyConfig withCleartextPasswordsAllowed(boolean allowed) {
    ProxyConfig copy = withWorkerThreads(workerThreads);
    copy.cleartextPasswordsAllowed = allowed;
    return copy;
  }

  /** See {@link #withCleartextPasswordsAllowed}. */
  public boolean cleartextPasswordsAllowed() {
    return cleartextPasswordsAllowed;
  }

  /** How client TLS is set up (off, a certificate file, or generated with its fingerprint). */
  public String clientTlsDescription() {
    return clientTlsDescription;
  }

  /**
   * The network transport: {@code "auto"} (the default) uses Linux's native epoll when it loads,
   * else NIO; {@code "epoll"} insists on epoll (start fails where it is unavailable); {@code
   * "nio"} is the JDK's portable one.
   *
   * @throws IllegalArgumentException for any other value
   */
  public ProxyConfig withTransport(String kind) {
    return carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort,
        connectTimeoutMillis, workerThreads, recorderSettings, tls, Transport.Kind.parse(kind),
        upstreamTls));
  }

  /**
   * TLS to the upstream: {@code "off"} (the default: plaintext), {@code "preferred"} (when the
   * server's greeting offers CLIENT_SSL), {@code "required"} (a server without it is refused),
   * {@code "verify-ca"} (required, and the chain must lead to a trusted CA) or {@code
   * "verify-identity"} (verify-ca, and the certificate must name the upstream host). See {@link
   * UpstreamTls} for what each verifies with and without a CA file. Keeps {@link
   * #withPlaintextUpstreamPasswordsAllowed}.
   *
   * @param caPem PEM file of CAs the server's certificate must lead to (and then, except with
   *     verify-ca, be issued for the upstream host name), or null: then preferred and required
   *     accept any server certificate (encrypted, not authenticated) and the verify modes use
   *     the JDK's default CAs
   * @throws IllegalArgumentException for another mode, a CA with mode off, or an unreadable CA
   */
  public ProxyConfig withUpstreamTls(String mode, File caPem) {
    return withUpstreamTls(
        UpstreamTls.of(UpstreamTls.Mode.parse(mode), caPem)
            .withPlaintextPasswordsAllowed(upstreamTls.plaintextPasswordsAllowed()));
  }

  /**
   * Dangerous: relays logins whose authentication plugin sends the password itself ({@code
   * mysql_clear_password}, LDAP/PAM, {@code tidb_auth_token}, caching_sha2_password full
   * authentication...) from a TLS client connection over a plaintext upstream connection, where
   * anyone on the path can read it. Off by default: such logins get ERR 1045.
   */
  public ProxyConfig withPlaintextUpstreamPasswordsAllowed(boolean allowed) {
    return withUpstreamTls(upstreamTls.withPlaintextPasswordsAllowed(allowed));
  }

  private ProxyConfig withUpstreamTls(UpstreamTls upstream) {
    return carry(new ProxyConfig(
        listenHost, listenPort, upstreamHost, upstreamPort, adminHost, adminPort,
        connectTimeoutMillis, workerThreads, recorderSettings, tls, transport, upstream));
  }

  /** Timeouts, connection and memory limits, admin protection: see {@link ProxyLimits}. */
  public ProxyConfig withLimits(ProxyLimits limits) {
    ProxyConfig copy = withWorkerThreads(workerThreads);
    copy.limits = Objects.requireNonNull(limits, "limits");
    return copy;
  }

  /** Capture of traffic to a file: at start-up, or by the admin endpoint (docs/replay.md). */
  public ProxyConfig withCapture(CaptureSettings capture) {
    ProxyConfig copy = withWorkerThreads(workerThreads);
    copy.capture = Objects.requireNonNull(capture, "capture");
    return copy;
  }

  public CaptureSettings capture() {
    return capture;
  }

  public ProxyLimits limits() {
    return limits;
  }

  /** {@code copy} with this configuration's limits (the constructor leaves them at default). */
  private ProxyConfig carry(ProxyConfig copy) {
    copy.limits = limits;
    copy.capture = capture;
    copy.cleartextPasswordsAllowed = cleartextPasswordsAllowed;
    copy.clientTlsDescription = clientTlsDescription;
    return copy;
  }

  /** TLS to the upstream server (mode off unless configured). */
  public UpstreamTls upstreamTls() {
    return upstreamTls;
  }

  Transport.Kind transport() {
    return transport;
  }

  /** The server-side TLS context for clients, or null when TLS is not terminated. */
  public SslContext tls() {
    return tls;
  }

  public String listenHost() {
    return listenHost;
  }

  public int listenPort() {
    return listenPort;
  }

  public String upstreamHost() {
    return upstreamHost;
  }

  public int upstreamPort() {
    return upstreamPort;
  }

  public String upstreamAddress() {
    return upstreamHost + ":" + upstreamPort;
  }

  /** The admin host, or null when the admin endpoint is off. */
  public String adminHost() {
    return adminHost;
  }

  public int adminPort() {
    return adminPort;
  }

  public int connectTimeoutMillis() {
    return connectTimeoutMillis;
  }

  public int workerThreads() {
    return workerThreads;
  }

  public RecorderSettings recorderSettings() {
    return recorderSettings;
  }
}
