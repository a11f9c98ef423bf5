package io.wireadvisor.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows of several STATEMENTS_SUMMARY_HISTORY intervals added up per schema and digest. */
class StatementSummaryMergeTest {
  private static StatementSummary row(String schema, String digest, long exec, long hits, long latency,
      double keys, long unqualified, String reason, long parse, long compile) {
    return new StatementSummary(schema, "select ? from t /* " + digest + " */", exec, hits, false, latency, digest, keys)
        .withPlanCacheFacts(unqualified, reason, parse, compile);
  }

  @Test
  void countsAndLatenciesAddUpAndAveragesAreWeightedByExecutions() {
    List<StatementSummary> merged = StatementSummary.merge(Arrays.asList(
        row("app", "d1", 100, 10, 1_000_000, 2.0, 90, "'<nil>' may be converted to INT", 1_000, 10_000),
        row("app", "d2", 7, 7, 70, 1.0, 0, null, 5, 5),
        row("app", "d1", 300, 0, 9_000_000, 6.0, 0, null, 3_000, 30_000),
        // The same digest in another schema stays its own row.
        row("other", "d1", 50, 0, 5, 1.0, 0, null, 1, 1)), 500);
    assertThat(merged).hasSize(3);
    StatementSummary d1 = merged.get(0);
    assertThat(d1.schema()).isEqualTo("app");
    assertThat(d1.digest()).isEqualTo("d1");
    assertThat(d1.execCount()).isEqualTo(400);
    assertThat(d1.planCacheHits()).isEqualTo(10);
    assertThat(d1.sumLatencyNanos()).isEqualTo(10_000_000);
    assertThat(d1.planCacheUnqualified()).isEqualTo(90);
    // (100 x 2 + 300 x 6) / 400 = 5, not the plain mean 4.
    assertThat(d1.avgProcessedKeys()).isEqualTo(5.0);
    assertThat(d1.avgParseNanos()).isEqualTo(2_500);
    assertThat(d1.avgCompileNanos()).isEqualTo(25_000);
    // A later interval without a refusal does not erase the reason an earlier one gave.
    assertThat(d1.planCacheUnqualifiedReason()).isEqualTo("'<nil>' may be converted to INT");
    assertThat(merged.get(1).schema()).isEqualTo("other");
    assertThat(merged.get(1).execCount()).isEqualTo(50);
    assertThat(merged.get(2).digest()).isEqualTo("d2");
  }

  @Test
  void theLatestReasonWinsAndUnknownColumnsStayUnknown() {
    List<StatementSummary> merged = StatementSummary.merge(Arrays.asList(
        row("app", "d1", 10, 0, 1, -1, 5, "older reason", -1, 100),
        row("app", "d1", 10, 0, 1, 3, 5, "newer reason", 100, 100)), 500);
    StatementSummary d1 = merged.get(0);
    assertThat(d1.planCacheUnqualifiedReason()).isEqualTo("newer reason");
    assertThat(d1.avgProcessedKeys()).isEqualTo(-1);
    assertThat(d1.avgParseNanos()).isEqualTo(-1);
    assertThat(d1.avgCompileNanos()).isEqualTo(100);
    assertThat(d1.planCacheUnqualified()).isEqualTo(10);
    List<StatementSummary> unrecorded = StatementSummary.merge(Arrays.asList(
        row("app", "d1", 10, 0, 1, 1, -1, null, 1, 1), row("app", "d1", 10, 0, 1, 1, -1, null, 1, 1)), 500);
    assertThat(unrecorded.get(0).planCacheUnqualified()).isEqualTo(-1);
  }

  @Test
  void theMostExecutedAreKeptUpToTheBound() {
    List<StatementSummary> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      // Each digest in two intervals: 1,000 statements, of which 500 are kept.
      rows.add(row("app", "d" + (i % 1000), 1 + i % 1000, 0, 1, 1, 0, null, 1, 1));
    }
    List<StatementSummary> merged = StatementSummary.merge(rows, ServerInspector.MAX_STATEMENTS);
    assertThat(merged).hasSize(ServerInspector.MAX_STATEMENTS);
    assertThat(merged.get(0).digest()).isEqualTo("d999");
    assertThat(merged.get(0).execCount()).isEqualTo(2000);
    assertThat(merged.get(merged.size() - 1).execCount()).isEqualTo(2 * 501);
  }
}
