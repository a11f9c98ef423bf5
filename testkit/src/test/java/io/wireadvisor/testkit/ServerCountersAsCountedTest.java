package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A collector's counts folded the way a server counts them, against its deltas. */
class ServerCountersAsCountedTest {
  /** A server that folds COM_QUIT into its COM_QUERY count, as MariaDB's derived one does. */
  private static final ServerCounters FOLDING =
      new ServerCounters() {
        @Override
        public CounterSnapshot snapshot() {
          throw new UnsupportedOperationException();
        }

        @Override
        public Set<String> exactCommands() {
          return Set.of(Commands.COM_QUERY, Commands.COM_STMT_EXECUTE);
        }

        @Override
        public Set<String> countedAsQuery() {
          return Set.of(Commands.COM_QUIT);
        }
      };

  @Test
  void foldsCountedAsQueryIntoComQueryAndKeepsOnlyExactCommands() {
    Map<String, Long> collector =
        Map.of(Commands.COM_QUERY, 5L, Commands.COM_QUIT, 2L, Commands.COM_STMT_EXECUTE, 7L,
            Commands.COM_PING, 3L);
    assertThat(FOLDING.asCounted(c -> collector.getOrDefault(c, 0L)))
        .containsExactly(Map.entry(Commands.COM_QUERY, 7L), Map.entry(Commands.COM_STMT_EXECUTE, 7L));
  }

  @Test
  void exactDeltasKeepOnlyExactCommands() {
    CounterSnapshot delta =
        new CounterSnapshot(
            Map.of(Commands.COM_QUERY, 7L, Commands.COM_STMT_EXECUTE, 7L, Commands.COM_PING, 1L));
    assertThat(FOLDING.exactDeltas(delta))
        .containsExactly(Map.entry(Commands.COM_QUERY, 7L), Map.entry(Commands.COM_STMT_EXECUTE, 7L));
    assertThat(FOLDING.asCounted(c -> c.equals(Commands.COM_QUIT) ? 1L : 0L))
        .isNotEqualTo(FOLDING.exactDeltas(delta));
  }
}
