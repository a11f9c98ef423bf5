package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.report.Reports;
import org.junit.jupiter.api.Test;

class StatementPatternRuleTest {
  static final int IN_TRANS = 0x0001;
  static final int ENDED = 0x0000;

  /** A profile recorded as a collector records it: N+1 loops and inserts followed by updates. */
  /** Hibernate 6's load of a child collection (its aliases: c1_0). */
  static final String HIBERNATE_CHILD = "SELECT c1_0.id, c1_0.v FROM child c1_0 WHERE c1_0.parent_id = 5";
  static final String PLAIN_CHILD = "SELECT id, v FROM child WHERE parent_id = 5";

  private static TrafficProfile profile(int loopTransactions, int insertTransactions,
      boolean fixed) {
    return profile(loopTransactions, insertTransactions, fixed, HIBERNATE_CHILD);
  }

  private static TrafficProfile profile(int loopTransactions, int insertTransactions,
      boolean fixed, String childSql) {
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    WireSession s = new WireSession(recorder, new WireSession.Budget(), null);
    ShapeHandle parents = recorder.shape("SELECT id, name FROM parent WHERE owner = 1");
    ShapeHandle joined = recorder.shape(
        "SELECT p.id, c.id, c.v FROM parent p JOIN child c ON c.parent_id = p.id WHERE p.owner = 1");
    ShapeHandle child = recorder.shape(childSql);
    ShapeHandle insert = recorder.shape("INSERT INTO child (id, v, parent_id) VALUES (1, 'a', NULL)");
    ShapeHandle insertWithKey = recorder.shape("INSERT INTO child (id, v, parent_id) VALUES (1, 'a', 7)");
    ShapeHandle update = recorder.shape("UPDATE child SET parent_id = 7 WHERE id = 1");
    ShapeHandle commit = recorder.shape("COMMIT");
    for (int t = 0; t < loopTransactions; t++) {
      if (fixed) {
        run(s, joined, 5, IN_TRANS);
      } else {
        run(s, parents, 5, IN_TRANS);
        for (int i = 0; i < 5; i++) {
          run(s, child, 1, IN_TRANS);
        }
      }
      run(s, commit, -1, ENDED);
    }
    for (int t = 0; t < insertTransactions; t++) {
      for (int i = 0; i < 4; i++) {
        run(s, fixed ? insertWithKey : insert, -1, IN_TRANS);
      }
      for (int i = 0; i < 4 && !fixed; i++) {
        run(s, update, -1, IN_TRANS);
      }
      run(s, commit, -1, ENDED);
    }
    return recorder.snapshot();
  }

  /** One text statement on {@code s}: {@code rows} rows (-1: an OK), server status {@code status} after. */
  static void run(WireSession s, ShapeHandle shape, long rows, int status) {
    s.command(CommandType.QUERY, 200_000);
    s.query(shape, 200_000, WireSession.NO_ERROR, null);
    s.result(rows, status);
  }

  private static Recommendation find(Analysis a) {
    for (Recommendation r : a.recommendations()) {
      if (r.id().equals(StatementPatternRule.ID)) {
        return r;
      }
    }
    return null;
  }

