package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.sql.Parameterizer.Literal;
import io.wireadvisor.sql.Parameterizer.Parameterized;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ParameterizerTest {
  private static String values(Parameterized p) {
    return p.values().stream().map(Literal::toString).collect(Collectors.joining(", "));
  }

  @Test
  void literalsOfDmlBecomeParameters() {
    Parameterized p = Parameterizer.parameterize(
        "SELECT owner FROM acct WHERE id = 42 AND name = 'O''Brien' AND bal > -1.5e3 LIMIT 10");
    assertThat(p.template()).isEqualTo("SELECT owner FROM acct WHERE id = ? AND name = ? AND bal > -? LIMIT ?");
    assertThat(values(p)).isEqualTo("42, 'O'Brien', 1.5e3, 10");
    assertThat(p.values().get(0).isNumber()).isTrue();
    assertThat(p.values().get(1).isNumber()).isFalse();

    Parameterized insert = Parameterizer.parameterize(
        "INSERT INTO t (a, b) VALUES (1, 'x\\ny\\'z'), (2, \"q\")", Escaping.BACKSLASH);
    assertThat(insert.template()).isEqualTo("INSERT INTO t (a, b) VALUES (?, ?), (?, ?)");
    assertThat(insert.values()).extracting(Literal::value).containsExactly("1", "x\ny'z", "2", "q");
  }

  @Test
  void placesThatTakeNoParameterStayVerbatim() {
    Parameterized order = Parameterizer.parameterize(
        "SELECT a, b FROM t WHERE c = 3 GROUP BY 1, 2 ORDER BY 2 DESC LIMIT 5");
    assertThat(order.template()).isEqualTo("SELECT a, b FROM t WHERE c = ? GROUP BY 1, 2 ORDER BY 2 DESC LIMIT ?");
    assertThat(values(order)).isEqualTo("3, 5");

    Parameterized typed = Parameterizer.parameterize(
        "SELECT * FROM t WHERE d > DATE '2024-01-01' AND h = X'0A' AND n = N'x' AND u = _utf8mb4'y' AND v = 0xFF AND s = 's'");
    assertThat(typed.template()).isEqualTo(
        "SELECT * FROM t WHERE d > DATE '2024-01-01' AND h = X'0A' AND n = N'x' AND u = _utf8mb4'y' AND v = 0xFF AND s = ?");

    for (String notDml : new String[] {
      "CREATE TABLE t (a DECIMAL(12,2) DEFAULT 0)", "SET autocommit=0", "SET SESSION sql_mode='STRICT_ALL_TABLES'",
      "SELECT * FROM t WHERE id = ?", "COMMIT"}) {
      Parameterized p = Parameterizer.parameterize(notDml);
      assertThat(p.template()).as(notDml).isEqualTo(notDml);
      assertThat(p.values()).as(notDml).isEmpty();
    }
  }

  @Test
  void positionsEndWithTheirClauseAndSubqueries() {
    Parameterized p = Parameterizer.parameterize(
        "SELECT * FROM (SELECT a FROM t ORDER BY 1) x WHERE x.a IN (SELECT 7) ORDER BY 1 LIMIT 3");
    assertThat(p.template()).isEqualTo(
        "SELECT * FROM (SELECT a FROM t ORDER BY 1) x WHERE x.a IN (SELECT ?) ORDER BY 1 LIMIT ?");
  }

  @Test
  void commentsAndLiteralLookalikesAreLeftAlone() {
    Parameterized p = Parameterizer.parameterize(
        "/* id = 5 */ SELECT `col1`, t2.c3 FROM t2 WHERE note = '-- not a comment' # 9");
    assertThat(p.template()).isEqualTo(
        "/* id = 5 */ SELECT `col1`, t2.c3 FROM t2 WHERE note = ? # 9");
    assertThat(values(p)).isEqualTo("'-- not a comment'");
  }
}
