package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.sql.TransactionSet.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransactionSetTest {
  private static TransactionSet of(String sql) {
    return SqlClassifier.classify(sql).transactionSet();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED|READ-COMMITTED|SESSION",
        "set local transaction isolation level serializable|SERIALIZABLE|SESSION",
        "SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED|READ-UNCOMMITTED|NEXT_TRANSACTION",
        "SET TRANSACTION READ ONLY, ISOLATION LEVEL REPEATABLE READ|REPEATABLE-READ|NEXT_TRANSACTION",
        "SET @@session.transaction_isolation = 'READ-COMMITTED'|READ-COMMITTED|SESSION",
        "SET @@LOCAL.tx_isolation='serializable'|SERIALIZABLE|SESSION",
        "SET SESSION tx_isolation = 'READ-UNCOMMITTED'|READ-UNCOMMITTED|SESSION",
        "SET transaction_isolation = 1|READ-COMMITTED|SESSION",
        "SET @@transaction_isolation = 'READ-COMMITTED'|READ-COMMITTED|UNSCOPED_VARIABLE",
        "SET transaction_isolation = DEFAULT|DEFAULT|SESSION",
        "SET transaction_isolation = @iso|unknown|SESSION",
        "SET transaction_isolation = 'NOPE'|unknown|SESSION",
        "SET autocommit = 0, SESSION transaction_isolation = 'READ-COMMITTED'|READ-COMMITTED|SESSION",
        "/* mysql-connector-j */ SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED|READ-COMMITTED|SESSION",
      })
  void isolationChangesAreReadWithTheirScope(String sql, String isolation, Scope scope) {
    TransactionSet t = of(sql);
    assertThat(t).as(sql).isNotNull();
    assertThat(t.isolation()).as(sql).isEqualTo(isolation);
    assertThat(t.isolationScope()).as(sql).isEqualTo(scope);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SET SESSION TRANSACTION READ ONLY|READ-ONLY|SESSION",
        "SET SESSION TRANSACTION READ WRITE|READ-WRITE|SESSION",
        "SET TRANSACTION ISOLATION LEVEL READ COMMITTED, READ ONLY|READ-ONLY|NEXT_TRANSACTION",
        "SET @@session.transaction_read_only = 1|READ-ONLY|SESSION",
        "SET SESSION tx_read_only = OFF|READ-WRITE|SESSION",
        "SET transaction_read_only = TRUE|READ-ONLY|SESSION",
        "SET @@tx_read_only = 0|READ-WRITE|UNSCOPED_VARIABLE",
        "START TRANSACTION READ ONLY|READ-ONLY|THIS_TRANSACTION",
        "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ WRITE|READ-WRITE|THIS_TRANSACTION",
      })
  void accessModeChangesAreReadWithTheirScope(String sql, String mode, Scope scope) {
    TransactionSet t = of(sql);
    assertThat(t).as(sql).isNotNull();
    assertThat(t.accessMode()).as(sql).isEqualTo(mode);
    assertThat(t.accessModeScope()).as(sql).isEqualTo(scope);
  }

  @Test
  void aLevelNamingReadIsNoAccessMode() {
    assertThat(of("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ").accessMode()).isNull();
    assertThat(of("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED").accessMode()).isNull();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SET GLOBAL TRANSACTION ISOLATION LEVEL READ COMMITTED",
        "SET @@global.transaction_isolation = 'READ-COMMITTED'",
        "SET PERSIST transaction_isolation = 'READ-COMMITTED'",
        "SET GLOBAL transaction_read_only = ON",
        "SET autocommit = 0",
        "SET @transaction_isolation = 'READ-COMMITTED'",
        "START TRANSACTION",
        "BEGIN",
        "SELECT @@session.transaction_isolation",
        "UPDATE t SET transaction_isolation = 'READ-COMMITTED' WHERE id = 1",
        "SET sql_mode = 'ANSI'",
      })
  void othersChangeNothingOfTheConnection(String sql) {
    assertThat(of(sql)).as(sql).isNull();
  }

  @Test
  void aLaterStatementOfTheSameTextWins() {
    TransactionSet t = of("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE;"
        + " SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
    assertThat(t.isolation()).isEqualTo("READ-COMMITTED");
  }

  @Test
  void theDigestOfAnIsolationLiteralIsSharedButEachTextKeepsItsOwnValue() {
    Classification rc = SqlClassifier.classify("SET @@session.transaction_isolation = 'READ-COMMITTED'");
    Classification rr = SqlClassifier.classify("SET @@session.transaction_isolation = 'REPEATABLE-READ'");
    assertThat(rc.digest()).isEqualTo(rr.digest());
    assertThat(rc.transactionSet().isolation()).isEqualTo("READ-COMMITTED");
    assertThat(rr.transactionSet().isolation()).isEqualTo("REPEATABLE-READ");
    assertThat(rc.withoutText().transactionSet()).isSameAs(rc.transactionSet());
  }
}
