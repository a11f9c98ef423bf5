package io.wireadvisor.testkit;

import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * The server's own per-command counters: the ground truth a collector's counts are compared with.
 * Reading them must not itself show up in the counts it returns.
 *
 * <p>The counters are server-wide, so a window is only meaningful while nothing else talks to the
 * server; tests that compare counts must not run concurrently with other database tests.
 */
public interface ServerCounters {
  /** Reads the counters now. */
  CounterSnapshot snapshot() throws SQLException;

  /**
   * The command names (from {@link Commands}) whose deltas between two snapshots equal the number
   * of such commands clients sent, as proven by this module's integration tests. Other commands
   * may be absent from snapshots or approximate.
   */
  Set<String> exactCommands();

  /**
   * Commands this server adds to its (derived) COM_QUERY count: a collector's COM_QUERY plus its
   * counts of these equals the server's COM_QUERY delta. Empty where COM_QUERY is counted apart.
   */
  default Set<String> countedAsQuery() {
    return Set.of();
  }

  /**
   * Whether a COM_STMT_CLOSE of a statement id the server does not know (Connector/J sends one
   * after a failed prepare) is counted. TiDB counts every command it receives; MariaDB and MySQL
   * count a close only of a statement they have.
   */
  default boolean countsClosesOfUnknownStatements() {
    return false;
  }

  /**
   * A collector's counts as this server would count the same commands, for each of {@link
   * #exactCommands()}: the collector's count of that command, and for COM_QUERY also its counts of
   * {@link #countedAsQuery()}. Compare with {@link #exactDeltas}.
   *
   * @param collectorCount a collector's count by command name (from {@link Commands})
   */
  default Map<String, Long> asCounted(ToLongFunction<String> collectorCount) {
    Map<String, Long> counts = new TreeMap<>();
    for (String command : exactCommands()) {
      long n = collectorCount.applyAsLong(command);
      if (command.equals(Commands.COM_QUERY)) {
        for (String alsoCounted : countedAsQuery()) {
          n += collectorCount.applyAsLong(alsoCounted);
        }
      }
      counts.put(command, n);
    }
    return counts;
  }

  /** The deltas of {@link #exactCommands()} in {@code delta}, keyed as {@link #asCounted}. */
  default Map<String, Long> exactDeltas(CounterSnapshot delta) {
    Map<String, Long> counts = new TreeMap<>();
    for (String command : exactCommands()) {
      counts.put(command, delta.get(command));
    }
    return counts;
  }
}
