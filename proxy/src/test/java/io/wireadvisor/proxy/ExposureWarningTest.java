package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Issue 28, point 6: a warning when an admin listener is reachable beyond the host without a token. */
class ExposureWarningTest {
  private static ProxyConfig config(String... args) {
    ProxyMain main = new ProxyMain();
    main.environment = name -> null;
    main.maxHeap = () -> 1L << 30;
    String[] all = new String[args.length + 2];
    all[0] = "--upstream";
    all[1] = "db:4000";
    System.arraycopy(args, 0, all, 2, args.length);
    new CommandLine(main).parseArgs(all);
    return main.toConfig();
  }

  private static java.util.List<String> warnings(ProxyConfig cfg) {
    return ProxyMain.exposureWarnings(cfg, cfg.adminPort(), cfg.limits().metricsPort());
  }

  @Test
  void aNonLoopbackAdminWithoutATokenIsWarnedAbout() {
    assertThat(warnings(config())).as("the default, 127.0.0.1").isEmpty();
    assertThat(warnings(config("--admin", "localhost:9091"))).isEmpty();
    assertThat(warnings(config("--admin", "[::1]:9091"))).isEmpty();
    assertThat(warnings(config("--admin", "off"))).isEmpty();
    assertThat(warnings(config("--admin", "0.0.0.0:9091")))
        .singleElement()
        .asString()
        .contains("--admin 0.0.0.0:9091 is not a loopback address and there is no admin token")
        .contains("/profile");
    assertThat(warnings(config("--admin", "0.0.0.0:9091", "--sample-sql")))
        .singleElement()
        .asString()
        .contains("SQL samples with their literals");
    assertThat(warnings(config("--admin", "0.0.0.0:9091", "--admin-token", "t0ken-long-enough")))
        .isEmpty();
  }

  @Test
  void aNonLoopbackMetricsListenerWithoutATokenIsWarnedAbout() {
    assertThat(warnings(config("--metrics-listen", "127.0.0.1:9092"))).isEmpty();
    assertThat(warnings(config("--metrics-listen", "0.0.0.0:9092")))
        .singleElement()
        .asString()
        .contains("--metrics-listen 0.0.0.0:9092 is not a loopback address")
        .contains("/metrics");
  }

  @Test
  void aPlaintextLegToTheServerIsWarnedAbout() {
    // The attacker's rerun of issue 28: a TLS client's ALTER USER ... IDENTIFIED BY crossed the
    // default plaintext upstream in clear, and the start-up line only said "upstream TLS off".
    assertThat(ProxyMain.upstreamWarnings(config()))
        .singleElement()
        .asString()
        .contains("the leg to db:4000 is plaintext (--upstream-tls off)")
        .contains("ALTER USER")
        .contains("--upstream-tls preferred");
    assertThat(ProxyMain.upstreamWarnings(config("--upstream-tls", "preferred"))).isEmpty();
    assertThat(ProxyMain.upstreamWarnings(config("--upstream-tls", "required"))).isEmpty();
  }
}
