package io.wireadvisor.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ServerViewTest {
  @Test
  void tidbVersionIsTheTiDBReleaseNotTheMySqlCompatibilityVersion() {
    ServerView v = ServerView.builder("8.0.11-TiDB-v8.5.3").build();
    assertThat(v.kind()).isEqualTo(ServerKind.TIDB);
    assertThat(v.version()).isEqualTo(new ServerVersion(8, 5, 3));
    assertThat(v.isTiDBAtLeast(7, 1)).isTrue();
    assertThat(ServerView.builder("5.7.25-TiDB-v6.0.0").build().isTiDBAtLeast(6, 1)).isFalse();
    assertThat(ServerView.builder("11.4.5-MariaDB").build().kind()).isEqualTo(ServerKind.MARIADB);
    assertThat(ServerView.builder("11.4.5-MariaDB").build().version()).isEqualTo(new ServerVersion(11, 4, 5));
    assertThat(ServerView.builder("8.4.6").build().kind()).isEqualTo(ServerKind.MYSQL);
    assertThat(ServerView.builder("8.4.6").build().isTiDBAtLeast(1, 0)).isFalse();
    assertThat(ServerVersion.parse("garbage")).isEqualTo(new ServerVersion(0, 0, 0));
  }

  @Test
  void globalsAreCaseInsensitiveAndBooleanAware() {
    ServerView v = ServerView.builder("8.0.11-TiDB-v8.5.3").global("TiDB_RC_Read_Check_TS", "1")
        .global("tidb_enable_prepared_plan_cache", "OFF").global("tidb_session_plan_cache_size", "200").build();
    assertThat(v.globalOn("tidb_rc_read_check_ts")).isTrue();
    assertThat(v.globalOff("tidb_enable_prepared_plan_cache")).isTrue();
    assertThat(v.globalOn("unknown")).isFalse();
    assertThat(v.globalOff("unknown")).isFalse();
    assertThat(v.globalLong("tidb_session_plan_cache_size", 100)).isEqualTo(200);
    assertThat(v.globalLong("unknown", 100)).isEqualTo(100);
  }

  @Test
  void tablesResolveQualifiedUnqualifiedAndAmbiguousNames() {
    ServerView v = ServerView.builder("8.4.6").defaultSchema("App")
        .table(TableInfo.table("app", "t", 1, 0)).table(TableInfo.table("other", "t", 2, 0))
        .table(TableInfo.table("other", "u", 3, 0)).table(TableInfo.table("x", "w", 3, 0))
        .table(TableInfo.table("y", "w", 3, 0)).build();
    assertThat(v.table("t").schema()).isEqualTo("app");
    assertThat(v.table("other.t").dataBytes()).isEqualTo(2);
    assertThat(v.table("`other`.`u`").dataBytes()).isEqualTo(3);
    assertThat(v.table("u").schema()).isEqualTo("other");
    assertThat(v.table("w")).isNull();
    assertThat(v.table("nope")).isNull();
  }

  @Test
  void jsonRoundTripKeepsEverything() throws IOException {
    ServerView v = ServerView.builder("8.0.11-TiDB-v8.5.3").defaultSchema("bank").isolation("READ-COMMITTED")
        .global("tidb_rc_read_check_ts", "ON")
        .table(new TableInfo("bank", "t", 10, 5, true, false, false, true))
        .statement(new StatementSummary("bank", "select ?", 10, 7, true, 1000))
        .metric("tidb_server_query_total{type=\"Query\",result=\"OK\"}", 42).build();
    ServerView back = ServerViewJson.fromJson(ServerViewJson.toJson(v));
    assertThat(back.versionString()).isEqualTo(v.versionString());
    assertThat(back.globals()).isEqualTo(v.globals());
    assertThat(back.isolation()).isEqualTo("READ-COMMITTED");
    assertThat(back.table("t").partitioned()).isTrue();
    assertThat(back.table("t").cached()).isTrue();
    assertThat(back.table("t").totalBytes()).isEqualTo(15);
    assertThat(back.statements().get(0).planCacheHits()).isEqualTo(7);
    assertThat(back.metrics()).isEqualTo(v.metrics());
  }

  @Test
  void aMetricThatIsNotANumberReadsBack() throws Exception {
    ServerView v = ServerView.builder("8.0.11-TiDB-v8.5.3").metric("m", Double.NaN).metric("i", 2.5).build();
    ServerView back = ServerViewJson.fromJson(ServerViewJson.toJson(v));
    assertThat(back.metrics().get("m")).isNaN();
    assertThat(back.metrics().get("i")).isEqualTo(2.5);
  }

  @Test
  void badServerViewJsonNamesTheField() {
    assertThatThrownBy(() -> ServerViewJson.fromJson("{\"schema\":\"wire-advisor/server-view\"}"))
        .hasMessageStartingWith("version:");
    assertThatThrownBy(() -> ServerViewJson.fromJson(
        "{\"schema\":\"wire-advisor/server-view\",\"version\":\"8.4.6\",\"tables\":[{\"schema\":\"a\"}]}"))
        .hasMessageStartingWith("tables[0].name:");
    assertThatThrownBy(() -> ServerViewJson.fromJson(
        "{\"schema\":\"wire-advisor/server-view\",\"version\":\"8.4.6\",\"statements\":[{\"execCount\":\"7\"}]}"))
        .hasMessageStartingWith("statements[0].execCount: expected an integer");
    assertThatThrownBy(() -> ServerViewJson.fromJson(
        "{\"schema\":\"wire-advisor/server-view\",\"version\":\"8.4.6\",\"metrics\":{\"m\":true}}"))
        .hasMessageStartingWith("metrics.m: expected a number");
    assertThatThrownBy(() -> ServerViewJson.fromJson("{\"schema\":\"other\",\"version\":\"8.4.6\"}"))
        .hasMessageStartingWith("schema:");
  }

  @Test
  void onlyTheMetricFamiliesOfInterestAreKept() {
    ServerView.Builder b = ServerView.builder("8.0.11-TiDB-v8.5.3");
    ServerInspector.parseMetricLine(b, "# HELP tidb_server_query_total Counter of queries.");
    ServerInspector.parseMetricLine(b, "tidb_server_query_total{result=\"OK\",type=\"StmtExecute\"} 1234");
    ServerInspector.parseMetricLine(b, "tidb_server_query_total_other 5");
    ServerInspector.parseMetricLine(b, "go_goroutines 77");
    ServerInspector.parseMetricLine(b, "tidb_server_read_from_tablecache_total 9");
    assertThat(b.build().metrics()).containsOnlyKeys(
        "tidb_server_query_total{result=\"OK\",type=\"StmtExecute\"}", "tidb_server_read_from_tablecache_total");
    assertThat(b.build().metrics().get("tidb_server_read_from_tablecache_total")).isEqualTo(9.0);
  }
}
