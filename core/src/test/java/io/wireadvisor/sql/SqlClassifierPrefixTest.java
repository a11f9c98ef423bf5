package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Long statements are classified on their first {@link SqlClassifier#PREFIX_CHARS} chars. */
class SqlClassifierPrefixTest {
  private static String repeat(String head, String body, int length) {
    StringBuilder sb = new StringBuilder(head);
    while (sb.length() < length) {
      sb.append(body);
    }
    return sb.toString();
  }

  @Test
  void aHugeMultiRowInsertHasTheShapeOfAShortOne() {
    String huge = repeat("INSERT INTO t (a, b) VALUES (0, 'x')", ", (123, 'abc')", 3 * SqlClassifier.PREFIX_CHARS);
    Classification c = SqlClassifier.classify(huge);
    assertThat(c.digest()).isEqualTo(SqlClassifier.classify("INSERT INTO t (a, b) VALUES (1, 'y'), (2, 'z')").digest());
    assertThat(c.sqlLength()).isEqualTo(huge.length());
    assertThat(c.kind()).isEqualTo(StatementKind.INSERT);
    assertThat(c.tablesWritten()).containsExactly("t");
  }

  @Test
  void aHugeInListCollapsesAtTheCut() {
    String huge = repeat("SELECT v FROM t WHERE id IN (1", ", 123456", 2 * SqlClassifier.PREFIX_CHARS) + ")";
    Classification c = SqlClassifier.classify(huge);
    assertThat(c.digestText()).isEqualTo("select v from t where id in ( ... )");
    assertThat(c.tablesRead()).containsExactly("t");
  }

  @Test
  void anyOtherCutIsMarkedAndTheDigestTextIsCapped() {
    String huge = repeat("SELECT a0", ", column_with_a_long_name", 2 * SqlClassifier.PREFIX_CHARS) + " FROM t";
    Classification c = SqlClassifier.classify(huge);
    assertThat(c.digestText()).startsWith("select a0, column_with_a_long_name").endsWith(" ...");
    assertThat(c.digestText().length()).isLessThanOrEqualTo(SqlClassifier.MAX_DIGEST_TEXT);
    // Two statements with the same head are the same shape, whatever follows the cut.
    assertThat(SqlClassifier.classify(huge + " WHERE x = 1").digest()).isEqualTo(c.digest());
  }

  @Test
  void noClassificationReadsMoreThanThePrefix() {
    SqlClassifier.classify(repeat("SELECT 1 /*", " padding", 8 * SqlClassifier.PREFIX_CHARS) + " */");
    assertThat(SqlClassifier.mostCharsLexed()).isLessThanOrEqualTo(SqlClassifier.PREFIX_CHARS);
  }

  @Test
  void aStatementNamingThousandsOfTablesKeepsTheFirstOnes() {
    StringBuilder sb = new StringBuilder("SELECT 1 FROM t0");
    for (int i = 1; i < 1000; i++) {
      sb.append(", t").append(i);
    }
    assertThat(SqlClassifier.classify(sb.toString()).tablesRead()).hasSize(SqlClassifier.MAX_TABLES);
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    String s = "x".repeat(9) + "\uD83D\uDE00";
    assertThat(SqlClassifier.head(s, 10)).isEqualTo("x".repeat(9));
  }
}
