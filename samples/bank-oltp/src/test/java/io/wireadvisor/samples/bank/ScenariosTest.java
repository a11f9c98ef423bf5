package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.wireadvisor.samples.bank.Scenarios.Scenario;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScenariosTest {
  private final Scenarios s = Scenarios.load();

  @Test
  void hasTheStudysSevenScenariosWithItsPublishedFigures() {
    assertThat(s.scenarios()).extracting(Scenario::id).containsExactly(1, 2, 3, 4, 5, 6, 7);
    assertThat(s.scenarios()).extracting(x -> x.published().qps())
        .containsExactly(56300.0, 24200.0, 19700.0, 22100.0, 30900.0, 34900.0, 40900.0);
    assertThat(s.byId(5).published().qps() / s.byId(2).published().qps() - 1).isCloseTo(0.28, within(0.01));
    assertThat(s.byId(7).published().qps() / s.byId(3).published().qps() - 1).isCloseTo(1.08, within(0.01));
    assertThat(s.study().headlines()).extracting(Scenarios.Headline::publishedChange).containsExactly(0.28, 1.08);
  }

  @Test
  void eachScenarioCarriesTheDriverAndServerSettingsOfItsRow() {
    assertThat(s.byId(1).jdbcProperties()).isEqualTo("useServerPrepStmts=false");
    assertThat(s.byId(2).jdbcProperties()).contains("useConfigs=maxPerformance").contains("useServerPrepStmts=false");
    assertThat(s.byId(3).jdbcProperties()).contains("useServerPrepStmts=true").doesNotContain("prepStmtCacheSqlLimit");
    assertThat(s.byId(4).tidbGlobals()).containsEntry("tidb_ignore_prepared_cache_close_stmt", "ON");
    assertThat(s.byId(5).jdbcProperties())
        .contains("cachePrepStmts=true", "prepStmtCacheSize=1000", "prepStmtCacheSqlLimit=20480");
    assertThat(s.byId(6).tidbGlobals()).containsEntry("tidb_rc_read_check_ts", "ON");
    assertThat(s.byId(6).cacheReferenceTables()).isFalse();
    assertThat(s.byId(7).cacheReferenceTables()).isTrue();
  }

  @Test
  void rejectsUnknownFieldsAndUnknownIds() {
    String bad = "{\"study\":{\"title\":\"t\",\"url\":\"u\",\"headlines\":[]},\"scenarios\":[{\"id\":1,\"name\":\"x\",\"change\":\"c\","
            + "\"jdbcProperties\":\"\",\"published\":{\"qps\":1,\"avgQueryMicros\":1},\"nmae\":\"x\"}]}";
    assertThatThrownBy(() -> Scenarios.parse(new ByteArrayInputStream(bad.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(UnrecognizedPropertyException.class)
        .hasMessageContaining("nmae");
    assertThatThrownBy(() -> s.byId(8)).hasMessageContaining("no scenario 8");
  }
}