  @Test
  void namesTheNPlusOneLoopAndTheUpdateAfterInsertWithTheirPartnersCountsAndFixes() {
    TrafficProfile p = profile(10, 8, false);
    Analysis a = Advisor.analyze(p, null);
    Recommendation r = find(a);
    assertThat(r).isNotNull();
    assertThat(r.title()).isEqualTo("Remove N+1 loading and UPDATEs after INSERTs in the ORM mapping");
    String evidence = String.join("\n", r.evidence());
    assertThat(evidence)
        .contains("82 executions belong to statement patterns")
        .contains("N+1: select c1_0.id, c1_0.v from child c1_0 where c1_0.parent_id = ? ran 50 times in 10 transactions"
            + " (5.0 per transaction, 1.00 rows per execution, 10.0 ms), after select id, name from"
            + " parent where owner = ?")
        .contains("UPDATE after INSERT: update child set parent_id = ? where id = ? ran 32 times"
            + " after insert into child (id, v, parent_id) values ( ... ) in 8 transactions (4.0 per"
            + " transaction, 6.4 ms)")
        .contains("18 transactions in the window");
    assertThat(r.change().hibernateProperties())
        .containsEntry(StatementPatternRule.BATCH_FETCH_SIZE, "16");
    assertThat(r.change().notes()).anySatisfy(n -> assertThat(n).contains("join fetch")
        .contains("@EntityGraph").contains("@BatchSize"));
    assertThat(r.change().notes()).anySatisfy(n -> assertThat(n).contains("mappedBy"));
    // Measured on spring-petclinic-rest (Hibernate 7.4.1, TiDB v8.4): with batch fetching the IN
    // lists are NULL-padded and refused by the plan cache, in_clause_parameter_padding or not.
    assertThat(r.risk()).contains("NULL may be converted to INT")
        .contains("hibernate.query.in_clause_parameter_padding does not change that")
        .doesNotContain("unless");
    // Saving: 50 loads become one statement per transaction (10), the 32 UPDATEs go.
    assertThat(r.saving().roundTripsBefore()).isEqualTo(82);
    assertThat(r.saving().roundTripsAfter()).isEqualTo(10);
    assertThat(r.saving().secondsSaved()).isCloseTo(72 * 0.0002, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(r.saving().commandDelta()).containsEntry("COM_QUERY", -72L);
    // diff: per business statement (124), N+1 loads and the UPDATEs apart.
    assertThat(r.expectations()).extracting(Expectation::metric).containsExactly(
        Metric.N_PLUS_ONE_PER_STATEMENT, Metric.INSERT_THEN_UPDATE_PER_STATEMENT);
    Expectation e = r.expectations().get(0);
    assertThat(e.before()).isCloseTo(50.0 / 124, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(e.codeChange()).isFalse();
    assertThat(e.check(profile(10, 8, true)).status()).isEqualTo(Expectation.Outcome.Status.MET);
    assertThat(e.check(p).status()).isEqualTo(Expectation.Outcome.Status.NOT_MET);
    // The UPDATEs go only with mappedBy, a code change: unchanged, it was not applied.
    Expectation u = r.expectations().get(1);
    assertThat(u.before()).isCloseTo(32.0 / 124, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(u.codeChange()).isTrue();
    assertThat(u.check(profile(10, 8, true)).status()).isEqualTo(Expectation.Outcome.Status.MET);
    Expectation.Outcome same = u.check(p);
    assertThat(same.status()).isEqualTo(Expectation.Outcome.Status.NOT_APPLIED);
    assertThat(same.note()).isEqualTo("a code change, evidently not made: executions before 32, after 32");

    String all = Reports.text(a) + Reports.markdown(a) + Reports.json(a) + Reports.html(a);
    assertThat(all).contains(StatementPatternRule.ID).contains("hibernate.default_batch_fetch_size")
        .contains("N+1 executions per statement").contains("UPDATE-after-INSERT executions per statement");
  }

  /**
   * BenchBase's TPC-C on TiDB (hand-written JDBC): its per-item lookups were advised Hibernate's
   * batch fetching, 80-90% of the first screen's saving, a change that cannot be made there.
   */
  @Test
  void handWrittenLoopsGetACodeChangeNotAnOrmSettingAndNoSavingInTheEstimate() {
    TrafficProfile p = profile(10, 0, false, PLAIN_CHILD);
    Recommendation r = find(Advisor.analyze(p, null));
    assertThat(r).isNotNull();
    assertThat(r.title()).isEqualTo("Remove N+1 loading in the application's data access");
    assertThat(r.change().hibernateProperties()).isEmpty();
    assertThat(r.change().notes()).anySatisfy(n -> assertThat(n).contains("hand-written")
        .contains("IN (...)").doesNotContain("@BatchSize"));
    assertThat(r.saving() == null ? 0 : r.saving().roundTripsBefore() - r.saving().roundTripsAfter())
        .as("a code change the estimate does not count").isZero();
    Expectation e = r.expectations().get(0);
    assertThat(e.metric()).isEqualTo(Metric.N_PLUS_ONE_PER_STATEMENT);
    assertThat(e.codeChange()).isTrue();
    assertThat(e.check(p).status()).isEqualTo(Expectation.Outcome.Status.NOT_APPLIED);
    assertThat(e.check(profile(10, 0, true, PLAIN_CHILD)).status()).isEqualTo(Expectation.Outcome.Status.MET);
    // Hibernate's own SQL, same loop: the ORM setting, counted.
    Recommendation orm = find(Advisor.analyze(profile(10, 0, false), null));
    assertThat(orm.change().hibernateProperties()).containsKey(StatementPatternRule.BATCH_FETCH_SIZE);
    assertThat(orm.saving().roundTripsBefore()).isEqualTo(50);
  }

  @Test
  void lockingReadsRowByRowAreNotNPlusOne() {
    TrafficProfile p = profile(10, 0, false, PLAIN_CHILD + " FOR UPDATE");
    assertThat(find(Advisor.analyze(p, null))).isNull();
    assertThat(StatementPatternRule.patterns(p, false)).isEmpty();
  }

  @Test
  void recognisesHibernatesAliases() {
    assertThat(StatementPatternRule.hibernateShaped("select c1_0.id from child c1_0 where c1_0.parent_id = ?")).isTrue();
    assertThat(StatementPatternRule.hibernateShaped("select owner0_.id as id1_0_ from owners owner0_ where owner0_.id = ?"))
        .isTrue();
    assertThat(StatementPatternRule.hibernateShaped("select s_quantity, s_dist_01 from stock where s_i_id = ? and s_w_id = ?"))
        .isFalse();
    assertThat(StatementPatternRule.hibernateShaped("select i_price from item where i_id = ?")).isFalse();
    assertThat(StatementPatternRule.hibernateShaped(null)).isFalse();
  }

  @Test
  void theProfileFileCarriesWhatTheRuleNeeds() throws Exception {
    TrafficProfile p = ProfileJson.fromJson(ProfileJson.toJson(profile(10, 8, false)));
    assertThat(find(Advisor.analyze(p, null)).saving().roundTripsBefore()).isEqualTo(82);
  }

  @Test
  void belowTheMinimumItSaysNotEnoughTrafficToJudge() {
    TrafficProfile p = profile(4, 2, false);
    Analysis a = Advisor.analyze(p, null);
    assertThat(find(a)).isNull();
    assertThat(a.withheld()).anySatisfy(w -> {
      assertThat(w.ruleId()).isEqualTo(StatementPatternRule.ID);
      assertThat(w.message()).startsWith("not enough traffic to judge N+1 loading and"
          + " UPDATE-after-INSERT (2 patterns").contains("need the same pattern in at least 5"
          + " transactions; have at most 4");
    });
    assertThat(Reports.text(a)).contains("not enough traffic to judge N+1 loading");
  }

  @Test
  void noPatternNoAdviceAndNothingWithheld() {
    Analysis a = Advisor.analyze(profile(10, 8, true), null);
    assertThat(find(a)).isNull();
    assertThat(a.withheld()).noneSatisfy(w -> assertThat(w.ruleId()).isEqualTo(StatementPatternRule.ID));
  }

  @Test
  void fewerTransactionsForTheSameStatementsDoNotFailAnUnappliedMappingChange() {
    // spring-petclinic on TiDB: the report's lines (autoCommit=false) merged autocommit statements
    // into fewer transactions; the 66 UPDATEs after INSERTs stayed, as no mappedBy was written.
    // Per transaction the share rose (0.05 -> 0.07: NOT_MET, diff exit 1); per statement it did not.
    TrafficProfile before = profile(0, 8, false);
    Recommendation r = find(Advisor.analyze(before, null));
    Expectation u = r.expectations().get(0);
    assertThat(u.metric()).isEqualTo(Metric.INSERT_THEN_UPDATE_PER_STATEMENT);
    TrafficProfile fewer = new TrafficProfile();
    for (io.wireadvisor.profile.ShapeStats s : before.shapes().values()) {
      fewer.addShape(s);
    }
    fewer.addTransactions(before.transactions() / 2);
    assertThat(Metric.PATTERN_EXECUTIONS_PER_TRANSACTION.compute(fewer))
        .isGreaterThan(Metric.PATTERN_EXECUTIONS_PER_TRANSACTION.compute(before));
    Expectation.Outcome o = u.check(fewer);
    assertThat(o.status()).isEqualTo(Expectation.Outcome.Status.NOT_APPLIED);
    Comparison c = Comparison.of(before, fewer, null);
    assertThat(c.allMet()).isTrue();
    assertThat(Reports.text(c)).contains("NOT_APPLIED     statement-patterns")
        .contains("(a code change, evidently not made: executions before 32, after 32)");
  }
}
