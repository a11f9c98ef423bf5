package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnDescriptionTest {
  @Test
  void jdbcConstantsMapToTheServerVariableSpelling() {
    assertThat(ConnDescription.isolationName(Connection.TRANSACTION_READ_UNCOMMITTED)).isEqualTo("READ-UNCOMMITTED");
    assertThat(ConnDescription.isolationName(Connection.TRANSACTION_READ_COMMITTED)).isEqualTo("READ-COMMITTED");
    assertThat(ConnDescription.isolationName(Connection.TRANSACTION_REPEATABLE_READ)).isEqualTo("REPEATABLE-READ");
    assertThat(ConnDescription.isolationName(Connection.TRANSACTION_SERIALIZABLE)).isEqualTo("SERIALIZABLE");
    assertThat(ConnDescription.isolationName(Connection.TRANSACTION_NONE)).isNull();
    assertThat(ConnDescription.isolationName(3)).isNull();
  }

  @Test
  void anIsolationChangeIsADistinctSourceWithEverythingElseKept() {
    ConnDescription rr =
        new ConnDescription("9.5.0", "11.4.5-MariaDB", "REPEATABLE-READ", "jdbc:mysql://h:3306/db",
            Map.of("cachePrepStmts", "true"));
    ConnDescription rc = rr.withIsolation("READ-COMMITTED");
    assertThat(rc.isolation).isEqualTo("READ-COMMITTED");
    assertThat(rr.isolation).isEqualTo("REPEATABLE-READ");
    assertThat(rc.properties).isEqualTo(rr.properties);
    assertThat(rc.url).isEqualTo(rr.url);
    assertThat(rc.key()).isNotEqualTo(rr.key());
    assertThat(rr.withIsolation("REPEATABLE-READ").key()).isEqualTo(rr.key());
  }
}
