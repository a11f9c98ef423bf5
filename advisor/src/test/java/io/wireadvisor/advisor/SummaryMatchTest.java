package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import org.junit.jupiter.api.Test;

class SummaryMatchTest {
  @Test
  void tidbDigestTextsMatchTheProfilesShapesDespiteQuotingAndSpacing() {
    ServerView view = BankLikeProfiles.tidb(3).toBuilder()
        .statement(new StatementSummary("bank", "select `bank` . `t12` /* shape 0 */", 5000, 0, false, 1))
        .statement(new StatementSummary("bank", "update `bank` . `t00` /* shape 180 */", 5000, 10, false, 1))
        .statement(new StatementSummary("bank", "select `unrelated`", 99999, 99999, true, 1))
        .build();
    SummaryMatch m = SummaryMatch.of(BankLikeProfiles.scenario(3), view);
    assertThat(m.rows).isEqualTo(2);
    assertThat(m.executions).isEqualTo(10_000);
    assertThat(m.planCacheHits).isEqualTo(10);
    Recommendation close = new CloseStmtRule().evaluate(BankLikeProfiles.scenario(3), view);
    assertThat(close.evidence()).contains(
        "STATEMENTS_SUMMARY for 2 of the profile's statements: 10 plan-cache hits in 10,000 executions (0.1%).");
  }

  @Test
  void noRowsNoEvidence() {
    assertThat(SummaryMatch.of(BankLikeProfiles.scenario(3), BankLikeProfiles.tidb(3)).evidence()).isNull();
  }
}
