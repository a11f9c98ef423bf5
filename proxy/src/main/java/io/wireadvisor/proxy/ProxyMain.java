package io.wireadvisor.proxy;

import io.netty.util.ResourceLeakDetector;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * {@code java -jar wire-advisor-proxy.jar --listen 127.0.0.1:4001 --upstream tidb-host:4000}:
 * runs the proxy until the process is stopped.
 */
@Command(
    name = "wire-advisor-proxy",
    mixinStandardHelpOptions = true,
    versionProvider = ProxyMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "A MySQL-protocol proxy: point any application (any language, any driver) at --listen;"
          + " it forwards every byte to --upstream unchanged and classifies the traffic into the"
          + " same traffic profile the wire-advisor agent writes.",
      "TLS: the proxy always offers clients TLS, with --tls-cert/--tls-key or else with a"
          + " self-signed certificate generated at start-up (its SHA-256 fingerprint is printed)."
          + " The upstream leg is separate: plaintext unless --upstream-tls says otherwise. A"
          + " password in clear never crosses a plaintext leg: logins that would send one are"
          + " refused with ERR 1045 unless --allow-cleartext-passwords. CLIENT_COMPRESS is always"
          + " removed (compression is never negotiated through the proxy).",
      ""
    },
    footer = {
      "",
      "Every option can also be set in a properties file given with --config, using the option's"
          + " long name without dashes as the key (e.g. upstream=tidb:4000); the command line wins.",
      "Exit codes: 0 stopped normally, 1 could not start (address in use...), 2 bad arguments."
    })
