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
      "TLS: with --tls-cert/--tls-key the proxy terminates client TLS. Without them CLIENT_SSL is"
          + " removed from the server greeting, so clients that prefer TLS fall back to plaintext"
          + " and clients that require it fail with a clear error. The upstream leg is separate:"
          + " plaintext unless --upstream-tls says otherwise. CLIENT_COMPRESS is always removed"
          + " (compression is never negotiated through the proxy).",
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
              + " only; it has no authentication, so do not expose it). 'off' disables it.")
  String admin;

  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description =
          "Terminate client TLS with this certificate chain (PEM); needs --tls-key. The upstream"
              + " leg is set by --upstream-tls. Without it CLIENT_SSL is not offered.")
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
      names = "--config",
      paramLabel = "FILE",
      description = "Optional properties file with defaults for the options above.")
  Path config;

  /** Set by {@link #call()} once the proxy runs; lets tests and embedders wait for it. */
  private final CountDownLatch stop = new CountDownLatch(1);

  public static void main(String[] args) {
    if (System.getProperty("io.netty.leakDetection.level") == null) {
      // Netty samples one buffer in 128 with a stack trace by default: a measured 3.5% of the
      // proxy's CPU under load. The tests run at PARANOID; -Dio.netty.leakDetection.level=simple
      // turns sampling back on for a field investigation.
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
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
    cl.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof IllegalArgumentException) {
            cmd.getErr().println("wire-advisor-proxy: " + e.getMessage());
            cmd.usage(cmd.getErr());
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
            + ", "
            + cfg.upstreamTls().describe());
    stop.await();
    return 0;
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
    ProxyConfig cfg =
        ProxyConfig.of(l.host(), l.port(), u.host(), u.port())
            .withConnectTimeoutMillis(connectTimeoutMillis)
            .withWorkerThreads(threads)
            .withTransport(transport)
            .withRecorderSettings(
                RecorderSettings.defaults().withMaxShapes(maxShapes).withSampleSql(sampleSql));
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsCert != null) {
      cfg = cfg.withTls(tlsCert.toFile(), tlsKey.toFile());
    }
    cfg = cfg.withUpstreamTls(upstreamTls, upstreamCa == null ? null : upstreamCa.toFile());
    if (allowPlaintextUpstreamPasswords) {
      cfg = cfg.withPlaintextUpstreamPasswordsAllowed(true);
    }
    if (!"off".equalsIgnoreCase(admin.trim())) {
      HostPort a = HostPort.parse(admin, "127.0.0.1");
      cfg = cfg.withAdmin(a.host(), a.port());
    }
    return cfg;
  }

  /** Defaults from the --config file, if the arguments name one. */
  private static CommandLine.IDefaultValueProvider configFileDefaults(String[] args)
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

  private static final java.util.List<String> KNOWN_KEYS =
      java.util.List.of(
          "listen", "upstream", "admin", "connect-timeout", "threads", "max-shapes", "sample-sql",
          "tls-cert", "tls-key", "upstream-tls", "upstream-ca", "transport",
          "allow-plaintext-upstream-passwords");

  /** Reports the proxy's version for {@code --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"wire-advisor-proxy " + WireProxy.VERSION};
    }
  }
}
