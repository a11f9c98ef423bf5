package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** API contract; statement-by-statement expectations live in corpus.tsv. */
class SqlClassifierTest {

  @Test
  void tableListsAreUnmodifiable() {
    Classification c = SqlClassifier.classify(
        "INSERT INTO a (x) SELECT y FROM b JOIN c ON b.id = c.id");

    assertThat(c.tablesRead()).containsExactly("b", "c");
    assertThatThrownBy(() -> c.tablesRead().add("d"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> c.tablesWritten().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 2 FOR UPDATE",
    "select * from t where id = ? for update nowait",
    "SELECT * FROM t WHERE id = 1 FOR UPDATE OF t SKIP LOCKED",
    "SELECT * FROM t WHERE id = 1 FOR SHARE",
    "SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE",
    "(SELECT a FROM t WHERE id = 1 FOR UPDATE) UNION (SELECT a FROM u)",
    "/* app */ SELECT * FROM t WHERE id = 1\n  FOR\tUPDATE"
  })
  void lockingReadsAreMarked(String sql) {
    Classification c = SqlClassifier.classify(sql);
    assertThat(c.kind()).isEqualTo(StatementKind.SELECT);
    assertThat(c.lockingRead()).isTrue();
    assertThat(c.withoutText().lockingRead()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "SELECT * FROM t WHERE id = 1",
    "SELECT 'FOR UPDATE' FROM t",
    "SELECT `for`, `update` FROM t",
    "SELECT * FROM t WHERE note = 'x LOCK IN SHARE MODE'",
    "UPDATE t SET a = 1 WHERE id = 2",
    "INSERT INTO t SELECT * FROM u FOR UPDATE",
    "SELECT * FROM t LOCK"
  })
  void otherStatementsAreNotLockingReads(String sql) {
    assertThat(SqlClassifier.classify(sql).lockingRead()).isFalse();
  }

  @Test
  void tablesAreLowercaseSortedAndUnique() {
    Classification c = SqlClassifier.classify(
        "SELECT * FROM Zeta z JOIN alpha a ON a.id = z.id JOIN ZETA z2 ON z2.id = a.id");

    assertThat(c.tablesRead()).containsExactly("alpha", "zeta");
  }

  @Test
  void nullIsEmpty() {
    Classification c = SqlClassifier.classify(null);

    assertThat(c.kind()).isEqualTo(StatementKind.EMPTY);
    assertThat(c.sqlLength()).isZero();
    assertThat(c.digestText()).isEmpty();
    assertThat(SqlClassifier.normalize(null)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"SELECT 'unterminated", "SELECT /* unterminated", "SELECT `x",
      "((((((((((((((((((((", "))))) SELECT", "SELECT @", "SELECT @@", "-- ", "/*!", "*/",
      "WITH", "WITH x AS", "WITH x AS (", "DELETE FROM", "DELETE a FROM", "UPDATE", "UPDATE t SET",
      "INSERT INTO", "SET", "SET @@", "SHOW", "CREATE TABLE", "DROP INDEX i ON", "0x", "X'",
      "_utf8mb4", "SELECT - - -", "SELECT 1 IN (", "VALUES (", "\u0000\uffff\ud800"})
  void truncatedOrOddTextIsClassifiedWithoutThrowing(String sql) {
    Classification c = SqlClassifier.classify(sql);

    assertThat(c.digest()).matches("[0-9a-f]{32}");
    assertThat(c.kind()).isNotNull();
  }

  @Test
  void identicalShapesAcrossCaseSpacingCommentsAndQuotingShareEverything() {
    Classification a = SqlClassifier.classify("SELECT c FROM sbtest1 WHERE id = 1");
    Classification b = SqlClassifier.classify(
        "/* app=bank */ select  C\nfrom `sbtest1` where ID=  42 -- hot");

    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(b.kind()).isEqualTo(a.kind());
    assertThat(b.tablesRead()).isEqualTo(a.tablesRead());
  }

  @Test
  void sqlLengthIsTheOriginalLength() {
    String sql = "  SELECT 1  ";
    assertThat(SqlClassifier.classify(sql).sqlLength()).isEqualTo(sql.length());
  }

  @Test
  void keywordOrdinalsFitTheBitsTokenListPacksThemInto() {
    assertThat(Keyword.values().length).isLessThan(0xFF);
  }
}
