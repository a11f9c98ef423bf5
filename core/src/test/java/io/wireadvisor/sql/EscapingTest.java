package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Via;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.wire.Replies;
import org.junit.jupiter.api.Test;

/** Issue 28 point 2: the lexer reads strings as the connection's server does. */
class EscapingTest {
  private static final String ISSUE =
      "ALTER USER a IDENTIFIED BY 'x\\', b IDENTIFIED BY 'Secret'";

  @Test
  void underNoBackslashEscapesAStringEndingInABackslashEndsThere() {
    Classification c = SqlClassifier.classify(ISSUE, Escaping.NO_BACKSLASH);
    assertThat(c.digestText()).isEqualTo("alter user a identified by ?, b identified by ?");
    assertThat(c.dependsOnEscaping()).isTrue();
    assertThat(c.cutAtUnknownEscaping()).isFalse();
  }

  @Test
  void whenTheModeIsNotKnownNothingAfterAnAmbiguousStringIsRead() {
    Classification c = SqlClassifier.classify(ISSUE);
    assertThat(c.digestText()).isEqualTo("alter user a identified by ? ...").doesNotContain("secret");
    assertThat(c.cutAtUnknownEscaping()).isTrue();
    // A string whose end is the same in both modes is no reason to stop.
    assertThat(SqlClassifier.classify("SELECT 'a\\\\' , b FROM t WHERE c = 'd''e'").digestText())
        .isEqualTo("select ?, b from t where c = ?");
  }

  @Test
  void inTheDefaultModeBackslashesEscapeSingleQuotesButADoubleQuotedStringMayBeAnAnsiIdentifier() {
    assertThat(SqlClassifier.classify("SELECT * FROM t WHERE s = 'it\\'s' AND n = 1", Escaping.BACKSLASH)
        .digestText()).isEqualTo("select * from t where s = ? and n = ?");
    // With ANSI_QUOTES (no status flag tells) "a\" is an identifier and 'se"cret' a string.
    Classification ansi = SqlClassifier.classify("SELECT \"a\\\" , 'se\"cret'", Escaping.BACKSLASH);
    assertThat(ansi.digestText()).doesNotContain("cret").endsWith(" ...");
  }

  @Test
  void quotedUserVariableNamesAndIntroducersFollowTheModeToo() {
    String sql = "SELECT @'v\\', _utf8mb4'w\\', 'Secret'";
    assertThat(SqlClassifier.classify(sql).digestText()).doesNotContain("secret");
    assertThat(SqlClassifier.classify(sql, Escaping.NO_BACKSLASH).digestText())
        .isEqualTo("select @'v\\', ?, ?");
  }

  @Test
  void setSqlModeChangesTheModeUntilTheNextReply() {
    assertThat(SqlClassifier.classify("SET SESSION sql_mode = 'ANSI,NO_BACKSLASH_ESCAPES'").setsEscaping())
        .isEqualTo(Escaping.NO_BACKSLASH);
    assertThat(SqlClassifier.classify("set @@sql_mode := ''").setsEscaping()).isEqualTo(Escaping.BACKSLASH);
    assertThat(SqlClassifier.classify("SET sql_mode = TRADITIONAL, autocommit = 1").setsEscaping())
        .isEqualTo(Escaping.BACKSLASH);
    assertThat(SqlClassifier.classify("SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')")
        .setsEscaping()).isEqualTo(Escaping.UNKNOWN);
    assertThat(SqlClassifier.classify("SET sql_mode = DEFAULT").setsEscaping()).isEqualTo(Escaping.UNKNOWN);
    assertThat(SqlClassifier.classify("SET GLOBAL sql_mode = 'NO_BACKSLASH_ESCAPES'").setsEscaping()).isNull();
    assertThat(SqlClassifier.classify("SET autocommit = 0").setsEscaping()).isNull();
    assertThat(SqlClassifier.classify("SELECT 'sql_mode'").setsEscaping()).isNull();
  }

  @Test
  void aMultiStatementThatChangesTheModeIsReadSafelyAfterTheChange() {
    // The server reads the SELECT in the new mode: 'x\' ends there, so 'Secret' is a literal.
    String sql = "SET sql_mode = 'NO_BACKSLASH_ESCAPES'; SELECT 'x\\', 'Secret'";
    Classification c = SqlClassifier.classify(sql, Escaping.BACKSLASH);
    assertThat(c.digestText()).doesNotContain("secret");
    assertThat(c.setsEscaping()).isEqualTo(Escaping.UNKNOWN);
  }

  @Test
  void aSessionLearnsTheModeFromStatusFlagsAndFromSetSqlMode() {
    WireSession s = new WireSession(new ProfileRecorder(RecorderSettings.defaults()), new WireSession.Budget(), null);
    assertThat(s.escaping()).isEqualTo(Escaping.UNKNOWN);
    s.serverStatus(Replies.SERVER_STATUS_AUTOCOMMIT);
    assertThat(s.escaping()).isEqualTo(Escaping.BACKSLASH);
    s.sent(SqlClassifier.classify("SET sql_mode='NO_BACKSLASH_ESCAPES'"));
    assertThat(s.escaping()).isEqualTo(Escaping.NO_BACKSLASH);
    s.serverStatus(-1); // flags not at hand: no news
    assertThat(s.escaping()).isEqualTo(Escaping.NO_BACKSLASH);
    s.serverStatus(Replies.SERVER_MORE_RESULTS_EXISTS); // more statements still to run
    assertThat(s.escaping()).isEqualTo(Escaping.NO_BACKSLASH);
    s.sent(SqlClassifier.classify("SELECT 1"));
    assertThat(s.escaping()).isEqualTo(Escaping.NO_BACKSLASH);
    s.serverStatus(Replies.SERVER_STATUS_AUTOCOMMIT);
    assertThat(s.escaping()).as("the reply says otherwise").isEqualTo(Escaping.BACKSLASH);
    s.serverStatus(Escaping.SERVER_STATUS_NO_BACKSLASH_ESCAPES | Replies.SERVER_STATUS_AUTOCOMMIT);
    assertThat(s.escaping()).isEqualTo(Escaping.NO_BACKSLASH);
    s.escapingReset();
    assertThat(s.escaping()).isEqualTo(Escaping.UNKNOWN);
  }

  @Test
  void aRecorderNeverLetsOneModesReadingOfATextAnswerForAnother() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    // Read differently: in the default mode 'a\', ' is one string, without escapes 'a\' is.
    String sql = "SELECT 'a\\', 'c' FROM t";
    ProfileRecorder.ShapeHandle backslash = r.shape(sql, Escaping.BACKSLASH);
    ProfileRecorder.ShapeHandle none = r.shape(sql, Escaping.NO_BACKSLASH);
    backslash.record(Via.TEXT_EXECUTES);
    none.record(Via.TEXT_EXECUTES);
    assertThat(backslash.classification().digestText()).isEqualTo("select ? c ?");
    assertThat(none.classification().digestText()).isEqualTo("select ?, ? from t");
    assertThat(r.shape(sql, Escaping.BACKSLASH).digest()).isEqualTo(backslash.digest());
  }

  @Test
  void aTextTheClassifierFailsOnKeepsOnlyItsFirstWord() throws Exception {
    java.lang.reflect.Method m = SqlClassifier.class.getDeclaredMethod("fallbackText", String.class);
    m.setAccessible(true);
    assertThat(m.invoke(null, "  SELECT 'Secret' FROM t")).isEqualTo("select ...");
  }
}
