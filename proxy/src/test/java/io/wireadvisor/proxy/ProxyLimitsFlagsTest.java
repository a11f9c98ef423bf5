package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The limit and admin-protection flags, their config-file keys, and the pieces behind them. */
class ProxyLimitsFlagsTest {
  private static final String[] FLAGS = {
    "--handshake-timeout", "--idle-timeout", "--max-connections", "--max-statement-bytes",
    "--max-statement-bytes-total", "--admin-token-file", "--admin-token", "--admin-allow-host",
    "--admin-timeout", "--admin-max-connections", "--metrics-listen", "--max-shape-bytes",
    "--max-text-bytes", "--max-prelogin-connections", "--max-prelogin-per-source"
  };

  @AfterEach
  void restoreHalt() {
    Fatal.halt = code -> Runtime.getRuntime().halt(code);
  }

  @Test
  void helpNamesEveryLimitFlag() {
    StringWriter out = new StringWriter();
    assertThat(ProxyMain.run(new String[] {"--help"}, new PrintWriter(out, true),
        new PrintWriter(new StringWriter(), true))).isZero();
    for (String flag : FLAGS) {
      assertThat(out.toString()).as(flag).contains(flag);
    }
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    ProxyMain main = new ProxyMain();
    main.environment = name -> null;
    main.maxHeap = () -> 1L << 30; // the launcher's heap: every default fits (HeapBudgetTest)
    new CommandLine(main).parseArgs("--upstream", "db:4000");
    ProxyLimits l = main.toConfig().limits();
    assertThat(l.handshakeTimeoutMillis()).isEqualTo(10_000);
    assertThat(l.idleTimeoutMillis()).isZero();
    assertThat(l.maxConnections()).isEqualTo(2048);
    assertThat(l.statementBytesPerConnection()).isEqualTo(1L << 20);
    assertThat(l.statementBytesTotal()).isEqualTo(64L << 20);
    assertThat(l.maxPrelogin()).isEqualTo(128);
    assertThat(l.maxPreloginPerSource()).isEqualTo(32);
    assertThat(l.adminToken()).isNull();
    assertThat(l.metricsHost()).isNull();
    assertThat(main.toConfig().recorderSettings().maxTextBytes()).isEqualTo(32L << 20);
    assertThat(main.toConfig().recorderSettings().maxShapeBytes()).isEqualTo(64L << 20);
  }

