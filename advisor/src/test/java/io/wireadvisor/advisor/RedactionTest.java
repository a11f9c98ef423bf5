package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {
  @Test
  void secretNamesAreRecognisedWhateverTheirCase() {
    for (String n : new String[] {"password", "PASSWORD", "dbPwd", "clientSecret", "authToken",
        "sslKey", "trustCertificateKeyStorePassword", "apiKEY"}) {
      assertThat(Redaction.isSecretName(n)).as(n).isTrue();
    }
    for (String n : new String[] {"useServerPrepStmts", "cachePrepStmts", "user", "prepStmtCacheSize"}) {
      assertThat(Redaction.isSecretName(n)).as(n).isFalse();
    }
  }

  @Test
  void withoutSecretsKeepsTheRest() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("useServerPrepStmts", "true");
    m.put("xdevapiToken", "t");
    m.put("password", "p");
    assertThat(Redaction.withoutSecrets(m)).containsOnlyKeys("useServerPrepStmts");
  }

  @Test
  void urlsAndKnownValuesAreMasked() {
    assertThat(Redaction.text("No suitable driver found for jdbc:mysql://u:pw@host:4000/db?password=x&useSSL=true", null))
        .isEqualTo("No suitable driver found for jdbc:mysql://u:****@host:4000/db?password=****&useSSL=true");
    assertThat(Redaction.text("jdbc:mysql://u:p@ss:w@rd@host/db", null)).isEqualTo("jdbc:mysql://u:****@host/db");
    assertThat(Redaction.text("jdbc:mysql://address=(host=h)(user=u)(password=p1)/db", null))
        .isEqualTo("jdbc:mysql://address=(host=h)(user=u)(password=****)/db");
    assertThat(Redaction.text("Access denied for user 'app' using s3cr3t!", Arrays.asList("s3cr3t!", "", null)))
        .isEqualTo("Access denied for user 'app' using ****");
    assertThat(Redaction.text("jdbc:mysql://host/db?user=u", Collections.<String>emptyList()))
        .isEqualTo("jdbc:mysql://host/db?user=u");
  }

  @Test
  void userInfoHoldingSlashesOrQuestionMarksAndParametersHoldingSeparatorsAreMaskedWhole() {
    // Found in review: the user-info pattern stopped at '/', '?' and '#', the parameter at ';'.
    for (String url : new String[] {
        "jdbc:mysql://u:p/S3cret@db:4000/bank", "jdbc:mysql://u:p?S3cret@db/bank",
        "jdbc:mysql://u:p#S3cret@db/bank", "jdbc:mysql://u:S3cret@x@db/bank",
        "jdbc:mysql://db/bank?password=ab;S3cret", "jdbc:mysql://db/bank?user=u&password=ab,S3cret&x=1"}) {
      assertThat(Redaction.text("cannot inspect " + url + " - refused", java.util.List.of()))
          .as(url).doesNotContain("S3cret").contains("cannot inspect", "- refused");
    }
  }
}
