package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DigestNormalizationTest {

  private static String text(String sql) {
    return SqlClassifier.normalize(sql, Escaping.BACKSLASH); // MySQL's default mode
  }

  private static String digest(String sql) {
    return SqlClassifier.classify(sql, Escaping.BACKSLASH).digest();
  }

  @Test
  void documentedExampleHasTheDocumentedSpacing() {
    assertThat(text("SELECT a.id , b.name FROM accounts a JOIN branches b ON a.branch_id=b.id"
        + " WHERE a.id = 42 AND b.code IN ('x', 'y', 'z')"))
        .isEqualTo("select a.id, b.name from accounts a join branches b on a.branch_id = b.id"
            + " where a.id = ? and b.code in ( ... )");
  }

  @Test
  void digestIsFirstSixteenBytesOfSha256OfTheDigestText() throws Exception {
    Classification c = SqlClassifier.classify("SELECT * FROM t WHERE id = 7");
    byte[] sha = MessageDigest.getInstance("SHA-256")
        .digest(c.digestText().getBytes(StandardCharsets.UTF_8));

    assertThat(c.digest()).isEqualTo(HexFormat.of().formatHex(sha, 0, 16));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      WHERE s = 'it''s'                         | where s = ?
      WHERE s = 'a\\'b' AND t = "q""r"          | where s = ? and t = ?
      WHERE s = 'a\\'b' AND t = "q\\"r"         | where s = ? and t = ? ...
      WHERE s = _utf8mb4'x' AND t = N'y'        | where s = ? and t = ?
      WHERE s = _binary 'x'                     | where s = ?
      WHERE n = 1.5e-3 AND m = .5 AND k = 10    | where n = ? and m = ? and k = ?
      WHERE h = 0x1F AND x = X'1F' AND b = b'01' AND c = 0b01 | where h = ? and x = ? and b = ? and c = ?
      WHERE a = -1 AND b = +2 AND c IN (-3)     | where a = ? and b = ? and c in ( ... )
      WHERE a - 1 > b + 2                       | where a - ? > b + ?
      WHERE f(-1, (-2)) = x                     | where f (?, (?)) = x
      WHERE a IS NULL AND b = TRUE AND c = FALSE | where a is null and b = true and c = false
      WHERE a = ?                               | where a = ?
      LIMIT 10                                  | limit ?
      LIMIT 10, 20                              | limit ?, ?
      LIMIT 10 OFFSET 5                         | limit ? offset ?
      """)
  void literalsBecomePlaceholders(String tail, String expectedTail) {
    assertThat(text("SELECT * FROM t " + tail)).isEqualTo("select * from t " + expectedTail);
  }

  @Test
  void inListsCollapseToOneShape() {
    String one = digest("SELECT * FROM t WHERE id IN (1)");
    assertThat(digest("SELECT * FROM t WHERE id IN (1, 2, 3)")).isEqualTo(one);
    assertThat(digest("select * from t where id in (?,?,?,?,?,?)")).isEqualTo(one);
    assertThat(digest("SELECT * FROM t WHERE id IN ('a', NULL, -4)")).isEqualTo(one);
    assertThat(text("SELECT * FROM t WHERE id NOT IN (1, 2)"))
        .isEqualTo("select * from t where id not in ( ... )");
  }

  @Test
  void inListsWithExpressionsOrSubqueriesKeepTheirShape() {
    assertThat(text("SELECT * FROM t WHERE id IN (a, 2)"))
        .isEqualTo("select * from t where id in (a, ?)");
    assertThat(text("SELECT * FROM t WHERE id IN (SELECT id FROM u)"))
        .isEqualTo("select * from t where id in (select id from u)");
  }

  @Test
  void preparedSingleRowAndTextMultiRowInsertShareAShape() {
    String prepared = digest("INSERT INTO t (a, b) VALUES (?, ?)");
    assertThat(digest("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'), (3, NULL)"))
        .isEqualTo(prepared);
    assertThat(digest("insert into t (a,b) values(?,?),(?,?)")).isEqualTo(prepared);
    assertThat(text("INSERT INTO t (a, b) VALUES (1, 2)"))
        .isEqualTo("insert into t (a, b) values ( ... )");
  }

  @Test
  void valuesRowsWithFunctionsKeepTheirShape() {
    assertThat(text("INSERT INTO t (a, b) VALUES (1, NOW())"))
        .isEqualTo("insert into t (a, b) values (?, now ())");
    assertThat(text("INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(a)"))
        .isEqualTo("insert into t (a) values ( ... ) on duplicate key update a = values (a)");
  }

  @Test
  void commentsAreDroppedButHintsAreKept() {
    assertThat(text("SELECT /* why */ a -- trailing\nFROM t # mysql comment\nWHERE b = 1"))
        .isEqualTo("select a from t where b = ?");
    assertThat(text("SELECT /*+ USE_INDEX(t,  idx_a) MAX_EXECUTION_TIME(1000) */ a FROM t"))
        .isEqualTo("select /*+ use_index(t, idx_a) max_execution_time(1000) */ a from t");
  }

  @Test
  void versionCommentsAreCode() {
    assertThat(text("/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE */"))
        .isEqualTo("set @old_sql_mode = @@sql_mode");
    assertThat(text("SELECT /*!STRAIGHT_JOIN*/ a FROM t"))
        .isEqualTo("select straight_join a from t");
  }

  @Test
  void driverPrefixCommentIsNotPartOfTheShape() {
    String withPrefix = "/* mysql-connector-j-9.5.0 (Revision: abc) */SELECT @@session.auto_increment_increment"
        + " AS auto_increment_increment";
    assertThat(text(withPrefix)).isEqualTo(
        "select @@session.auto_increment_increment as auto_increment_increment");
    assertThat(digest("/* ping */ SELECT 1")).isEqualTo(digest("SELECT 1"));
  }

  @Test
  void backticksAreDroppedOnlyWhenTheNameDoesNotNeedThem() {
    assertThat(text("SELECT `Id`, `order`, `my col`, `2024` FROM `Bank`.`Accounts`"))
        .isEqualTo("select id, `order`, `my col`, `2024` from bank.accounts");
    assertThat(digest("SELECT `id` FROM `accounts`")).isEqualTo(digest("select ID from Accounts"));
  }

  @Test
  void caseSpacingAndQuotingDoNotChangeTheDigest() {
    String a = "SELECT a.id, b.name FROM accounts a JOIN branches b ON a.branch_id = b.id WHERE a.id = 1";
    String b = "select  A.ID ,B.NAME\n\tfrom `accounts` a join branches b on a.branch_id=b.id /* c */"
        + " where a.id=99999;";
    assertThat(digest(b)).isEqualTo(digest(a));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      SELECT a FROM t WHERE id = 1          | SELECT b FROM t WHERE id = 1
      SELECT a FROM t WHERE id = 1          | SELECT a FROM u WHERE id = 1
      SELECT a FROM t WHERE id = 1          | SELECT a FROM t WHERE id > 1
      SELECT a FROM t WHERE id = 1          | SELECT a FROM t WHERE id = 1 FOR UPDATE
      SELECT a FROM t WHERE id IN (1, 2)    | SELECT a FROM t WHERE id = 1
      SELECT a FROM t LIMIT 1               | SELECT a FROM t LIMIT 1, 2
      SELECT a - 1 FROM t                   | SELECT a FROM t
      SELECT a FROM t                       | SELECT /*+ USE_INDEX(t, i) */ a FROM t
      UPDATE t SET a = 1 WHERE id = 2       | UPDATE t SET b = 1 WHERE id = 2
      INSERT INTO t (a, b) VALUES (1, 2)    | INSERT INTO t (b, a) VALUES (1, 2)
      SELECT `a b` FROM t                   | SELECT a_b FROM t
      """)
  void structurallyDifferentStatementsHaveDifferentDigests(String a, String b) {
    assertThat(digest(a)).isNotEqualTo(digest(b));
  }

  @Test
  void whitespaceAndTrailingSemicolonsVanish() {
    assertThat(text("  \n\tCOMMIT ;; ")).isEqualTo("commit");
    assertThat(text("")).isEmpty();
  }

  @Test
  void identifiersKeepNonAsciiLettersLowercased() {
    assertThat(text("SELECT Größe FROM Tabelle WHERE Name = 'Ä'"))
        .isEqualTo("select größe from tabelle where name = ?");
  }
}
