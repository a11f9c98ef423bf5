package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 28, point 4: the limits are checked against the heap at start-up. Before, nothing did: a
 * 128 MiB heap took the default 2048 connections (of up to 200 KiB each) and the process-wide
 * budgets of 160 MiB, and ended in OutOfMemoryError under an unauthenticated flood (ProxyHeapIT).
 */
class HeapBudgetTest {
  private static final long MIB = 1L << 20;

  @Test
  void theBudgetOfAConnectionIsItsTwoHeldPacketHeadsAndTheRest() {
    // The largest packet a connection holds whole, either way (a login packet, a guarded
    // command): ProxyHeapIT sends exactly this much but a byte, from 1,707 clients.
    assertThat(SessionTracker.MAX_HANDSHAKE_PACKET).isEqualTo(68 * 1024);
    assertThat(HeapBudget.CONNECTION_BYTES).isEqualTo(200 * 1024);
  }

  @Test
  void theLaunchersHeapKeepsEveryDefault() {
    HeapBudget.Plan p = HeapBudget.plan(1L << 30, null, null, null, null);
    assertThat(p.maxConnections()).isEqualTo(ProxyLimits.DEFAULT_MAX_CONNECTIONS);
    assertThat(p.statementBytesTotal()).isEqualTo(ProxyLimits.DEFAULT_STATEMENT_BYTES_TOTAL);
    assertThat(p.shapeBytes()).isEqualTo(ProxyLimits.DEFAULT_MAX_SHAPE_BYTES);
    assertThat(p.textBytes()).isEqualTo(ProxyLimits.DEFAULT_MAX_TEXT_BYTES);
    assertThat(p.notes()).isEmpty();
    long planned = 2048 * HeapBudget.CONNECTION_BYTES + p.statementBytesTotal() + p.shapeBytes()
        + p.textBytes();
    assertThat(planned).isLessThanOrEqualTo((1L << 30) / 100 * HeapBudget.SHARE_PERCENT);
  }

  @Test
  void aSmallHeapLowersTheDefaultsToWhatFitsAndSaysSo() {
    long heap = 128 * MIB;
    HeapBudget.Plan p = HeapBudget.plan(heap, null, null, null, null);
    assertThat(p.shapeBytes()).isEqualTo(16 * MIB);
    assertThat(p.statementBytesTotal()).isEqualTo(16 * MIB);
    assertThat(p.textBytes()).isEqualTo(8 * MIB);
    long fixed = p.shapeBytes() + p.statementBytesTotal() + p.textBytes();
    long usable = heap / 100 * HeapBudget.SHARE_PERCENT;
    assertThat((long) p.maxConnections() * HeapBudget.CONNECTION_BYTES + fixed)
        .isLessThanOrEqualTo(usable);
    assertThat((long) (p.maxConnections() + 1) * HeapBudget.CONNECTION_BYTES + fixed)
        .as("the most that fits, not fewer")
        .isGreaterThan(usable);
    assertThat(p.maxConnections()).isEqualTo(286);
    assertThat(String.join("\n", p.notes()))
        .contains("--max-connections 286 (not 2048)")
        .contains("--max-shape-bytes 16777216 (16 MiB, not 64 MiB)")
        .contains("--max-statement-bytes-total")
        .contains("--max-text-bytes 8388608 (8 MiB, not 32 MiB)");
  }

  @Test
  void anExplicitMaxConnectionsThatDoesNotFitIsRefusedNamingTheFlag() {
    assertThatThrownBy(() -> HeapBudget.plan(128 * MIB, 2048, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--max-connections 2048 does not fit the heap")
        .hasMessageContaining("lower --max-connections to at most 286")
        .hasMessageContaining("-Xmx");
    assertThat(HeapBudget.plan(128 * MIB, 286, null, null, null).maxConnections()).isEqualTo(286);
    // Explicit budgets count as given: they leave room for fewer connections.
    assertThatThrownBy(() -> HeapBudget.plan(128 * MIB, 100, 64 * MIB, 64 * MIB, null))
        .hasMessageContaining("--max-connections 100 does not fit");
    assertThatThrownBy(() -> HeapBudget.plan(128 * MIB, null, 64 * MIB, 64 * MIB, null))
        .hasMessageContaining("leave no room for a single connection");
  }

  @Test
  void theCommandLineRefusesToStartAndTheConfigFileCountsAsExplicit() throws Exception {
    ProxyMain main = new ProxyMain();
    main.environment = name -> null;
    main.maxHeap = () -> 128 * MIB;
    new CommandLine(main).parseArgs("--upstream", "db:4000", "--max-connections", "2048");
    assertThatThrownBy(main::toConfig)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--max-connections 2048 does not fit the heap");

    ProxyMain defaults = new ProxyMain();
    defaults.environment = name -> null;
    defaults.maxHeap = () -> 128 * MIB;
    new CommandLine(defaults).parseArgs("--upstream", "db:4000");
    ProxyConfig cfg = defaults.toConfig();
    assertThat(cfg.limits().maxConnections()).isEqualTo(286);
    assertThat(cfg.recorderSettings().maxShapeBytes()).isEqualTo(16 * MIB);
    assertThat(cfg.recorderSettings().maxTextBytes()).isEqualTo(8 * MIB);
    assertThat(cfg.limits().statementBytesTotal()).isEqualTo(16 * MIB);

    // The real entry point: exit status 2 and the message, nothing started.
    StringWriter err = new StringWriter();
    int status =
        ProxyMain.run(
            new String[] {"--upstream", "127.0.0.1:1", "--admin", "off", "--listen", "0",
                "--max-connections", "100000000"},
            new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    assertThat(status).isEqualTo(2);
    assertThat(err.toString()).contains("--max-connections 100000000 does not fit the heap");
  }
}
