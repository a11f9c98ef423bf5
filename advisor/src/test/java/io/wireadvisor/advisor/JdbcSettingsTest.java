package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JdbcSettingsTest {
  static TrafficProfile with(String driver, Map<String, String>... sources) {
    TrafficProfile p = new TrafficProfile();
    int i = 0;
    for (Map<String, String> props : sources) {
      p.addSource(new Source(Source.AGENT, null, "host:" + i++, null, driver, null, null, null, props, 0, 1));
    }
    return p;
  }

  static Map<String, String> props(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void maxPerformanceBundleAppliesUnlessOverridden() {
    JdbcSettings s = JdbcSettings.of(with("9.5.0", props("useConfigs", "maxPerformance")));
    assertThat(s.isTrue("cachePrepStmts")).isTrue();
    assertThat(s.isTrue("useLocalSessionState")).isTrue();
    assertThat(s.isTrue("useServerPrepStmts")).isFalse();
    assertThat(s.minLong("prepStmtCacheSize", 25)).isEqualTo(25);
    assertThat(s.minLong("prepStmtCacheSqlLimit", 256)).isEqualTo(256);
    JdbcSettings overridden = JdbcSettings.of(with("9.5.0",
        props("useConfigs", "maxPerformance", "cachePrepStmts", "false", "PREPSTMTCACHESIZE", "500")));
    assertThat(overridden.isTrue("cachePrepStmts")).isFalse();
    assertThat(overridden.minLong("prepStmtCacheSize", 25)).isEqualTo(500);
  }

  @Test
  void aSettingIsInEffectOnlyWhenEverySourceHasIt() {
    JdbcSettings s = JdbcSettings.of(with("9.5.0",
        props("useServerPrepStmts", "true", "prepStmtCacheSize", "500"),
        props("useServerPrepStmts", "false", "prepStmtCacheSize", "100")));
    assertThat(s.isTrue("useServerPrepStmts")).isFalse();
    assertThat(s.minLong("prepStmtCacheSize", 25)).isEqualTo(100);
  }

  @Test
  void withoutPropertiesNothingIsKnown() {
    JdbcSettings s = JdbcSettings.of(with(null, props()));
    assertThat(s.known()).isFalse();
    assertThat(s.isTrue("useServerPrepStmts")).isFalse();
    assertThat(s.minLong("prepStmtCacheSize", 25)).isEqualTo(25);
    assertThat(s.parsedDriverVersion()).isNull();
    assertThat(JdbcSettings.of(with("mysql-connector-j-8.0.28 (Revision: x)", props("a", "b")))
        .parsedDriverVersion().toString()).isEqualTo("8.0.28");
  }
}
