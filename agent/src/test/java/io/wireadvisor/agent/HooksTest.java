package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HooksTest {
  @Test
  void urlsLoseCredentialsAndQueryString() {
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://h:4000/db?user=u&password=secret"))
        .isEqualTo("jdbc:mysql://h:4000/db");
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://u:pw@h:4000/db")).isEqualTo("jdbc:mysql://h:4000/db");
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://h/db")).isEqualTo("jdbc:mysql://h/db");
    assertThat(Hooks.sanitizeUrl(null)).isNull();
    assertThat(Hooks.sanitizeUrl("jdbc:mysql://address=(host=db)(user=app)(password=s3cret)/bank"))
        .isEqualTo("jdbc:mysql://db/bank");
  }

  @Test
  void noSecretPropertyAndNoCustomConnectionAttributesAreRecorded() {
    for (String name : Hooks.PROPERTY_NAMES) {
      assertThat(io.wireadvisor.profile.Source.isSecret(name)).as(name).isFalse();
    }
    for (String secret : new String[] {"password", "PWD", "sslKeyPassword", "clientSecret", "authToken",
        "privateKey", "trustCertificateKeyStorePassword"}) {
      assertThat(io.wireadvisor.profile.Source.isSecret(secret)).as(secret).isTrue();
    }
    assertThat(Hooks.recordedValue("connectionAttributes", "apiToken:S3cret")).isEqualTo("(set)");
    assertThat(Hooks.recordedValue("connectionAttributes", "none")).isEqualTo("none");
    assertThat(Hooks.recordedValue("useConfigs", "maxPerformance")).isEqualTo("maxPerformance");
  }

  @Test
  void templatesMatchOnlyTheirOwnQueries() {
    byte[] sql = "\u0003SELECT v FROM t WHERE id = 42".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(Hooks.sameStaticPrefix("SELECT v FROM t WHERE id = ?", sql, 1, sql.length)).isTrue();
    assertThat(Hooks.sameStaticPrefix("SELECT w FROM t WHERE id = ?", sql, 1, sql.length)).isFalse();
    assertThat(Hooks.sameStaticPrefix("?", sql, 1, sql.length)).as("no static prefix to check").isFalse();
    byte[] limit = "\u0003SET SQL_SELECT_LIMIT=1".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(Hooks.sameStaticPrefix("SELECT v FROM t WHERE id = ?", limit, 1, limit.length)).isFalse();
    byte[] exact = "\u0003COMMIT".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(Hooks.sameStaticPrefix("COMMIT", exact, 1, exact.length)).isTrue();
    assertThat(Hooks.sameStaticPrefix("COMMIT AND CHAIN", exact, 1, exact.length)).isFalse();
    assertThat(Hooks.sameStaticPrefix("COMM", exact, 1, exact.length)).isFalse();
    byte[] umlaut = "\u0003SELECT 'ü' FROM t".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(Hooks.sameStaticPrefix("SELECT 'ü' FROM t", umlaut, 1, umlaut.length)).as("non-ASCII: decode instead").isFalse();
  }

  @Test
  void commandsAreIgnoredUntilTheDriverHooksMatched() {
    // Not activated in a unit test: nothing may be recorded, nothing may throw.
    Hooks.command(new Object(), new byte[] {3, 'S'}, 2, System.nanoTime(), null, false, false);
    Hooks.command(new Object(), null, 0, 0, null, true, false);
    assertThat(Hooks.window().recorder.snapshot().totalCommands()).isZero();
  }

  @Test
  void onlyTheVeryPacketAnInterceptorAnsweredIsTakenForAShortCircuit() {
    Object answer = new Object();
    Object sent = new Object();
    assertThat(Hooks.shortCircuited(sent, false)).as("no interceptor answer").isFalse();

    Hooks.interceptorsAnswered(answer, false);
    assertThat(Hooks.shortCircuited(answer, false)).isTrue();
    assertThat(Hooks.shortCircuited(answer, false)).as("consumed by its sendCommand").isFalse();

    Hooks.interceptorsAnswered(null, false); // the interceptors let the command through
    assertThat(Hooks.shortCircuited(sent, false)).isFalse();
    Hooks.interceptorsAnswered(null, false);
    assertThat(Hooks.shortCircuited(null, true)).as("sent, then failed").isFalse();

    Hooks.interceptorsAnswered(answer, false);
    assertThat(Hooks.shortCircuited(sent, false)).as("another response").isFalse();

    Hooks.interceptorsAnswered(null, true); // an interceptor threw: sendCommand threw unsent
    assertThat(Hooks.shortCircuited(null, true)).isTrue();
    Hooks.interceptorsAnswered(null, true);
    assertThat(Hooks.shortCircuited(null, false)).isFalse();
  }

  @Test
  void aCommandAnInterceptorRunsItselfConsumesOnlyItsOwnAnswer() {
    Object inner = new Object();
    Object outer = new Object();
    // outer sendCommand -> interceptor runs a command (answered locally) -> outer answered
    Hooks.interceptorsAnswered(inner, false);
    assertThat(Hooks.shortCircuited(inner, false)).isTrue();
    Hooks.interceptorsAnswered(outer, false);
    assertThat(Hooks.shortCircuited(outer, false)).isTrue();
    // the same nesting where the inner command was sent and the outer one answered
    Hooks.interceptorsAnswered(null, false);
    assertThat(Hooks.shortCircuited(inner, false)).isFalse();
    Hooks.interceptorsAnswered(outer, false);
    assertThat(Hooks.shortCircuited(outer, false)).isTrue();
  }
}
