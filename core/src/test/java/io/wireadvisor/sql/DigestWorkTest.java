package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The digest's work is linear in the statement's tokens whatever their arrangement: the proxy
 * classifies on its event loop, so a statement that costs quadratic work stalls every connection
 * on that loop (a run of 30,000 unary signs cost about a second before the fix). Work is counted,
 * not timed.
 */
class DigestWorkTest {
  @Test
  void aLongRunOfUnarySignsCostsLinearWorkAndIsOneLiteral() {
    for (String sign : new String[] {"- ", "+ ", "-", "+-"}) {
      int k = 30_000;
      String sql = "SELECT " + sign.repeat(k) + "1";
      TokenList tokens = SqlLexer.lex(sql);
      long checks = DigestBuilder.signChecks(tokens);
      assertThat(checks).as("sign checks for %d tokens of '%s'", tokens.size(), sign)
          .isLessThanOrEqualTo(4L * tokens.size() + 16);
      assertThat(SqlClassifier.classify(sql).digestText()).isEqualTo(SqlClassifier.classify("SELECT 1").digestText());
    }
  }

  @Test
  void signRunsInsideListsAndAfterValuesStayLinear() {
    String list = "SELECT * FROM t WHERE a IN (" + "- ".repeat(20_000) + "1, 2) AND b = c " + "- ".repeat(20_000) + "d";
    TokenList tokens = SqlLexer.lex(list);
    assertThat(DigestBuilder.signChecks(tokens)).isLessThanOrEqualTo(4L * tokens.size() + 16);
  }
}
