package io.wireadvisor.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.BankLikeFixtures;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.profile.ProfileFormatException;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * No credential-looking property of a profile's sources reaches any report format, even one a
 * collector recorded before the writer learnt to drop it; a file that holds one is refused.
 */
class ReportSecretsTest {
  static final String[] SECRET_VALUES = {"pwd-value-1", "token-value-2", "key-value-3",
      "key-value-4", "secret-url-5", "param-value-6"};

  static TrafficProfile withSecrets() throws Exception {
    TrafficProfile base = BankLikeFixtures.scenario(1);
    Map<String, String> props = new TreeMap<>();
    props.put("useServerPrepStmts", "false");
    props.put("dbPwd", SECRET_VALUES[0]);
    props.put("oauthAccessToken", SECRET_VALUES[1]);
    props.put("sslKey", SECRET_VALUES[2]);
    props.put("clientCertificateKeyStoreUrl", SECRET_VALUES[3]);
    Source s = new Source(Source.AGENT, "0.1.0", "host:1 jdbc:mysql://u:" + SECRET_VALUES[4]
        + "@h/db?password=" + SECRET_VALUES[5], "MySQL Connector/J", "9.5.0", null, null, null,
        props, 0, 60_000);
    TrafficProfile p = new TrafficProfile();
    p.addSource(s);
    p.addAll(base);
    return p;
  }

  @Test
  void aProfileFileHoldingASecretLookingPropertyIsRefusedNamingIt() throws Exception {
    // The writer drops such properties (Source.isSecret); an older or hand-made file may carry them.
    TrafficProfile p = withSecrets();
    String written = ProfileJson.toJson(p);
    assertThat(written).doesNotContain(SECRET_VALUES[0]).doesNotContain("dbPwd");
    String json = written.replaceFirst("\"useServerPrepStmts\"\\s*:\\s*\"false\"",
        "\"useServerPrepStmts\" : \"false\", \"dbPwd\" : \"" + SECRET_VALUES[0] + "\"");
    assertThat(json).contains(SECRET_VALUES[0]);
    assertThatThrownBy(() -> ProfileJson.fromJson(json))
        .isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("sources[0].properties.dbPwd")
        .hasMessageNotContaining(SECRET_VALUES[0]);
  }

  @Test
  void noSecretLookingPropertyReachesAnyReport() throws Exception {
    TrafficProfile p = withSecrets();
    Analysis a = Advisor.analyze(p, BankLikeFixtures.tidb(1));
    Comparison c = Comparison.of(p, p, BankLikeFixtures.tidb(1));
    List<String> reports = Arrays.asList(Reports.text(a), Reports.markdown(a), Reports.json(a),
        Reports.html(a), Reports.text(c), Reports.html(c), AnalysisJson.toJson(c));
    // The sources (with their harmless properties) are listed in text and JSON.
    assertThat(Reports.text(a)).contains("useServerPrepStmts=false", "password=****");
    assertThat(Reports.json(a)).contains("useServerPrepStmts=false");
    for (String r : reports) {
      for (String secret : SECRET_VALUES) {
        assertThat(r).doesNotContain(secret);
      }
      assertThat(r).doesNotContainIgnoringCase("dbPwd").doesNotContain("oauthAccessToken")
          .doesNotContain("sslKey");
    }
  }
}
