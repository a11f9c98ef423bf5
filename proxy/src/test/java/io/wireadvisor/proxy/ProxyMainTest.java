package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProxyMainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return ProxyMain.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** Parses {@code args} into {@code main} as the command line does, --config file included. */
  static void parse(ProxyMain main, String... args) throws Exception {
    CommandLine cl = new CommandLine(main);
    cl.setDefaultValueProvider(ProxyMain.configFileDefaults(args));
    cl.parseArgs(args);
  }

  @Test
  void helpExplainsEveryFlag() {
    assertThat(run("--help")).isZero();
    String help = out.toString();
    for (String flag :
        new String[] {
          "--listen", "--upstream", "--admin", "--connect-timeout", "--threads", "--max-shapes",
          "--sample-sql", "--config", "--tls-cert", "--tls-key", "--upstream-tls", "--upstream-ca",
          "--allow-plaintext-upstream-passwords", "--allow-cleartext-passwords", "--help", "--version"
        }) {
      assertThat(help).as(flag).contains(flag);
    }
    assertThat(help).contains("CLIENT_SSL").contains("CLIENT_COMPRESS");
  }

  @Test
  void missingUpstreamIsAUsageError() {
    assertThat(run("--listen", "127.0.0.1:0", "--admin", "off")).isEqualTo(2);
    assertThat(err.toString()).contains("--upstream HOST:PORT is required");
  }

  @Test
  void badAddressesAndNumbersAreUsageErrors() {
    assertThat(run("--upstream", "db:notaport")).isEqualTo(2);
    assertThat(err.toString()).contains("'notaport'");
    assertThat(run("--upstream", "db:4000", "--listen", "1.2.3.4:70000")).isEqualTo(2);
    assertThat(run("--upstream", "db:4000", "--threads", "many")).isEqualTo(2);
  }

  @Test
  void configFileSuppliesDefaultsAndTheCommandLineWins(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, "upstream=tidb:4000\nlisten=0.0.0.0:4001\nadmin=off\nmax-shapes=77\n");
    ProxyMain main = new ProxyMain();
    parse(main, "--config", file.toString(), "--listen", "127.0.0.1:5000");
    ProxyConfig cfg = main.toConfig();
    assertThat(cfg.upstreamAddress()).isEqualTo("tidb:4000");
    assertThat(cfg.listenHost()).isEqualTo("127.0.0.1");
    assertThat(cfg.listenPort()).isEqualTo(5000);
    assertThat(cfg.adminHost()).isNull();
    assertThat(cfg.recorderSettings().maxShapes()).isEqualTo(77);
  }

  @Test
  void transportIsAutoByDefaultAndAnUnknownOneIsAUsageError() {
    ProxyMain main = new ProxyMain();
    new CommandLine(main).parseArgs("--upstream", "db:4000");
    assertThat(main.toConfig().transport()).isEqualTo(Transport.Kind.AUTO);
    new CommandLine(main).parseArgs("--upstream", "db:4000", "--transport", "NIO");
    assertThat(main.toConfig().transport()).isEqualTo(Transport.Kind.NIO);
    assertThat(run("--upstream", "db:4000", "--admin", "off", "--transport", "io_uring")).isEqualTo(2);
    assertThat(err.toString()).contains("transport must be auto, epoll or nio, was 'io_uring'");
  }

  @Test
  void upstreamTlsIsOffByDefaultComesFromTheConfigFileAndABadModeIsAUsageError(@TempDir Path dir)
      throws Exception {
    ProxyMain main = new ProxyMain();
    new CommandLine(main).parseArgs("--upstream", "db:4000");
    assertThat(main.toConfig().upstreamTls().mode()).isEqualTo(UpstreamTls.Mode.OFF);
    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, "upstream=tidb:4000\nadmin=off\nupstream-tls=required\ntransport=nio\n");
    ProxyMain fromFile = new ProxyMain();
    parse(fromFile, "--config", file.toString());
    ProxyConfig cfg = fromFile.toConfig();
    assertThat(cfg.upstreamTls().mode()).isEqualTo(UpstreamTls.Mode.REQUIRED);
    assertThat(cfg.upstreamTls().ca()).isNull();
    assertThat(cfg.transport()).isEqualTo(Transport.Kind.NIO); // every flag has its key
    assertThat(run("--upstream", "db:4000", "--admin", "off", "--upstream-tls", "yes")).isEqualTo(2);
    assertThat(err.toString()).contains("upstream TLS must be off, preferred, required, verify-ca or verify-identity, was 'yes'");
    assertThat(run("--upstream", "db:4000", "--admin", "off", "--upstream-ca", "/nonexistent.pem"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--upstream-ca needs --upstream-tls preferred or required");
  }

  @Test
  void plaintextUpstreamPasswordsAreRefusedUnlessTheFlagOrItsConfigKeyAllowsThem(@TempDir Path dir)
      throws Exception {
    ProxyMain main = new ProxyMain();
    new CommandLine(main).parseArgs("--upstream", "db:4000");
    assertThat(main.toConfig().upstreamTls().plaintextPasswordsAllowed()).isFalse();
    ProxyMain allowed = new ProxyMain();
    new CommandLine(allowed)
        .parseArgs("--upstream", "db:4000", "--allow-plaintext-upstream-passwords", "--upstream-tls", "preferred");
    ProxyConfig cfg = allowed.toConfig();
    assertThat(cfg.upstreamTls().plaintextPasswordsAllowed()).isTrue();
    assertThat(cfg.upstreamTls().mode()).isEqualTo(UpstreamTls.Mode.PREFERRED);
    assertThat(cfg.upstreamTls().describe()).contains("--allow-plaintext-upstream-passwords");
    // Kept whichever order the builder methods are called in.
    assertThat(
            ProxyConfig.of("127.0.0.1", 0, "db", 4000)
                .withPlaintextUpstreamPasswordsAllowed(true)
                .withUpstreamTls("required", null)
                .upstreamTls()
                .plaintextPasswordsAllowed())
        .isTrue();
    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, "upstream=tidb:4000\nallow-plaintext-upstream-passwords=true\n");
    ProxyMain fromFile = new ProxyMain();
    parse(fromFile, "--config", file.toString());
    assertThat(fromFile.toConfig().upstreamTls().plaintextPasswordsAllowed()).isTrue();
  }

  /**
   * Issue 28: without TLS flags the proxy offers clients TLS with a certificate it generates, so
   * a client that prefers TLS keeps it; clear passwords need their own flag.
   */
  @Test
  void clientTlsIsOfferedByDefaultWithAGeneratedCertificateAndCleartextNeedsItsFlag(@TempDir Path dir)
      throws Exception {
    ProxyMain main = new ProxyMain();
    new CommandLine(main).parseArgs("--upstream", "db:4000");
    ProxyConfig cfg = main.toConfig();
    assertThat(cfg.tls()).isNotNull();
    assertThat(cfg.clientTlsDescription())
        .startsWith("client TLS with a generated self-signed certificate (RSA 2048")
        .containsPattern("SHA-256 fingerprint ([0-9A-F]{2}:){31}[0-9A-F]{2}$");
    assertThat(cfg.cleartextPasswordsAllowed()).isFalse();
    ProxyMain other = new ProxyMain();
    new CommandLine(other).parseArgs("--upstream", "db:4000");
    assertThat(other.toConfig().clientTlsDescription())
        .as("a new key pair at every start")
        .isNotEqualTo(cfg.clientTlsDescription());

    ProxyMain allowed = new ProxyMain();
    new CommandLine(allowed).parseArgs("--upstream", "db:4000", "--allow-cleartext-passwords");
    assertThat(allowed.toConfig().cleartextPasswordsAllowed()).isTrue();
    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, "upstream=tidb:4000\nallow-cleartext-passwords=true\n");
    ProxyMain fromFile = new ProxyMain();
    parse(fromFile, "--config", file.toString());
    assertThat(fromFile.toConfig().cleartextPasswordsAllowed()).isTrue();
    // Carried through the builder methods called after it.
    assertThat(
            ProxyConfig.of("127.0.0.1", 0, "db", 4000)
                .withCleartextPasswordsAllowed(true)
                .withUpstreamTls("required", null)
                .withLimits(ProxyLimits.DEFAULTS)
                .withGeneratedTls()
                .cleartextPasswordsAllowed())
        .isTrue();
  }

  @Test
  void tlsCertificateWithoutKeyIsAUsageError() {
    assertThat(run("--upstream", "db:4000", "--admin", "off", "--tls-cert", "/nonexistent.pem")).isEqualTo(2);
    assertThat(err.toString()).contains("--tls-cert and --tls-key go together");
  }

  @Test
  void unknownConfigKeyIsRefusedByName(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, "upstrem=tidb:4000\n");
    assertThat(run("--config", file.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("unknown key 'upstrem'");
  }

  @Test
  void everyFlagIsAConfigKeyAndNoOtherIs(@TempDir Path dir) throws Exception {
    // The 29 keys of the hand-kept list this replaced, and the capture flags it had missed.
    assertThat(ProxyMain.KNOWN_KEYS).contains(
        "listen", "upstream", "admin", "connect-timeout", "threads", "max-shapes", "sample-sql",
        "tls-cert", "tls-key", "upstream-tls", "upstream-ca", "transport",
        "handshake-timeout", "idle-timeout", "max-connections", "max-statement-bytes",
        "max-statement-bytes-total", "admin-token-file", "admin-token", "admin-allow-host",
        "admin-timeout", "admin-max-connections", "metrics-listen",
        "max-shape-bytes", "max-text-bytes", "allow-plaintext-upstream-passwords",
        "allow-cleartext-passwords", "max-prelogin-connections", "max-prelogin-per-source",
        "capture", "capture-dir", "capture-max-bytes", "capture-max-seconds", "capture-mask-values");
    assertThat(ProxyMain.KNOWN_KEYS).doesNotContain("config", "help", "version");
    CommandLine.Model.CommandSpec spec = new CommandLine(new ProxyMain()).getCommandSpec();
    assertThat(ProxyMain.KNOWN_KEYS).hasSize(spec.options().size() - 3);

    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, "upstream=tidb:4000\ncapture-max-seconds=5\ncapture-mask-values=true\n");
    ProxyMain main = new ProxyMain();
    parse(main, "--config", file.toString());
    assertThat(main.captureMaxSeconds).isEqualTo(5);
    assertThat(main.captureMaskValues).isTrue();
  }

  @Test
  void hostPortParsesV4V6AndBarePorts() {
    assertThat(HostPort.parse("db.example:4000", "x")).isEqualTo(new HostPort("db.example", 4000));
    assertThat(HostPort.parse("[::1]:4001", "x")).isEqualTo(new HostPort("::1", 4001));
    assertThat(HostPort.parse("9091", "127.0.0.1")).isEqualTo(new HostPort("127.0.0.1", 9091));
    assertThat(new HostPort("::1", 4001).toString()).isEqualTo("[::1]:4001");
  }

  @Test
  void aBadFlagIsOneLineWithASuggestionAndAPointerNotTheWholeHelp() {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    int code = ProxyMain.run(new String[] {"--listne", "127.0.0.1:3307"}, new java.io.PrintWriter(out, true),
        new java.io.PrintWriter(err, true));
    org.assertj.core.api.Assertions.assertThat(code).isEqualTo(2);
    org.assertj.core.api.Assertions.assertThat(err.toString())
        .contains("--listne", "did you mean: --listen?", "see: wire-advisor-proxy --help")
        .doesNotContain("Usage:");
    org.assertj.core.api.Assertions.assertThat(err.toString().lines().count()).isLessThanOrEqualTo(3);
  }
}