  @Test
  void everyLimitFlagHasItsConfigFileKey(@TempDir Path dir) throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, "s3cret-from-file\n");
    Path file = dir.resolve("proxy.properties");
    Files.writeString(file, String.join("\n",
        "upstream=tidb:4000", "handshake-timeout=1500", "idle-timeout=60000",
        "max-connections=12", "max-statement-bytes=4096", "max-statement-bytes-total=8192",
        "admin-token-file=" + token, "admin-allow-host=proxy.internal,other.internal",
        "admin-timeout=700", "admin-max-connections=3", "metrics-listen=0.0.0.0:9092",
        "max-shape-bytes=100000", "max-text-bytes=200000", "max-prelogin-connections=9",
        "max-prelogin-per-source=4", ""));
    ProxyMain main = new ProxyMain();
    main.environment = name -> "from-env-must-lose";
    ProxyMainTest.parse(main, "--config", file.toString());
    ProxyConfig cfg = main.toConfig();
    ProxyLimits l = cfg.limits();
    assertThat(l.handshakeTimeoutMillis()).isEqualTo(1500);
    assertThat(l.idleTimeoutMillis()).isEqualTo(60000);
    assertThat(l.maxConnections()).isEqualTo(12);
    assertThat(l.maxPrelogin()).isEqualTo(9);
    assertThat(l.maxPreloginPerSource()).isEqualTo(4);
    assertThat(l.statementBytesPerConnection()).isEqualTo(4096);
    assertThat(l.statementBytesTotal()).isEqualTo(8192);
    assertThat(l.adminToken()).isEqualTo("s3cret-from-file");
    assertThat(l.adminHosts()).containsExactly("proxy.internal", "other.internal");
    assertThat(l.adminTimeoutMillis()).isEqualTo(700);
    assertThat(l.adminMaxConnections()).isEqualTo(3);
    assertThat(l.metricsHost()).isEqualTo("0.0.0.0");
    assertThat(l.metricsPort()).isEqualTo(9092);
    assertThat(cfg.recorderSettings().maxShapeBytes()).isEqualTo(100000);
    assertThat(cfg.recorderSettings().maxTextBytes()).isEqualTo(200000);
    // Limits survive later with... copies.
    assertThat(cfg.withWorkerThreads(3).limits()).isSameAs(l);
  }

  @Test
  void theAdminTokenComesFromTheEnvironmentWhenNoFileNamesIt() {
    ProxyMain main = new ProxyMain();
    Map<String, String> env = Map.of("WIRE_ADVISOR_ADMIN_TOKEN", "env-token");
    main.environment = env::get;
    new CommandLine(main).parseArgs("--upstream", "db:4000");
    assertThat(main.toConfig().limits().adminToken()).isEqualTo("env-token");
  }

  @Test
  void hostHeaderCheckAcceptsLiteralsLoopbackAndAllowedNamesOnly() {
    Set<String> allowed = AdminServer.allowedHosts("127.0.0.1", List.of("proxy.internal"));
    assertThat(AdminServer.hostAllowed("127.0.0.1:9091", allowed)).isTrue();
    assertThat(AdminServer.hostAllowed("localhost:9091", allowed)).isTrue();
    assertThat(AdminServer.hostAllowed("LOCALHOST", allowed)).isTrue();
    assertThat(AdminServer.hostAllowed("[::1]:9091", allowed)).isTrue();
    assertThat(AdminServer.hostAllowed("10.1.2.3", allowed)).isTrue();
    assertThat(AdminServer.hostAllowed("proxy.internal:9091", allowed)).isTrue();
    assertThat(AdminServer.hostAllowed("attacker.example:9091", allowed)).isFalse();
    assertThat(AdminServer.hostAllowed("localhost.attacker.example", allowed)).isFalse();
    assertThat(AdminServer.hostAllowed("127.0.0.1.nip.io", allowed)).isFalse();
    assertThat(AdminServer.hostAllowed("localhost:80@evil", allowed)).isFalse();
    assertThat(AdminServer.hostAllowed("", allowed)).isFalse();
    assertThat(AdminServer.hostAllowed(null, allowed)).isFalse();
  }

  @Test
  void tokenMustMatchExactlyAsABearerToken() {
    byte[] hash = AdminServer.sha256("correct horse");
    assertThat(AdminServer.tokenMatches("Bearer correct horse", hash)).isTrue();
    assertThat(AdminServer.tokenMatches("bearer correct horse", hash)).isTrue();
    assertThat(AdminServer.tokenMatches("Bearer correct hors", hash)).isFalse();
    assertThat(AdminServer.tokenMatches("Bearer correct horse!", hash)).isFalse();
    assertThat(AdminServer.tokenMatches("Basic correct horse", hash)).isFalse();
    assertThat(AdminServer.tokenMatches("Bearer ", hash)).isFalse();
    assertThat(AdminServer.tokenMatches(null, hash)).isFalse();
  }

  @Test
  void anErrorInAHandlerEndsTheProcessAnExceptionOnlyTheChannel() {
    List<Integer> halted = new ArrayList<>();
    Fatal.halt = halted::add;
    // What FrontendHandler, BackendHandler and the admin handlers do in exceptionCaught.
    java.util.function.Supplier<io.netty.channel.ChannelHandler> handler = () ->
        new io.netty.channel.ChannelInboundHandlerAdapter() {
          @Override
          public void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable t) {
            Fatal.exceptionCaught(ctx, t);
          }
        };
    EmbeddedChannel ch = new EmbeddedChannel(handler.get());
    ch.pipeline().fireExceptionCaught(new java.io.IOException("connection reset"));
    assertThat(halted).isEmpty();
    assertThat(ch.isOpen()).isFalse(); // the channel, and only it
    EmbeddedChannel other = new EmbeddedChannel(handler.get());
    other.pipeline().fireExceptionCaught(new OutOfMemoryError("Java heap space"));
    assertThat(halted).containsExactly(Fatal.EXIT_CODE);
    Fatal.UNCAUGHT.uncaughtException(Thread.currentThread(), new StackOverflowError());
    assertThat(halted).containsExactly(Fatal.EXIT_CODE, Fatal.EXIT_CODE);
    other.finishAndReleaseAll();
    ch.finishAndReleaseAll();
  }

  @Test
  void pastMaxConnectionsTheClientGetsErr1040WithSequenceZero() {
    EmbeddedChannel ch = new EmbeddedChannel(TooManyConnections.INSTANCE);
    io.netty.buffer.ByteBuf err = ch.readOutbound();
    try {
      assertThat(err.getUnsignedMediumLE(0)).isEqualTo(err.readableBytes() - 4);
      assertThat(err.getByte(3)).isZero(); // sequence id 0: in place of the greeting
      assertThat((int) err.getUnsignedByte(4)).isEqualTo(0xff);
      assertThat(err.getUnsignedShortLE(5)).isEqualTo(1040);
      assertThat(err.toString(7, err.readableBytes() - 7, java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo("Too many connections");
    } finally {
      err.release();
    }
    assertThat(ch.isOpen()).isFalse();
  }
}
