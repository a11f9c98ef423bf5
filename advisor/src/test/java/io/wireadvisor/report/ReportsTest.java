package io.wireadvisor.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.BankLikeFixtures;
import io.wireadvisor.advisor.Comparison;
import org.junit.jupiter.api.Test;

class ReportsTest {
  final Analysis s1 = Advisor.analyze(BankLikeFixtures.scenario(1), BankLikeFixtures.tidb(1));

  @Test
  void textNamesEachChangeAndOneUrlForAll() {
    String t = Reports.text(s1);
    assertThat(t).contains("6 recommendation(s)", "dataSource.prepStmtCacheSqlLimit=2048",
        "SET GLOBAL tidb_rc_read_check_ts = ON;", "Statements per wire command: 0.67",
        "useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=125&prepStmtCacheSqlLimit=2048&useConfigs=maxPerformance");
  }

  @Test
  void markdownHasOneSectionPerRecommendation() {
    String md = Reports.markdown(s1);
    assertThat(md.split("\n## ", -1).length - 1).isEqualTo(6 + 1);
    assertThat(md).contains("`tidb-cached-tables` · severity **MEDIUM**");
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
