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

  private static byte[] query(String sql) {
    byte[] b = sql.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] p = new byte[b.length + 1];
    p[0] = 3;
    System.arraycopy(b, 0, p, 1, b.length);
    return p;
  }

  /** An OK packet: no rows affected, no insert id, these status flags, no warnings. */
  private static byte[] ok(int status) {
    return new byte[] {0, 0, 0, (byte) status, (byte) (status >>> 8), 0, 0};
  }

  private static java.util.List<String> digestTexts() {
    java.util.List<String> texts = new java.util.ArrayList<>();
    for (io.wireadvisor.profile.ShapeStats s : Hooks.window().recorder.snapshot().shapes().values()) {
      texts.add(s.digestText());
    }
    return texts;
  }

  @Test
  void theAgentReadsTextsInTheEscapingModeTheConnectionsRepliesAnnounce() {
    // Issue 28 point 2: after SET sql_mode='NO_BACKSLASH_ESCAPES', 'x\' ends the string.
    String issue = "ALTER USER a IDENTIFIED BY 'x\\', b IDENTIFIED BY 'Secret'";
    Hooks.activate();
    try {
      Hooks.reset();
      Object fresh = new Object();
      Hooks.command(fresh, query(issue), query(issue).length, System.nanoTime(), null, true, false);
      assertThat(digestTexts()).as("mode not known yet: read to the ambiguous string only")
          .contains("alter user a identified by ? ...").noneMatch(t -> t.contains("secret"));

      Hooks.reset();
      Object conn = new Object();
      byte[] set = query("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'");
      Hooks.command(conn, set, set.length, System.nanoTime(), ok(0x0202), false, false);
      Hooks.command(conn, query(issue), query(issue).length, System.nanoTime(), null, true, false);
      assertThat(digestTexts()).contains("alter user a identified by ?, b identified by ?")
          .noneMatch(t -> t.contains("secret"));

      // The reply to the next statement says the mode is off again: backslashes escape.
      byte[] select = query("SELECT 1");
      Hooks.command(conn, select, select.length, System.nanoTime(), ok(0x0002), false, false);
      byte[] escaped = query("SELECT 'it\\'s', n FROM t");
      Hooks.command(conn, escaped, escaped.length, System.nanoTime(), null, false, false);
      assertThat(digestTexts()).contains("select ?, n from t");
    } finally {
      Hooks.deactivate();
      Hooks.reset();
    }
  }

  @Test
  void anOkAfterAResultSetEndsItsMultiStatementReplyAndNoOtherOkIsLookedUp() {
    Hooks.activate();
    try {
      Hooks.reset();
      int before = Hooks.resultsFollowing(); // the JVM is shared: relative to what others left
      Object conn = new Object();
      byte[] multi = query("SELECT v FROM t WHERE id = 1; UPDATE t SET v = 2 WHERE id = 1");
      byte[] columns = {1}; // a result set's first packet: its column count
      Hooks.command(conn, multi, multi.length, System.nanoTime(), columns, false, false);
      Hooks.resultSet(conn, 1, 0x0002 | 0x0008); // the SELECT's row; more results follow
      assertThat(Hooks.resultsFollowing()).isEqualTo(before + 1);
      assertThat(outsideTransaction()).as("judged at the reply's last result").isZero();
      Hooks.followingResult(conn, 0x0002); // the UPDATE's OK ends the reply, under autocommit
      assertThat(outsideTransaction()).isEqualTo(1);
      assertThat(Hooks.resultsFollowing()).isEqualTo(before);

      // A DML statement's OK, its reply's first packet, was judged at its command: the following
      // result call that every OK result gets changes nothing (and finds nobody waiting).
      byte[] update = query("UPDATE t SET v = 3 WHERE id = 2");
      Hooks.command(conn, update, update.length, System.nanoTime(), ok(0x0002), false, false);
      Hooks.followingResult(conn, 0x0002);
      assertThat(outsideTransaction()).isEqualTo(2);

      // A reply that ends early (an ERR after the first result): the next command ends the wait.
      Hooks.command(conn, multi, multi.length, System.nanoTime(), columns, false, false);
      Hooks.resultSet(conn, 1, 0x0002 | 0x0008);
      assertThat(Hooks.resultsFollowing()).isEqualTo(before + 1);
      Hooks.command(conn, update, update.length, System.nanoTime(), ok(0x0002), false, false);
      assertThat(Hooks.resultsFollowing()).isEqualTo(before);
      // So does COM_QUIT.
      Hooks.command(conn, multi, multi.length, System.nanoTime(), columns, false, false);
      Hooks.resultSet(conn, 1, 0x0002 | 0x0008);
      Hooks.quit(conn, System.nanoTime());
      assertThat(Hooks.resultsFollowing()).isEqualTo(before);
    } finally {
      Hooks.deactivate();
      Hooks.reset();
    }
  }

  private static long outsideTransaction() {
    long n = 0;
    for (io.wireadvisor.profile.ShapeStats s : Hooks.window().recorder.snapshot().shapes().values()) {
      n += s.count(io.wireadvisor.profile.Via.OUTSIDE_TRANSACTION);
    }
    return n;
  }
}
