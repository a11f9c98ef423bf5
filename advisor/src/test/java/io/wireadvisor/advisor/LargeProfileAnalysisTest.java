package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.TrafficProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the advisor makes of a merged profile at full size; its speed is {@link AdvisorBenchmark}'s job. */
class LargeProfileAnalysisTest {
  @Test
  void aMergedProfileOfAMillionStatementsAndFiveThousandShapesKeepsEveryCountAndGetsTheTextAdvice() {
    List<TrafficProfile> parts = LargeProfiles.tenCollectors();

    Analysis a = Advisor.analyze(parts, BankLikeProfiles.tidb(1));

    assertThat(a.profile().statements()).isEqualTo(1_000_000L);
    assertThat(a.profile().shapes()).isEqualTo(LargeProfiles.SHAPES);
    assertThat(a.ids()).contains(TextProtocolRule.ID);
  }
}
