package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.Severity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangePlanTest {
  private final ChangePlan plan = new ChangePlan("bank", Map.of("tidb_rc_read_check_ts", "OFF", "tidb_enable_prepared_plan_cache", "ON"));

  private static Recommendation rec(String id, Change c) {
    return Recommendation.builder(id, id, Severity.HIGH).change(c).build();
  }

  @Test
  void jdbcPropertiesOverrideAnExistingParameterInPlaceWhateverItsCaseAndAppendNewOnes() {
    ProveConfig base = ProveConfig.baseline("useserverprepstmts=false&useSSL=false");
    ChangePlan.Planned p = plan.plan(base, "server-prepared-statements",
        Change.builder().jdbc("useServerPrepStmts", "true").jdbc("cachePrepStmts", "true").build());
    assertThat(p.applicable()).isTrue();
    ProveConfig next = base.with(p.step());
    assertThat(next.urlParameters()).isEqualTo("useserverprepstmts=true&useSSL=false&cachePrepStmts=true");
    assertThat(next.property("USESERVERPREPSTMTS")).isEqualTo("true");
  }

  @Test
  void aChangeAlreadyInEffectPlansNothing() {
    ProveConfig c = ProveConfig.baseline("useServerPrepStmts=TRUE&prepStmtCacheSize=250");
    ChangePlan.Planned p = plan.plan(c, "x",
        Change.builder().jdbc("useServerPrepStmts", "true").jdbc("prepStmtCacheSize", "250").note("also think").build());
    assertThat(p.applicable()).isFalse();
    assertThat(p.step().describe()).isEqualTo("(nothing)");
    // A different value is a change (the statement cache grows).
    assertThat(plan.plan(c, "x", Change.builder().jdbc("prepStmtCacheSize", "300").build()).step().jdbcProperties())
        .containsExactly(Map.entry("prepStmtCacheSize", "300"));
  }

  @Test
  void setGlobalBecomesAGlobalUnlessTheServerOrAnEarlierStepAlreadyHasThatValue() {
    ProveConfig c = ProveConfig.baseline("a=1");
    ChangePlan.Planned p = plan.plan(c, "g", Change.builder()
        .sql("SET GLOBAL tidb_rc_read_check_ts = ON;")
        .sql("SET GLOBAL tidb_enable_prepared_plan_cache = ON;")
        .sql("set global tidb_session_plan_cache_size = 250;")
        .sql("SET GLOBAL tidb_txn_mode = 'pessimistic';")
        .build());
    assertThat(p.step().globals()).containsExactly(
        Map.entry("tidb_rc_read_check_ts", "ON"),
        Map.entry("tidb_session_plan_cache_size", "250"),
        Map.entry("tidb_txn_mode", "pessimistic"));
    ProveConfig next = c.with(p.step());
    assertThat(plan.plan(next, "g", Change.builder().sql("SET GLOBAL tidb_rc_read_check_ts = ON;").build()).applicable()).isFalse();
  }

  @Test
  void tableCacheStatementsForTheWorkloadSchemaBecomeTablesToCacheOnce() {
    ProveConfig c = ProveConfig.baseline("");
    ChangePlan.Planned p = plan.plan(c, "tidb-cached-tables", Change.builder()
        .sql("ALTER TABLE `bank`.`branch` CACHE;")
        .sql("ALTER TABLE `bank`.`currency` CACHE;")
        .sql("ALTER TABLE `other`.`currency` CACHE;")
        .sql("ALTER TABLE city CACHE")
        .build());
    assertThat(p.step().tables()).containsExactly("branch", "currency", "city");
    assertThat(p.skipped()).singleElement().asString().contains("`other`.`currency`", "not the workload's schema bank");
    ProveConfig next = c.with(p.step());
    assertThat(next.cachedTables()).containsExactly("branch", "city", "currency");
    assertThat(plan.plan(next, "t", Change.builder().sql("ALTER TABLE `bank`.`BRANCH` CACHE;").build()).applicable()).isFalse();
  }

  @Test
  void otherSqlIsSkippedWithTheReasonAndNeverPlanned() {
    ChangePlan.Planned p = plan.plan(ProveConfig.baseline(""), "x", Change.builder()
        .sql("DROP TABLE `bank`.`account`;")
        .sql("SET SESSION tidb_rc_read_check_ts = ON;")
        .build());
    assertThat(p.applicable()).isFalse();
    assertThat(p.skipped()).hasSize(2).allMatch(s -> s.contains("not a SET GLOBAL or ALTER TABLE ... CACHE"));
  }

  @Test
  void poolSettingsAreSetAndARemoveRequestRemovesOnlyWhatIsSet() {
    Change validation = Change.builder()
        .pool("connectionTestQuery", "(remove: JDBC4 Connection.isValid() is one COM_PING)")
        .pool("keepaliveTime", "120000")
        .build();
    ProveConfig c = new ProveConfig(Map.of(), Map.of("connectionTestQuery", "SELECT 1"), Map.of(), List.of());
    ChangePlan.Planned p = plan.plan(c, "pool-validation", validation);
    ProveConfig next = c.with(p.step());
    assertThat(next.poolSettings()).containsExactly(Map.entry("keepaliveTime", "120000"));
    assertThat(plan.plan(next, "pool-validation", validation).applicable()).isFalse();
  }

  @Test
  void laterRecommendationsSeeEarlierOnesChangesSoASharedPropertyIsPlannedOnce() {
    List<ChangePlan.Planned> planned = plan.plan(ProveConfig.baseline("useServerPrepStmts=false"), List.of(
        rec("a", Change.builder().jdbc("useServerPrepStmts", "true").build()),
        rec("b", Change.builder().jdbc("useServerPrepStmts", "true").jdbc("cachePrepStmts", "true").build()),
        rec("c", Change.builder().note("words only").build())));
    assertThat(planned).extracting(ChangePlan.Planned::applicable).containsExactly(true, true, false);
    assertThat(planned.get(1).step().jdbcProperties()).containsOnlyKeys("cachePrepStmts");
    assertThat(ChangePlan.merge(planned).describe()).isEqualTo("useServerPrepStmts=true, cachePrepStmts=true");
  }

  @Test
  void aScenarioAsBaselineTakesItsGlobalsOnlyOnTiDB() {
    Scenarios.Scenario s1 = Scenarios.load().byId(1);
    assertThat(ProveConfig.of(s1, true).globals()).containsEntry("tidb_rc_read_check_ts", "OFF");
    assertThat(ProveConfig.of(s1, false).globals()).isEmpty();
    assertThat(ProveConfig.of(s1, false).urlParameters()).isEqualTo(s1.jdbcProperties());
    assertThat(ProveConfig.of(Scenarios.load().byId(7), true).cachedTables()).isEmpty();
  }

  @Test
  void aMalformedBaselineIsAClearError() {
    assertThatThrownBy(() -> ProveConfig.baseline("useServerPrepStmts"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a name=value URL parameter: 'useServerPrepStmts'");
  }
}
