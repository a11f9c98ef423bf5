package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.samples.bank.ServerStatements.Reading;
import org.junit.jupiter.api.Test;

class ServerStatementsTest {
  @Test
  void deltasAreUnknownWhereACounterIsMissingOrWentBackwards() {
    Reading before = new Reading(100L, 10L, 500L, 400L, null);
    Reading after = new Reading(150L, 12L, 20L, 5L, null);
    Reading d = after.minus(before);
    assertThat(d.selects()).isEqualTo(50);
    assertThat(d.sets()).isEqualTo(2);
    // STATEMENTS_SUMMARY started a new interval in between: not a negative count.
    assertThat(d.planExecutions()).isNull();
    assertThat(d.planCacheHits()).isNull();
    assertThat(d.tableCacheReads()).isNull();
  }

  @Test
  void oneSummaryColumnGoingBackwardsMakesTheWholeSummaryReadingUnknown() {
    // A new STATEMENTS_SUMMARY interval within the window: executions still grew, hits fell.
    Reading before = new Reading(100L, 10L, 500L, 400L, 7L, 9_000L);
    Reading after = new Reading(150L, 12L, 600L, 90L, 9L, 12_000L);
    Reading d = after.minus(before);
    assertThat(d.planExecutions()).isNull();
    assertThat(d.planCacheHits()).isNull();
    assertThat(d.execNanos()).isNull();
    assertThat(d.tableCacheReads()).isEqualTo(2);
    Reading fine = new Reading(150L, 12L, 600L, 480L, 9L, 12_000L).minus(before);
    assertThat(fine.planExecutions()).isEqualTo(100);
    assertThat(fine.planCacheHits()).isEqualTo(80);
  }

  @Test
  void sumsPrometheusSamplesByLabel() {
    String text =
        "# HELP tidb_executor_statement_total Counter of StmtNode.\n"
            + "tidb_executor_statement_total{db=\"bank\",type=\"Select\"} 1200\n"
            + "tidb_executor_statement_total{db=\"\",type=\"Select\"} 3\n"
            + "tidb_executor_statement_total{db=\"bank\",type=\"Set\"} 7\n"
            + "tidb_executor_statement_total_other{type=\"Select\"} 99\n"
            + "tidb_server_read_from_tablecache_total 1.5e+06\n";
    assertThat(TiDBMetrics.sum(text, "tidb_executor_statement_total", "type=\"Select\"")).isEqualTo(1203);
    assertThat(TiDBMetrics.sum(text, "tidb_executor_statement_total", "type=\"Set\"")).isEqualTo(7);
    assertThat(TiDBMetrics.sum(text, "tidb_server_read_from_tablecache_total", "")).isEqualTo(1_500_000);
  }
}