public final class ProxyMain implements Callable<Integer> {
  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:4001",
      description = "Address clients connect to (default: ${DEFAULT-VALUE}). A bare port means 127.0.0.1.")
  String listen;

  @Option(
      names = "--upstream",
      paramLabel = "HOST:PORT",
      description = "Required: the TiDB/MySQL server to forward to, e.g. tidb-host:4000.")
  String upstream;

  @Option(
      names = "--admin",
      paramLabel = "HOST:PORT|off",
      defaultValue = "127.0.0.1:9091",
      description =
          "Admin HTTP endpoint: /metrics (Prometheus), /profile (JSON), /report"
              + " (?format=text|markdown|json|html), /health. Default: ${DEFAULT-VALUE} (loopback"
              + " only). Without an admin token it has no authentication: do not expose it."
              + " 'off' disables it.")
  String admin;

  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description =
          "Terminate client TLS with this certificate chain (PEM); needs --tls-key. The upstream"
              + " leg is set by --upstream-tls. Without it the proxy generates a self-signed"
              + " certificate at start-up (key in memory only) and prints its SHA-256 fingerprint.")
  Path tlsCert;

  @Option(
      names = "--tls-key",
      paramLabel = "PEM",
      description = "The certificate's private key (PKCS#8 PEM, unencrypted).")
  Path tlsKey;

  @Option(
      names = "--upstream-tls",
      paramLabel = "off|preferred|required|verify-ca|verify-identity",
      defaultValue = "off",
      description =
          "TLS between proxy and upstream (MySQL's --ssl-mode names): off (plaintext), preferred"
              + " (TLS when the server's greeting offers CLIENT_SSL), required (a server without"
              + " it is refused: the client gets an ERR), verify-ca (required, and the"
              + " certificate chain must lead to --upstream-ca, or to the JDK's default CAs"
              + " without it; host name not checked), verify-identity (verify-ca, and the"
              + " certificate must be issued for the --upstream host name). Needed for servers"
              + " with require_secure_transport (TiDB Cloud, managed MySQL). Default:"
              + " ${DEFAULT-VALUE}.")
  String upstreamTls;

  @Option(
      names = "--upstream-ca",
      paramLabel = "PEM",
      description =
          "Verify the upstream's certificate against these CA certificates (PEM): its chain and,"
              + " unless --upstream-tls verify-ca, its host name (the --upstream host, also sent"
              + " as SNI). Without it preferred/required accept any server certificate: encrypted"
              + " but not authenticated (an attacker on the path could pose as the server).")
  Path upstreamCa;

  @Option(
      names = "--allow-plaintext-upstream-passwords",
      description =
          "DANGEROUS. When a client's connection is TLS but the upstream's is not, logins whose"
              + " authentication plugin sends the password itself (mysql_clear_password, LDAP,"
              + " PAM, tidb_auth_token, caching_sha2_password full authentication...) are"
              + " refused with ERR 1045 so the password never crosses the plaintext upstream;"
              + " this relays them anyway. Use --upstream-tls required instead.")
  boolean allowPlaintextUpstreamPasswords;

  @Option(
      names = "--allow-cleartext-passwords",
      description =
          "DANGEROUS. Relay passwords in clear over any plaintext leg: a plaintext client's"
              + " answer to caching_sha2_password's full authentication, mysql_clear_password,"
              + " LDAP/PAM... Without it such logins get ERR 1045 unless both legs are TLS (a"
              + " plaintext client may still use the RSA public-key exchange). Implies"
              + " --allow-plaintext-upstream-passwords.")
  boolean allowCleartextPasswords;

  @Option(
      names = "--connect-timeout",
      paramLabel = "MILLIS",
      defaultValue = "5000",
      description = "How long to wait for the upstream's TCP connect (and its TLS handshake) before the client gets an ERR (default: ${DEFAULT-VALUE}).")
  int connectTimeoutMillis;

  @Option(
      names = "--threads",
      paramLabel = "N",
      defaultValue = "0",
      description = "Event-loop threads for connections; 0 = one per core (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = "--transport",
      paramLabel = "auto|epoll|nio",
      defaultValue = "auto",
      description =
          "Network transport: auto uses Linux's native epoll when it loads, else NIO; epoll"
              + " fails to start where it is unavailable (default: ${DEFAULT-VALUE}).")
  String transport;

  @Option(
      names = "--capture",
      paramLabel = "FILE",
      description =
          "Capture the traffic from start-up into FILE (created new, 0600; it holds statements and"
              + " data values) until --capture-max-bytes or --capture-max-seconds; for"
              + " `wire-advisor replay` (docs/replay.md). Off by default.")
  java.nio.file.Path captureFile;

  @Option(
      names = "--capture-dir",
      paramLabel = "DIR",
      description =
          "Let the admin endpoint start a capture (POST /capture/start?name=FILE, with"
              + " --admin-token) into this directory. Connections then keep their prepared"
              + " statements' texts (within --max-statement-bytes) so that executions of statements"
              + " prepared before the capture can be replayed. Off by default.")
  java.nio.file.Path captureDir;

  @Option(
      names = "--capture-max-bytes",
      paramLabel = "BYTES",
      defaultValue = "" + CaptureSettings.DEFAULT_MAX_BYTES,
      description = "A capture's size limit, the file's bytes (default: ${DEFAULT-VALUE}).")
  long captureMaxBytes;

  @Option(
      names = "--capture-max-seconds",
      paramLabel = "SECONDS",
      defaultValue = "" + CaptureSettings.DEFAULT_MAX_SECONDS,
      description = "A capture's time limit (default: ${DEFAULT-VALUE}).")
  long captureMaxSeconds;

  @Option(
      names = "--capture-mask-values",
      description =
          "Write captured values as their type and length only (replay then generates values of"
              + " the same type and length).")
  boolean captureMaskValues;

  @Option(
      names = "--max-shapes",
      paramLabel = "N",
      defaultValue = "" + TrafficProfile.DEFAULT_MAX_SHAPES,
      description = "Distinct statement shapes kept before new ones count as 'overflow' (default: ${DEFAULT-VALUE}).")
  int maxShapes;

  @Option(
      names = "--sample-sql",
      description =
          "Keep one original SQL text per shape in the profile. Off by default: literals may hold personal data.")
  boolean sampleSql;

  @Option(
      names = "--max-shape-bytes",
      paramLabel = "BYTES",
      description = "Bytes (estimated) shapes may hold besides their counters: digest texts, table names, samples; past it new shapes count as 'overflow' (default: " + ProxyLimits.DEFAULT_MAX_SHAPE_BYTES + ", or 1/8 of the heap if less).")
  Long maxShapeBytes;

  @Option(
      names = "--max-text-bytes",
      paramLabel = "BYTES",
      description = "Bytes (estimated) of recently seen SQL texts remembered to skip re-classifying them; forgotten and refilled when full (default: " + ProxyLimits.DEFAULT_MAX_TEXT_BYTES + ", or 1/16 of the heap if less).")
  Long maxTextBytes;

  // Limits against hostile or broken peers, and admin protection (ProxyLimits).
  @Option(
      names = "--handshake-timeout",
      paramLabel = "MILLIS",
      defaultValue = "" + ProxyLimits.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS,
      description = "A client not logged in this long after connecting gets ERR 1043 and is closed; 0 = no limit (default: ${DEFAULT-VALUE}).")
  int handshakeTimeoutMillis;

  @Option(
      names = "--idle-timeout",
      paramLabel = "MILLIS",
      defaultValue = "0",
      description = "Close a logged-in client after this long without a byte and with no command in flight; 0 = never (default: ${DEFAULT-VALUE}; the server's wait_timeout still applies).")
  int idleTimeoutMillis;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description = "Client connections open at once; past it a client gets ERR 1040 'Too many connections' and is closed. Each uses two file descriptors and up to " + (HeapBudget.CONNECTION_BYTES >> 10) + " KiB of heap; with the process-wide budgets they must fit " + HeapBudget.SHARE_PERCENT + "%% of the heap, else the proxy does not start (default: " + ProxyLimits.DEFAULT_MAX_CONNECTIONS + ", or what fits the heap if less).")
  Integer maxConnections;

  @Option(
      names = "--max-prelogin-connections",
      paramLabel = "N",
      defaultValue = "" + ProxyLimits.DEFAULT_MAX_PRELOGIN_CONNECTIONS,
      description = "Clients connected but not logged in yet, at once; past it a client gets ERR 1040 and no upstream connection is opened for it. Each holds an upstream connection until it logs in (default: ${DEFAULT-VALUE}).")
  int maxPreloginConnections;

  @Option(
      names = "--max-prelogin-per-source",
      paramLabel = "N",
      defaultValue = "" + ProxyLimits.DEFAULT_MAX_PRELOGIN_PER_SOURCE,
      description = "The same from one client address (an IPv6 address counts by its /64) (default: ${DEFAULT-VALUE}).")
  int maxPreloginPerSource;

  @Option(
      names = "--max-statement-bytes",
      paramLabel = "BYTES",
      defaultValue = "" + ProxyLimits.DEFAULT_STATEMENT_BYTES_PER_CONNECTION,
      description = "Prepared-statement bookkeeping kept per connection; statements past it are forwarded but their EXECUTEs are not attributed to a shape (default: ${DEFAULT-VALUE}).")
  long maxStatementBytes;

  @Option(
      names = "--max-statement-bytes-total",
      paramLabel = "BYTES",
      description = "The same, summed over every connection (default: " + ProxyLimits.DEFAULT_STATEMENT_BYTES_TOTAL + ", or 1/8 of the heap if less).")
  Long maxStatementBytesTotal;

  @Option(
      names = "--admin-token-file",
      paramLabel = "FILE",
      description = "Require 'Authorization: Bearer <token>' on the admin endpoints except /health and /metrics; the token is this file's first line. The environment variable WIRE_ADVISOR_ADMIN_TOKEN works too (neither shows in ps).")
  Path adminTokenFile;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description = "The admin token on the command line (visible in ps: prefer --admin-token-file or WIRE_ADVISOR_ADMIN_TOKEN).")
  String adminToken;

  @Option(
      names = "--admin-allow-host",
      paramLabel = "HOST",
      split = ",",
      description = "Host header values the admin endpoints accept besides the bound address, localhost, 127.0.0.1 and [::1] (DNS-rebinding defense); comma-separated.")
  java.util.List<String> adminAllowHosts;

  @Option(
      names = "--admin-timeout",
      paramLabel = "MILLIS",
      defaultValue = "" + ProxyLimits.DEFAULT_ADMIN_TIMEOUT_MILLIS,
      description = "An admin request must arrive whole within this, and idle admin connections are closed after it (default: ${DEFAULT-VALUE}).")
  int adminTimeoutMillis;

  @Option(
      names = "--admin-max-connections",
      paramLabel = "N",
      defaultValue = "" + ProxyLimits.DEFAULT_ADMIN_MAX_CONNECTIONS,
      description = "Admin connections open at once per listener; more are closed at once (default: ${DEFAULT-VALUE}).")
  int adminMaxConnections;

  @Option(
      names = "--metrics-listen",
      paramLabel = "HOST:PORT",
      description = "Serve /metrics and /health on this address instead, apart from /profile and /report (which reveal table names and, with --sample-sql, literals).")
  String metricsListen;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Optional properties file with defaults for the options above.")
  Path config;

  /** The heap the limits are checked against (tests replace it). */
  java.util.function.LongSupplier maxHeap = () -> Runtime.getRuntime().maxMemory();

  /** Limits lowered to fit the heap, said at start-up (set by {@link #toConfig}). */
  private java.util.List<String> heapNotes = java.util.List.of();

  /** Where WIRE_ADVISOR_ADMIN_TOKEN is read from (tests replace it). */
  java.util.function.Function<String, String> environment = System::getenv;

  /** Set by {@link #call()} once the proxy runs; lets tests and embedders wait for it. */
  private final CountDownLatch stop = new CountDownLatch(1);

  public static void main(String[] args) {
    if (System.getProperty("io.netty.leakDetection.level") == null) {
      // Netty samples one buffer in 128 with a stack trace by default: a measured 3.5% of the
      // proxy's CPU under load. The tests run at PARANOID; -Dio.netty.leakDetection.level=simple
      // turns sampling back on for a field investigation.
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
    Thread.setDefaultUncaughtExceptionHandler(Fatal.UNCAUGHT); // an Error ends the process
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Parses {@code args} and runs the proxy until it is stopped; returns the exit code. */
  static int run(String[] args, PrintWriter out, PrintWriter err) {
    ProxyMain main = new ProxyMain();
    CommandLine cl = new CommandLine(main);
    cl.setOut(out);
    cl.setErr(err);
    try {
      cl.setDefaultValueProvider(configFileDefaults(args));
    } catch (IOException | IllegalArgumentException e) {
      err.println("wire-advisor-proxy: " + e.getMessage());
      return 2;
    }
    // A bad flag: one line naming it, a suggestion where picocli has one, a pointer to --help;
    // not the whole help, which buries the one line that matters.
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          PrintWriter e = ex.getCommandLine().getErr();
          e.println("wire-advisor-proxy: " + ex.getMessage());
          if (ex instanceof CommandLine.UnmatchedArgumentException) {
            java.util.List<String> s = ((CommandLine.UnmatchedArgumentException) ex).getSuggestions();
            if (!s.isEmpty()) {
              e.println("did you mean: " + String.join(" or ", s) + "?");
            }
          }
          e.println("see: wire-advisor-proxy --help");
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof IllegalArgumentException) {
            cmd.getErr().println("wire-advisor-proxy: " + e.getMessage());
            cmd.getErr().println("see: wire-advisor-proxy --help");
            return 2;
          }
          cmd.getErr().println("wire-advisor-proxy: could not start: " + e);
          return 1;
        });
    return cl.execute(args);
  }

  @Override
  public Integer call() throws Exception {
    ProxyConfig cfg = toConfig();
    WireProxy proxy;
    try {
      proxy = WireProxy.start(cfg);
    } catch (IOException | IllegalStateException e) {
      System.err.println(
          "wire-advisor-proxy: could not start: " + e.getClass().getSimpleName() + ": " + e.getMessage());
      return 1;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  proxy.close();
                  stop.countDown();
                },
                "wire-advisor-proxy-shutdown"));
    System.out.println(
        "wire-advisor proxy "
            + WireProxy.VERSION
            + " ("
            + proxy.transport()
            + ") listening on "
            + new HostPort(proxy.address().getHostString(), proxy.port())
            + ", forwarding to "
            + cfg.upstreamAddress()
            + (proxy.adminPort() >= 0
                ? ", admin http://" + cfg.adminHost() + ":" + proxy.adminPort() + "/"
                : ", admin off")
            + (proxy.metricsPort() >= 0
                ? ", metrics http://" + cfg.limits().metricsHost() + ":" + proxy.metricsPort() + "/metrics"
                : "")
            + (cfg.limits().adminToken() != null ? ", admin token required" : "")
            + ", "
            + cfg.clientTlsDescription()
            + ", "
            + cfg.upstreamTls().describe()
            + (cfg.cleartextPasswordsAllowed()
                ? "; passwords MAY cross a plaintext leg in clear (--allow-cleartext-passwords)"
                : ""));
    for (String note : heapNotes) {
      System.err.println("wire-advisor-proxy: lowered to fit the heap: " + note);
    }
    for (String warning : exposureWarnings(cfg, proxy.adminPort(), proxy.metricsPort())) {
      System.err.println("wire-advisor-proxy: WARNING: " + warning);
    }
    for (String warning : upstreamWarnings(cfg)) {
      System.err.println("wire-advisor-proxy: WARNING: " + warning);
    }
    stop.await();
    return 0;
  }

  /**
   * Warnings for admin listeners reachable beyond this host without an admin token: {@code --admin}
   * then serves {@code /profile} and {@code /report} (table names, statement shapes, with
   * {@code --sample-sql} literals) to anyone who reaches it, {@code --metrics-listen} its counts.
   */
  static java.util.List<String> exposureWarnings(ProxyConfig cfg, int adminPort, int metricsPort) {
    java.util.List<String> warnings = new java.util.ArrayList<>();
    if (cfg.limits().adminToken() != null) {
      return warnings;
    }
    if (cfg.adminHost() != null && !loopback(cfg.adminHost())) {
      warnings.add("--admin " + new HostPort(cfg.adminHost(), adminPort) + " is not a"
          + " loopback address and there is no admin token: anyone who reaches it reads /profile"
          + " and /report (table names, statement shapes" + (cfg.recorderSettings().sampleSql()
              ? ", SQL samples with their literals" : "")
          + "). Bind it to 127.0.0.1, or set --admin-token-file / WIRE_ADVISOR_ADMIN_TOKEN");
    }
    if (cfg.limits().metricsHost() != null && !loopback(cfg.limits().metricsHost())) {
      warnings.add("--metrics-listen " + new HostPort(cfg.limits().metricsHost(), metricsPort)
          + " is not a loopback address and there is no admin token: anyone who reaches it reads"
          + " /metrics and /health (counts, no SQL; no token covers these two): restrict who"
          + " reaches the address");
    }
    return warnings;
  }

  /**
   * A warning when the leg to the server is plaintext: the login's password is guarded, but SQL a
   * client sends over TLS ({@code ALTER USER … IDENTIFIED BY 'pw'}, {@code SET PASSWORD}, keys in
   * {@code AES_ENCRYPT}) crosses to the server in clear (found by the attacker's rerun of issue 28).
   */
  static java.util.List<String> upstreamWarnings(ProxyConfig cfg) {
    if (cfg.upstreamTls().mode() != UpstreamTls.Mode.OFF) {
      return java.util.Collections.emptyList();
    }
    return java.util.Collections.singletonList(
        "the leg to " + new HostPort(cfg.upstreamHost(), cfg.upstreamPort()) + " is plaintext"
            + " (--upstream-tls off): passwords and keys inside SQL (ALTER USER ... IDENTIFIED BY,"
            + " SET PASSWORD, AES_ENCRYPT keys) cross it in clear even from a TLS client; use"
            + " --upstream-tls preferred (or required) where the server offers TLS");
  }

  /** True for a loopback address or a name that resolves only to loopback addresses. */
  static boolean loopback(String host) {
    try {
      java.net.InetAddress[] all = java.net.InetAddress.getAllByName(host);
      for (java.net.InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  ProxyConfig toConfig() {
    if (upstream == null || upstream.isBlank()) {
      throw new IllegalArgumentException("--upstream HOST:PORT is required");
    }
    HostPort l = HostPort.parse(listen, "127.0.0.1");
    HostPort u = HostPort.parse(upstream, "127.0.0.1");
    if (u.port() == 0) {
      throw new IllegalArgumentException("--upstream needs a real port, not 0");
    }
    if (maxShapes < 2) {
      throw new IllegalArgumentException("--max-shapes must be at least 2, was " + maxShapes);
    }
    HeapBudget.Plan plan =
        HeapBudget.plan(
            maxHeap.getAsLong(), maxConnections, maxStatementBytesTotal, maxShapeBytes,
            maxTextBytes);
    heapNotes = plan.notes();
    ProxyConfig cfg =
        ProxyConfig.of(l.host(), l.port(), u.host(), u.port())
            .withConnectTimeoutMillis(connectTimeoutMillis)
            .withWorkerThreads(threads)
            .withTransport(transport)
            .withRecorderSettings(
                RecorderSettings.defaults()
                    .withMaxBytes(plan.textBytes(), plan.shapeBytes())
                    .withMaxShapes(maxShapes)
                    .withSampleSql(sampleSql));
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsCert != null) {
      cfg = cfg.withTls(tlsCert.toFile(), tlsKey.toFile());
    } else {
      cfg = cfg.withGeneratedTls(); // clients that prefer TLS get it: see LoginGuard
    }
    if (allowCleartextPasswords) {
      cfg = cfg.withCleartextPasswordsAllowed(true);
    }
    cfg = cfg.withUpstreamTls(upstreamTls, upstreamCa == null ? null : upstreamCa.toFile());
    if (allowPlaintextUpstreamPasswords) {
      cfg = cfg.withPlaintextUpstreamPasswordsAllowed(true);
    }
    if (!"off".equalsIgnoreCase(admin.trim())) {
      HostPort a = HostPort.parse(admin, "127.0.0.1");
      cfg = cfg.withAdmin(a.host(), a.port());
    }
    cfg = cfg.withLimits(toLimits(plan));
    if (captureDir != null && !java.nio.file.Files.isDirectory(captureDir)) {
      throw new IllegalArgumentException("--capture-dir " + captureDir + " is not a directory");
    }
    if (captureDir != null && cfg.limits().adminToken() == null) {
      throw new IllegalArgumentException(
          "--capture-dir needs an admin token (--admin-token-file or WIRE_ADVISOR_ADMIN_TOKEN):"
              + " starting a capture writes the application's data to disk");
    }
    cfg = cfg.withCapture(new CaptureSettings(captureFile, captureDir, captureMaxBytes,
        captureMaxSeconds, captureMaskValues));
    return cfg;
  }

  /** The limits and admin protection from the options (and WIRE_ADVISOR_ADMIN_TOKEN). */
  ProxyLimits toLimits(HeapBudget.Plan plan) {
    ProxyLimits limits =
        ProxyLimits.defaults()
            .withHandshakeTimeoutMillis(handshakeTimeoutMillis)
            .withIdleTimeoutMillis(idleTimeoutMillis)
            .withMaxConnections(plan.maxConnections())
            .withMaxPrelogin(maxPreloginConnections, maxPreloginPerSource)
            .withStatementBytes(maxStatementBytes, plan.statementBytesTotal())
            .withAdminTimeoutMillis(adminTimeoutMillis)
            .withAdminMaxConnections(adminMaxConnections)
            .withAdminHosts(adminAllowHosts == null ? java.util.List.of() : adminAllowHosts);
    String token = adminToken;
    if (adminTokenFile != null) {
      try {
        java.util.List<String> lines = Files.readAllLines(adminTokenFile);
        token = lines.isEmpty() ? "" : lines.get(0).trim();
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read --admin-token-file " + adminTokenFile + ": " + e.getMessage(), e);
      }
    } else if (token == null) {
      token = environment.apply("WIRE_ADVISOR_ADMIN_TOKEN");
    }
    if (token != null) {
      if (token.isBlank()) {
        throw new IllegalArgumentException("the admin token is empty");
      }
      limits = limits.withAdminToken(token);
    }
    if (metricsListen != null) {
      HostPort m = HostPort.parse(metricsListen, "127.0.0.1");
      limits = limits.withMetricsListen(m.host(), m.port());
    }
    return limits;
  }

  /** Defaults from the --config file, if the arguments name one. */
  static CommandLine.IDefaultValueProvider configFileDefaults(String[] args)
      throws IOException {
    Path file = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        file = Path.of(args[i + 1]);
      } else if (args[i].startsWith("--config=")) {
        file = Path.of(args[i].substring("--config=".length()));
      }
    }
    if (file == null) {
      return null;
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    } catch (IOException e) {
      throw new IOException("cannot read --config " + file + ": " + e.getMessage(), e);
    }
    for (String key : p.stringPropertyNames()) {
      if (!KNOWN_KEYS.contains(key)) {
        throw new IllegalArgumentException(
            "unknown key '" + key + "' in " + file + "; known keys: " + KNOWN_KEYS);
      }
    }
    return (ArgSpec spec) -> {
      if (spec instanceof OptionSpec o && o.longestName().startsWith("--")) {
        String value = p.getProperty(o.longestName().substring(2));
        if (value != null) {
          return value;
        }
      }
      return spec.defaultValue();
    };
  }

  /**
   * The keys a --config file may hold: every option's long name without its dashes, but {@code
   * config}, {@code help} and {@code version}; read from the options themselves, so a new flag is
   * a key without a second list to keep in step.
   */
  static final java.util.List<String> KNOWN_KEYS = configKeys();

  private static java.util.List<String> configKeys() {
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (OptionSpec o : CommandLine.Model.CommandSpec.forAnnotatedObject(new ProxyMain()).options()) {
      String name = o.longestName();
      if (name.startsWith("--") && !java.util.List.of("--config", "--help", "--version").contains(name)) {
        keys.add(name.substring(2));
      }
    }
    return java.util.List.copyOf(keys);
  }

  /** Reports the proxy's version for {@code --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"wire-advisor-proxy " + WireProxy.VERSION};
    }
  }
}
