package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import org.junit.jupiter.api.Test;

/**
 * TiDB's statement summaries are the profile's own only in the schema it connects to: the same SQL
 * text run in another schema (a previous run, another application on the server) must not stand in
 * for this traffic's counts (a CI run's report quoted another schema's 25,424 commits, and named
 * none of the profile's own plan-cache refusals).
 */
class SummaryScopeTest {
  private static ServerView withOtherSchemas() {
    return ServerWindowsTest.withSummary().toBuilder()
        // The same text in another schema, far busier, and a row without a schema (TiDB's row of
        // evicted statements has none).
        .statement(new StatementSummary("bank_previous_run", "select `bank` . `t12` /* shape 0 */", 900_000, 0,
            false, 1))
        .statement(new StatementSummary(null, "update `bank` . `t00` /* shape 180 */", 70_000, 0, false, 1))
        .build();
  }

  @Test
  void onlyTheProfilesSchemaCounts() {
    TrafficProfile profile = BankLikeProfiles.scenario(3);
    Analysis a = Advisor.analyze(profile, withOtherSchemas());
    // As with the bank schema's rows alone: 15,120 executions, not 985,120.
    assertThat(a.recommendations()).anyMatch(r -> r.evidence().stream()
        .anyMatch(e -> e.contains("plan-cache hits in 15,120 executions")));
    assertThat(Reports.text(a)).doesNotContain("985,120", "900,000 executions", "970,000", "85,120");
    assertThat(a.serverWindows())
        .contains("of schema bank (the profile's JDBC URL; 2 rows of other schemas set aside)");
  }

  @Test
  void noneOfTheProfilesOwnRowsIsSaidNotTakenForNoRefusals() {
    // Only other schemas' rows: the report has no TiDB figures of its own and says why.
    ServerView elsewhere = BankLikeProfiles.tidb(3).toBuilder()
        .global("tidb_stmt_summary_max_stmt_count", "3000")
        .statement(new StatementSummary("bank_previous_run", "select `bank` . `t12` /* shape 0 */", 900_000, 0,
            false, 1).withPlanCacheFacts(900_000, "'<nil>' may be converted to INT", -1, -1))
        .build();
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(3), elsewhere);
    assertThat(a.recommendations()).noneMatch(r -> r.id().equals(PlanCacheRefusedRule.ID));
    assertThat(a.withheld()).anyMatch(w -> w.ruleId().equals(PlanCacheRefusedRule.ID)
        && w.message().contains("STATEMENTS_SUMMARY held none of the profile's statements in schema bank")
        && w.message().contains("keeps 3000 statements")
        && w.message().contains("have none (1 row of another schema set aside)"));
    assertThat(Reports.text(a)).doesNotContain("may be converted to INT", "900,000 executions");
  }

  @Test
  void aProfileWithoutADatabaseKeepsEveryRow() throws Exception {
    TrafficProfile profile = BankLikeProfiles.scenario(3);
    String url = profile.sources().get(0).jdbcUrl();
    assertThat(url).isEqualTo("jdbc:mysql://tidb:4000/bank");
    TrafficProfile noDb = ProfileJson.fromJson(ProfileJson.toJson(profile).replace(url, "jdbc:mysql://tidb:4000/"));
    assertThat(SummaryScope.schemas(noDb)).isEmpty();
    Analysis a = Advisor.analyze(noDb, withOtherSchemas());
    assertThat(a.recommendations()).anyMatch(r -> r.evidence().stream()
        .anyMatch(e -> e.contains("executions") && e.contains("985,120")));
    assertThat(a.serverWindows()).doesNotContain("set aside", "of schema");
  }

  @Test
  void theDatabaseOfAConnectorJUrl() {
    assertThat(SummaryScope.database("jdbc:mysql://h:4000/bank")).isEqualTo("bank");
    assertThat(SummaryScope.database("jdbc:mysql://h1:4000,h2:4000/shop_1?useServerPrepStmts=true")).isEqualTo("shop_1");
    assertThat(SummaryScope.database("jdbc:mysql://[::1]:4000/my%20db;x=1")).isEqualTo("my db");
    assertThat(SummaryScope.database("jdbc:mysql://address=(host=h)(port=4000)/a+b")).isEqualTo("a+b");
    assertThat(SummaryScope.database("jdbc:mysql://h:4000/")).isNull();
    assertThat(SummaryScope.database("jdbc:mysql://h:4000")).isNull();
    assertThat(SummaryScope.database("jdbc:mysql://h:4000/?user=x")).isNull();
    assertThat(SummaryScope.database("jdbc:mysql://h/%zz")).isNull();
  }
}
