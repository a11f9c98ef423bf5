package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import io.wireadvisor.sql.SqlClassifier;
import org.junit.jupiter.api.Test;

class SummaryMatchTest {
  @Test
  void tidbDigestTextsMatchTheProfilesShapesDespiteQuotingAndSpacing() {
    ServerView view = BankLikeProfiles.tidb(3).toBuilder()
        .statement(new StatementSummary("bank", "select `bank` . `t12` /* shape 0 */", 5000, 0, false, 1))
        .statement(new StatementSummary("bank", "update `bank` . `t00` /* shape 180 */", 5000, 10, false, 1))
        .statement(new StatementSummary("bank", "select `unrelated`", 99999, 99999, true, 1))
        .build();
    SummaryMatch m = SummaryMatch.of(BankLikeProfiles.scenario(3), view);
    assertThat(m.rows).isEqualTo(2);
    assertThat(m.executions).isEqualTo(10_000);
    assertThat(m.planCacheHits).isEqualTo(10);
    Recommendation close = new CloseStmtRule().evaluate(BankLikeProfiles.scenario(3), view);
    assertThat(close.evidence()).contains(
        "STATEMENTS_SUMMARY for 2 of the profile's statements: 10 plan-cache hits in 10,000 executions (0.1%).");
  }

  @Test
  void noRowsNoEvidence() {
    assertThat(SummaryMatch.of(BankLikeProfiles.scenario(3), BankLikeProfiles.tidb(3)).evidence()).isNull();
  }

  /**
   * TiDB's DIGEST_TEXT as STATEMENTS_SUMMARY showed it on TiDB v8.4 (bin/local-tidb) for these
   * statements, beside the SQL the application sent: the profile's shape of the SQL must match it.
   * Hibernate's {@code LIKE :name%} becomes {@code like replace(?,'\\','\\\\')}: TiDB collapses the
   * function's arguments, so before this the statement (spring-petclinic-rest's owner search, 150
   * executions, none from the plan cache) had no summary row in any report.
   */
  @Test
  void tidbCollapsesEveryRunOfValuesTheProfileKeeps() {
    String[][] sqlAndTidb = {
      {"select a from t where x like replace('a', 'b', 'c')",
       "select `a` from `t` where `x` like replace ( ... )"},
      {"select a from t limit 1, 2", "select `a` from `t` limit ..."},
      {"select concat(a, 'x', 'y') from t", "select `concat` ( `a` , ... ) from `t`"},
      {"select concat('q', a, 'r') from t", "select `concat` ( ? , `a` , ? ) from `t`"},
      {"select a from t where id in (1)", "select `a` from `t` where `id` in ( ? )"},
      {"select a from t where id in (1, null)", "select `a` from `t` where `id` in ( ... )"},
      {"insert into t values (1, 'a', 1, 1, 'x'), (2, 'b', 2, 2, 'y')", "insert into `t` values ( ... )"},
      {"insert into t (id, a) values (3, 1)", "insert into `t` ( `id` , `a` ) values ( ... )"},
      {"select 1, 2, a from t", "select ... , `a` from `t`"},
      {"select a, 5 , b from t", "select `a` , ? , `b` from `t`"},
      {"select a from t where (b, c) in ((1, 2), (3, 4))", "select `a` from `t` where ( `b` , `c` ) in ( ( ... ) )"},
      {"select a from t where b between 1 and 2", "select `a` from `t` where `b` between ? and ?"},
      {"select a from t where id = -1 or b in (-1, -2)", "select `a` from `t` where `id` = ? or `b` in ( ... )"},
    };
    for (String[] c : sqlAndTidb) {
      String shape = SqlClassifier.classify(c[0]).digestText();
      assertThat(SummaryMatch.normalize(shape)).as(c[0] + " -> " + shape).isEqualTo(SummaryMatch.normalize(c[1]));
    }
    // Different statements stay apart.
    assertThat(SummaryMatch.normalize("select `a` from `t` where `b` between ? and ?"))
        .isNotEqualTo(SummaryMatch.normalize("select `a` from `t` where `b` = ? and `c` = ?"));
    assertThat(SummaryMatch.normalize("select `a` , ? , `b` from `t`"))
        .isNotEqualTo(SummaryMatch.normalize("select ... , `a` from `t`"));
  }

  @Test
  void rowsOfRowsCollapseAndTheFormIsAFixpoint() {
    String rows = SummaryMatch.normalize(
        SqlClassifier.classify("insert into t values ((1, 2), (3, 4)), ((5, 6), (7, 8))").digestText());
    assertThat(rows).isEqualTo("insertintotvalues((...)),((...))");
    String[] texts = {rows, "select (?), (?), f((?, ?), ?)", "select `a` from `t` where `x` in ( ( ? ) , ( ? , ? ) )",
        "select ... , ? , ( ... ) , ( ? )"};
    for (String t : texts) {
      String once = SummaryMatch.normalize(t);
      assertThat(SummaryMatch.normalize(once)).as(t).isEqualTo(once);
    }
  }

  @Test
  void theOwnerSearchOfAHibernateApplicationFindsItsSummaryRow() {
    String sql = "select distinct o1_0.id,o1_0.last_name from owners o1_0 left join pets p1_0 on o1_0.id=p1_0.owner_id"
        + " where o1_0.last_name like replace(?,'\\\\','\\\\\\\\')";
    String tidb = "select distinct `o1_0` . `id` , `o1_0` . `last_name` from `owners` `o1_0` left join `pets` `p1_0`"
        + " on `o1_0` . `id` = `p1_0` . `owner_id` where `o1_0` . `last_name` like replace ( ... )";
    assertThat(SummaryMatch.normalize(SqlClassifier.classify(sql).digestText())).isEqualTo(SummaryMatch.normalize(tidb));
  }
}
