package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.Reports;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's copy-ready URL keeps the application's own driver settings. */
class JdbcUrlSettingsTest {
  /** What the agent recorded for BenchBase's URL (rewriteBatchedStatements, sslMode, ...; Connector/J 9.5.0). */
  static Map<String, String> benchbase() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("allowMultiQueries", "false");
    p.put("alwaysSendSetIsolation", "false");
    p.put("cachePrepStmts", "false");
    p.put("cacheServerConfiguration", "true");
    p.put("characterEncoding", "UTF-8");
    p.put("defaultFetchSize", "0");
    p.put("elideSetAutoCommits", "true");
    p.put("enableQueryTimeouts", "true");
    p.put("prepStmtCacheSize", "25");
    p.put("readOnlyPropagatesToServer", "true");
    p.put("rewriteBatchedStatements", "true");
    p.put("sslMode", "DISABLED");
    p.put("useLocalSessionState", "true");
    p.put("useServerPrepStmts", "false");
    p.put("zeroDateTimeBehavior", "EXCEPTION");
    p.put("connectionAttributes", "(set)");
    p.put("connectionTimeZone", "Europe/Berlin");
    return p;
  }

  @Test
  void theUrlCarriesTheSettingsThatDifferFromTheDriversDefaultsAndNothingElse() {
    assertThat(JdbcUrlSettings.withSettings("jdbc:mysql://127.0.0.1:4230/benchbase", benchbase()))
        .isEqualTo("jdbc:mysql://127.0.0.1:4230/benchbase?useLocalSessionState=true&rewriteBatchedStatements=true"
            + "&elideSetAutoCommits=true&alwaysSendSetIsolation=false&cacheServerConfiguration=true&sslMode=DISABLED");
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put("useServerPrepStmts", "false");
    defaults.put("sslMode", "PREFERRED");
    assertThat(JdbcUrlSettings.withSettings("jdbc:mysql://db/app", defaults)).isEqualTo("jdbc:mysql://db/app");
  }

  @Test
  void aValueOutsideTheSafeCharactersIsNeverWritten() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("sslMode", "DISABLED&password=S3cret");
    p.put("zeroDateTimeBehavior", "CONVERT TO NULL");
    p.put("rewriteBatchedStatements", "true");
    assertThat(JdbcUrlSettings.withSettings("jdbc:mysql://db/app", p))
        .isEqualTo("jdbc:mysql://db/app?rewriteBatchedStatements=true");
  }

  @Test
  void underMaxPerformanceItsOwnValuesAreLeftToIt() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("useConfigs", "maxPerformance");
    p.put("cachePrepStmts", "true");
    p.put("useLocalSessionState", "true");
    p.put("alwaysSendSetIsolation", "false");
    p.put("rewriteBatchedStatements", "true");
    assertThat(JdbcUrlSettings.withSettings("jdbc:mysql://db/app", p))
        .isEqualTo("jdbc:mysql://db/app?useConfigs=maxPerformance&rewriteBatchedStatements=true");
  }

  @Test
  void mergingReplacesAKeyWhereItStandsAndAddsTheRest() {
    Map<String, String> change = new LinkedHashMap<>();
    change.put("useServerPrepStmts", "true");
    change.put("cachePrepStmts", "true");
    change.put("uselocalsessionstate", "true");
    assertThat(JdbcUrlSettings.merge("jdbc:mysql://db/app?useServerPrepStmts=false&rewriteBatchedStatements=true", change))
        .isEqualTo("jdbc:mysql://db/app?useServerPrepStmts=true&rewriteBatchedStatements=true&cachePrepStmts=true"
            + "&uselocalsessionstate=true");
    assertThat(JdbcUrlSettings.merge("jdbc:mysql://db/app", change))
        .isEqualTo("jdbc:mysql://db/app?useServerPrepStmts=true&cachePrepStmts=true&uselocalsessionstate=true");
  }

  @Test
  void theReportsAllChangesUrlKeepsTheApplicationsSettings() {
    Map<String, String> props = new LinkedHashMap<>(BankLikeProfiles.properties(1));
    props.put("rewriteBatchedStatements", "true");
    props.put("sslMode", "DISABLED");
    TrafficProfile p = BankLikeProfiles.profile(props, false, 256, 25, true);
    String text = Reports.text(Advisor.analyze(p, BankLikeFixtures.tidb(1)));
    String url = null;
    for (String line : text.split("\n")) {
      if (line.trim().startsWith("jdbc:mysql://tidb:4000/bank?")) {
        url = line.trim();
      }
    }
    assertThat(url).as(text).isNotNull().contains("rewriteBatchedStatements=true", "sslMode=DISABLED",
        "useServerPrepStmts=true", "cachePrepStmts=true");
    assertThat(text).contains("the agent records no other parameter");
  }
}
