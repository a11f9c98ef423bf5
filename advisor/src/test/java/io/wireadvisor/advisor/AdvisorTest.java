package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AdvisorTest {
  static final List<String> STUDY_PATH =
      Arrays.asList(
          TextProtocolRule.ID,
          // Profiles without latency rank in rule order, except that the statement cache stands
          // right after the server-side prepares it goes with (Estimates.ranked).
          StatementCacheRule.ID,
          SessionProbeRule.ID,
          CloseStmtRule.ID,
          RcReadCheckRule.ID,
          TableCacheRule.ID);

  @Test
  void textBaselineOnTiDBGetsTheWholeStudyPathAndNothingElse() {
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(1), BankLikeProfiles.tidb(1));

    assertThat(a.ids()).containsExactlyElementsOf(STUDY_PATH);
    assertThat(a.recommendation(TextProtocolRule.ID).change().jdbcProperties())
        .containsEntry("useServerPrepStmts", "true");
    assertThat(a.recommendation(SessionProbeRule.ID).change().jdbcProperties())
        .containsEntry("useConfigs", "maxPerformance");
    assertThat(String.join("\n", a.recommendation(SessionProbeRule.ID).evidence()))
        .contains("getTransactionIsolation (100,000)", "isReadOnly (100,000)", "setAutoCommit (200,000)");
    // p99 of distinct shapes per connection is 85 -> 85 * 1.25 rounded up to 125; longest SQL 1800 -> 2048.
    assertThat(a.recommendation(StatementCacheRule.ID).change().jdbcProperties())
        .containsEntry("cachePrepStmts", "true")
        .containsEntry("prepStmtCacheSize", "125")
        .containsEntry("prepStmtCacheSqlLimit", "2048");
    assertThat(a.recommendation(CloseStmtRule.ID).change().sql())
        .containsExactly("SET GLOBAL tidb_ignore_prepared_cache_close_stmt = ON;");
    assertThat(a.recommendation(RcReadCheckRule.ID).change().sql())
        .containsExactly("SET GLOBAL tidb_rc_read_check_ts = ON;");
    assertThat(cachedTables(a.recommendation(TableCacheRule.ID).change().sql()))
        .containsExactlyInAnyOrderElementsOf(BankLikeProfiles.readOnlyTables());
  }

  @Test
  void eachStudyScenarioGetsTheRestOfThePath() {
    assertThat(ids(2)).containsExactly(TextProtocolRule.ID, StatementCacheRule.ID, CloseStmtRule.ID,
        RcReadCheckRule.ID, TableCacheRule.ID);
    assertThat(ids(3)).containsExactly(StatementCacheRule.ID, CloseStmtRule.ID, RcReadCheckRule.ID,
        TableCacheRule.ID);
    assertThat(ids(4)).containsExactly(StatementCacheRule.ID, RcReadCheckRule.ID, TableCacheRule.ID);
    assertThat(ids(5)).containsExactly(RcReadCheckRule.ID, TableCacheRule.ID);
    assertThat(ids(6)).containsExactly(TableCacheRule.ID);
    assertThat(ids(7)).isEmpty();
  }

  @Test
  void scenarioThreeIsCaughtThoughMaxPerformanceTurnedTheCacheOn() {
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(3), BankLikeProfiles.tidb(3));
    Recommendation cache = a.recommendation(StatementCacheRule.ID);

    assertThat(cache.change().jdbcProperties())
        .doesNotContainKey("cachePrepStmts")
        .containsEntry("prepStmtCacheSize", "125")
        .containsEntry("prepStmtCacheSqlLimit", "2048");
    assertThat(String.join("\n", cache.evidence())).contains("PREPARE per EXECUTE 0.90", "CLOSE per EXECUTE 0.90");
    assertThat(cache.expectations().get(1).description())
        .isEqualTo("CLOSE per EXECUTE goes from 0.90 to at most 0.05");
  }

  private static List<String> ids(int scenario) {
    return Advisor.analyze(BankLikeProfiles.scenario(scenario), BankLikeProfiles.tidb(scenario)).ids();
  }

  @Test
  void applyingEveryRecommendationReachesAFixpoint() {
    Analysis before = Advisor.analyze(BankLikeProfiles.scenario(1), BankLikeProfiles.tidb(1));
    Map<String, String> props = new LinkedHashMap<>(BankLikeProfiles.properties(1));
    ServerView server = BankLikeProfiles.tidb(1);
    for (Recommendation r : before.recommendations()) {
      props.putAll(r.change().jdbcProperties());
      server = applySql(server, r.change().sql());
    }
    TrafficProfile after = simulate(props);

    Analysis again = Advisor.analyze(after, server);

    assertThat(again.recommendations()).isEmpty();
    // And diff-style: every measurable expectation of the first analysis is met.
    for (Recommendation r : before.recommendations()) {
      for (Expectation e : r.expectations()) {
        if (e.metric() != null) {
          assertThat(e.check(after).status()).as(e.description()).isEqualTo(Expectation.Outcome.Status.MET);
        }
      }
    }
  }

  @Test
  void onMariaDbTheSameWorkloadGetsOnlyJdbcSideRecommendations() {
    List<String> jdbcSide = Arrays.asList(TextProtocolRule.ID, StatementCacheRule.ID, SessionProbeRule.ID);

    assertThat(Advisor.analyze(BankLikeProfiles.scenario(1), BankLikeProfiles.mariadb()).ids())
        .containsExactlyElementsOf(jdbcSide);
    assertThat(Advisor.analyze(BankLikeProfiles.scenario(1), null).ids())
        .containsExactlyElementsOf(jdbcSide);
    assertThat(Advisor.analyze(BankLikeProfiles.scenario(1), ServerView.builder("8.4.6").build()).ids())
        .containsExactlyElementsOf(jdbcSide);
  }

  @Test
  void mergedProfilesAreAnalyzedAsOne() {
    TrafficProfile half = BankLikeProfiles.scenario(1);
    Analysis a = Advisor.analyze(Arrays.asList(half, half), BankLikeProfiles.tidb(1));

    assertThat(a.ids()).containsExactlyElementsOf(STUDY_PATH);
    assertThat(a.profile().statements()).isEqualTo(2 * 1_000_000L);
  }

  /** The traffic the bank workload produces under these JDBC properties. */
  static TrafficProfile simulate(Map<String, String> props) {
    TrafficProfile probe = BankLikeProfiles.profile(props, false, 256, 25, false);
    JdbcSettings jdbc = JdbcSettings.of(probe);
    boolean cache = jdbc.isTrue("cachePrepStmts");
    return BankLikeProfiles.profile(
        props,
        jdbc.isTrue("useServerPrepStmts"),
        cache ? (int) jdbc.minLong("prepStmtCacheSqlLimit", 256) : 0,
        cache ? (int) jdbc.minLong("prepStmtCacheSize", 25) : 0,
        !jdbc.isTrue("useLocalSessionState"));
  }

  private static final Pattern SET_GLOBAL = Pattern.compile("SET GLOBAL (\\w+) = (\\w+);");
  private static final Pattern CACHE = Pattern.compile("ALTER TABLE `(\\w+)`\\.`(\\w+)` CACHE;");

  /** What the recommended SQL does to the server, applied to a view. */
  static ServerView applySql(ServerView server, List<String> sql) {
    ServerView.Builder b = server.toBuilder();
    for (String s : sql) {
      Matcher m = SET_GLOBAL.matcher(s);
      Matcher c = CACHE.matcher(s);
      if (m.matches()) {
        b.global(m.group(1), m.group(2));
      } else if (c.matches()) {
        b.replaceTable(server.table(c.group(1) + "." + c.group(2)).withCached(true));
      } else {
        throw new AssertionError("unexpected SQL in a recommendation: " + s);
      }
    }
    return b.build();
  }

  static List<String> cachedTables(List<String> sql) {
    List<String> names = new ArrayList<>();
    for (String s : sql) {
      Matcher c = CACHE.matcher(s);
      assertThat(c.matches()).as(s).isTrue();
      names.add(c.group(1) + "." + c.group(2));
    }
    return names;
  }
}
