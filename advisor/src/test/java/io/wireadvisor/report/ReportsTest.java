package io.wireadvisor.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.BankLikeFixtures;
import io.wireadvisor.advisor.Comparison;
import org.junit.jupiter.api.Test;

class ReportsTest {
  final Analysis s1 = Advisor.analyze(BankLikeFixtures.scenario(1), BankLikeFixtures.tidb(1));

  @Test
  void textLeadsWithTheAnswerAndEndsWithEveryChangeReadyToCopy() {
    String t = Reports.text(s1);
    assertThat(t.indexOf("Now:")).isLessThan(t.indexOf("Top changes:"));
    assertThat(t.indexOf("Top changes:")).isLessThan(t.indexOf("Top statements by time"));
    assertThat(t.indexOf("Top statements by time")).isLessThan(t.indexOf("Recommendations, most time saved first"));
    assertThat(t).contains("1.50 wire round trips per business statement",
        "jdbc:mysql://tidb:4000/bank?useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=125"
            + "&prepStmtCacheSqlLimit=2048&useConfigs=maxPerformance",
        "dataSource.prepStmtCacheSqlLimit=2048",
        "spring.datasource.hikari.data-source-properties.prepStmtCacheSqlLimit=2048",
        "SET GLOBAL tidb_rc_read_check_ts = ON;");
    for (String line : t.split("\n")) {
      // Only what is copied whole may be longer: a URL or its parameters.
      if (!line.trim().startsWith("jdbc:") && !line.trim().startsWith("useServerPrepStmts=")) {
        assertThat(line.length()).as("fits a terminal: %s", line).isLessThanOrEqualTo(Reports.WIDTH);
      }
    }
  }

  @Test
  void markdownHasTheSameSectionsAndOnePerRecommendation() {
    String md = Reports.markdown(s1);
    for (Recommendation r : s1.recommendations()) {
      assertThat(md).contains("## ", "`" + r.id() + "` · severity **" + r.severity() + "**");
    }
    assertThat(md).contains("## Top statements by time", "## All changes together", "## Profile");
    assertThat(md.split("\n## ", -1).length - 1)
        .isEqualTo(s1.recommendations().size() + 3 + (s1.withheld().isEmpty() ? 0 : 1));
  }

  @Test
  void jsonFollowsTheDocumentedSchema() throws Exception {
    JsonNode root = new ObjectMapper().readTree(Reports.json(s1));
    assertThat(root.path("schemaVersion").asInt()).isEqualTo(1);
    assertThat(root.path("server").asText()).isEqualTo("TIDB 8.0.11-TiDB-v8.5.3, READ-COMMITTED");
    JsonNode p = root.path("profile");
    assertThat(p.path("statements").asLong()).isEqualTo(1_000_000);
    assertThat(p.path("metrics").path("TEXT_PROTOCOL_SHARE").asDouble()).isEqualTo(1.0);
    assertThat(p.path("metrics").path("CLOSES_PER_EXECUTE").isNull()).isTrue();
    JsonNode cache = root.path("recommendations").get(1); // right after the prepares it goes with
    assertThat(cache.path("id").asText()).isEqualTo("prepared-statement-cache");
    assertThat(cache.path("change").path("urlParameters").asText())
        .isEqualTo("cachePrepStmts=true&prepStmtCacheSize=125&prepStmtCacheSqlLimit=2048");
    assertThat(cache.path("expectations").get(0).path("metric").asText()).isEqualTo("PREPARES_PER_EXECUTE");
    assertThat(cache.path("expectations").get(0).path("target").asDouble()).isEqualTo(0.05);
    assertThat(root.path("recommendations").get(5).path("change").path("sql")).hasSize(48);
    assertThat(root.path("recommendations").get(3).path("expectations").get(0).path("comparison").asText())
        .isEqualTo("SERVER_SIDE");
  }

  @Test
  void diffJsonSaysWhichExpectationsAreMet() throws Exception {
    Comparison c = Comparison.of(BankLikeFixtures.scenario(1), BankLikeFixtures.scenario(3), BankLikeFixtures.tidb(1));
    JsonNode root = new ObjectMapper().readTree(AnalysisJson.toJson(c));
    assertThat(root.path("schema").asText()).isEqualTo("wire-advisor/diff");
    assertThat(root.path("allMet").asBoolean()).isFalse();
    boolean closeNotMet = false;
    for (JsonNode o : root.path("outcomes")) {
      if (o.path("expectation").path("metric").asText().equals("CLOSES_PER_EXECUTE")) {
        closeNotMet = o.path("status").asText().equals("NOT_MET") && o.path("after").asDouble() > 0.8;
      }
    }
    assertThat(closeNotMet).isTrue();
  }
}
