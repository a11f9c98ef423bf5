package io.wireadvisor.advisor;

import static io.wireadvisor.advisor.StatementPatternRuleTest.ENDED;
import static io.wireadvisor.advisor.StatementPatternRuleTest.IN_TRANS;
import static io.wireadvisor.advisor.StatementPatternRuleTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.WireSession;
import org.junit.jupiter.api.Test;

/** diff's "statement kinds that appeared or grew", judged against the traffic's own growth. */
class KindsGrownTest {
  /** {@code transactions} of two SELECTs, one UPDATE and a COMMIT; {@code rollbacks} ROLLBACKs beside. */
  private static TrafficProfile traffic(int transactions, int extraUpdates, int rollbacks) {
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    WireSession s = new WireSession(recorder, new WireSession.Budget(), null);
    ShapeHandle select = recorder.shape("SELECT bal FROM acct WHERE id = 1");
    ShapeHandle update = recorder.shape("UPDATE acct SET bal = bal - 1 WHERE id = 1");
    ShapeHandle commit = recorder.shape("COMMIT");
    ShapeHandle rollback = recorder.shape("ROLLBACK");
    for (int t = 0; t < transactions; t++) {
      run(s, select, 1, IN_TRANS);
      run(s, select, 1, IN_TRANS);
      run(s, update, -1, IN_TRANS);
      for (int i = 0; i < extraUpdates && t == 0; i++) {
        run(s, update, -1, IN_TRANS);
      }
      run(s, commit, -1, ENDED);
    }
    for (int i = 0; i < rollbacks; i++) {
      run(s, rollback, -1, ENDED);
    }
    return recorder.snapshot();
  }

  @Test
  void aFasterRunOfTheSameMixNamesNoKind() {
    // 1,000 transactions, then 1,300 (30% more throughput, the same statements per transaction).
    assertThat(Comparison.kindsGrown(traffic(1000, 0, 0), traffic(1300, 0, 0))).isEmpty();
  }

  @Test
  void aKindThatAppearsOrGrowsPerStatementIsNamedWithItsRate() {
    // The same 30% more throughput, plus ROLLBACKs that were not there and 400 more UPDATEs.
    assertThat(Comparison.kindsGrown(traffic(1000, 0, 0), traffic(1300, 400, 120)))
        .containsExactly("UPDATE 1,000 -> 1,700 (250.0 -> 297.2 per 1,000 statements)", "ROLLBACK 0 -> 120");
  }

  @Test
  void aSmallerWindowWithMoreOfAKindPerStatementIsNamedToo() {
    // Half the traffic, yet as many UPDATEs as before: they doubled per statement.
    assertThat(Comparison.kindsGrown(traffic(1000, 0, 0), traffic(500, 500, 0)))
        .containsExactly("UPDATE 1,000 -> 1,000 (250.0 -> 400.0 per 1,000 statements)");
  }
}
