package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CountersParsingTest {
  @Test
  void tidbQueryTotalIsSummedOverResults() {
    String metrics =
        "# HELP tidb_server_query_total Counter of queries.\n"
            + "# TYPE tidb_server_query_total counter\n"
            + "tidb_server_query_total{result=\"Error\",type=\"Query\"} 2\n"
            + "tidb_server_query_total{result=\"OK\",type=\"Query\"} 40\n"
            + "tidb_server_query_total{result=\"OK\",type=\"StmtExecute\"} 1.5e+06\n"
            + "tidb_server_query_total{result=\"OK\",type=\"Sleep\"} 9\n"
            + "tidb_server_query_total_other{result=\"OK\",type=\"Query\"} 1000\n";
    CounterSnapshot s = TiDBMetricsCounters.parse(metrics);
    assertThat(s.get(Commands.COM_QUERY)).isEqualTo(42);
    assertThat(s.get(Commands.COM_STMT_EXECUTE)).isEqualTo(1_500_000);
    assertThat(s.get(Commands.COM_PING)).isZero();
  }

  @Test
  void minusSubtractsPerCommand() {
    CounterSnapshot earlier = new CounterSnapshot(Map.of(Commands.COM_QUERY, 5L, Commands.COM_PING, 1L));
    CounterSnapshot later = new CounterSnapshot(Map.of(Commands.COM_QUERY, 8L, Commands.COM_PING, 1L));
    assertThat(later.minus(earlier).asMap()).containsEntry(Commands.COM_QUERY, 3L).containsEntry(Commands.COM_PING, 0L);
  }

  @Test
  void kindComesFromTheVersionString() {
    assertThat(ServerKind.fromVersion("8.0.11-TiDB-v8.5.3")).isEqualTo(ServerKind.TIDB);
    assertThat(ServerKind.fromVersion("11.4.5-MariaDB")).isEqualTo(ServerKind.MARIADB);
    assertThat(ServerKind.fromVersion("8.4.6")).isEqualTo(ServerKind.MYSQL);
  }
}
