package io.wireadvisor.proxy;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks the standalone proxy's memory limits against the heap it has, at start-up: {@code
 * --max-connections} x {@link #CONNECTION_BYTES} plus the process-wide budgets ({@code
 * --max-statement-bytes-total}, {@code --max-shape-bytes}, {@code --max-text-bytes}) must fit in
 * {@link #SHARE_PERCENT}% of the maximum heap; the rest is the collector's headroom and everything
 * the budgets do not count. A limit left at its default is lowered to what fits, and the proxy
 * says so; a limit given explicitly that does not fit stops the start-up with a message naming
 * it.
 */
final class HeapBudget {
  /**
   * The heap one client connection may hold at most: the head of the packet being read in each
   * direction, held whole up to {@link SessionTracker#MAX_HANDSHAKE_PACKET} (68 KiB: a login
   * packet, or a command packet on a guarded connection), and 64 KiB for the rest: the pending
   * command ring of a client that pipelines (up to {@link SessionTracker#MAX_PIPELINED} entries),
   * the Netty channels and pipelines on both legs, the session state (its transaction window for
   * statement patterns included: WireSession.PATTERN_WINDOW_BYTES, 1 KiB). Statement bookkeeping and
   * shape sets are paid from {@code --max-statement-bytes-total}; Netty's read and write buffers
   * are direct memory, outside the heap (at most a read buffer and the 64 KiB write high-water
   * mark per direction).
   */
  static final long CONNECTION_BYTES = 2L * SessionTracker.MAX_HANDSHAKE_PACKET + (64L << 10);

  /** The share of the maximum heap the budgets may add up to. */
  static final int SHARE_PERCENT = 75;

  /** What the limits are once checked; {@code notes} says which defaults were lowered. */
  record Plan(
      int maxConnections,
      long statementBytesTotal,
      long shapeBytes,
      long textBytes,
      List<String> notes) {}

  private HeapBudget() {}

  /**
   * Plans the limits for a heap of {@code maxHeap} bytes. Each limit is null when its flag was
   * not given: then its default, lowered to fit: the process-wide budgets to at most 1/8 (shapes,
   * statements) and 1/16 (texts) of the heap, the connections to what the rest of the share holds.
   *
   * @throws IllegalArgumentException when explicit limits do not fit, naming them and the most
   *     that would
   */
  static Plan plan(
      long maxHeap, Integer maxConnections, Long statementBytesTotal, Long shapeBytes,
      Long textBytes) {
    long usable = maxHeap / 100 * SHARE_PERCENT;
    List<String> notes = new ArrayList<>();
    long statements =
        defaulted(statementBytesTotal, ProxyLimits.DEFAULT_STATEMENT_BYTES_TOTAL, maxHeap, 8,
            "--max-statement-bytes-total", notes);
    long shapes =
        defaulted(shapeBytes, ProxyLimits.DEFAULT_MAX_SHAPE_BYTES, maxHeap, 8,
            "--max-shape-bytes", notes);
    long texts =
        defaulted(textBytes, ProxyLimits.DEFAULT_MAX_TEXT_BYTES, maxHeap, 16,
            "--max-text-bytes", notes);
    long fixed = statements + shapes + texts;
    long fit = Math.max(0, (usable - fixed) / CONNECTION_BYTES);
    String heap = "the maximum heap of " + mib(maxHeap) + " (-Xmx; WIRE_ADVISOR_PROXY_HEAP for"
        + " bin/wire-advisor-proxy)";
    String budgets = "the process-wide budgets (--max-statement-bytes-total "
        + mib(statements) + ", --max-shape-bytes " + mib(shapes) + ", --max-text-bytes "
        + mib(texts) + ")";
    if (maxConnections != null) {
      if (maxConnections > fit) {
        throw new IllegalArgumentException(
            "--max-connections " + maxConnections + " does not fit the heap: "
                + maxConnections + " connections of up to " + kib(CONNECTION_BYTES) + " each ("
                + mib(maxConnections * CONNECTION_BYTES) + ") and " + budgets + " exceed "
                + SHARE_PERCENT + "% of " + heap + "; "
                + (fit > 0 ? "lower --max-connections to at most " + fit + ", or " : "")
                + "raise the heap");
      }
      return new Plan(maxConnections, statements, shapes, texts, List.copyOf(notes));
    }
    if (fit < 1) {
      throw new IllegalArgumentException(
          budgets + " leave no room for a single connection of " + kib(CONNECTION_BYTES) + " in "
              + SHARE_PERCENT + "% of " + heap + "; lower them or raise the heap");
    }
    int connections = (int) Math.min(ProxyLimits.DEFAULT_MAX_CONNECTIONS, fit);
    if (connections < ProxyLimits.DEFAULT_MAX_CONNECTIONS) {
      notes.add("--max-connections " + connections + " (not " + ProxyLimits.DEFAULT_MAX_CONNECTIONS
          + "): what " + SHARE_PERCENT + "% of " + heap + " holds at " + kib(CONNECTION_BYTES)
          + " a connection besides " + budgets);
    }
    return new Plan(connections, statements, shapes, texts, List.copyOf(notes));
  }

  private static long defaulted(
      Long explicit, long dflt, long maxHeap, int divisor, String flag, List<String> notes) {
    if (explicit != null) {
      return explicit;
    }
    long cap = maxHeap / divisor;
    if (dflt <= cap) {
      return dflt;
    }
    notes.add(flag + " " + cap + " (" + mib(cap) + ", not " + mib(dflt) + "): 1/" + divisor
        + " of the heap");
    return cap;
  }

  static String mib(long bytes) {
    return bytes % (1L << 20) == 0
        ? (bytes >> 20) + " MiB"
        : String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }

  static String kib(long bytes) {
    return (bytes >> 10) + " KiB";
  }
}
