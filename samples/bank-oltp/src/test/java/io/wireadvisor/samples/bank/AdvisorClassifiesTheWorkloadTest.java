package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.SqlClassifier;
import io.wireadvisor.sql.StatementKind;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The advisor must understand this workload's ORM-style SQL: kinds, the tables each statement
 * touches (the table-cache rule depends on them), one digest per distinct statement, no probes.
 */
class AdvisorClassifiesTheWorkloadTest {
  private final StatementCatalog catalog = StatementCatalog.build(BankSchema.load());

  @Test
  void everyStatementGetsItsKindTablesAndADigestOfItsOwn() {
    Set<String> digests = new HashSet<>();
    for (SqlStatement s : catalog.statements()) {
      Classification c = SqlClassifier.classify(s.sql());
      assertThat(c.kind()).as(s.key()).isEqualTo(StatementKind.valueOf(s.kind().name()));
      assertThat(c.isProbe()).as(s.key()).isFalse();
      assertThat(c.sqlLength()).isEqualTo(s.length());
      String table = s.params().isEmpty() ? null : s.params().get(0).table();
      if (s.isSelect()) {
        assertThat(c.tablesRead()).as(s.key()).contains(table);
        assertThat(c.tablesWritten()).as(s.key()).isEmpty();
      } else {
        assertThat(c.tablesWritten()).as(s.key()).containsExactly(table);
      }
      digests.add(c.digest());
    }
    assertThat(digests).hasSize(200);
  }

  @Test
  void joinsReadEveryJoinedTable() {
    Classification c = SqlClassifier.classify(catalog.get("report.accountOverview").sql());
    assertThat(c.tablesRead())
        .contains("account", "customer", "product", "product_type", "interest_rate_table", "fee_schedule",
            "limit_profile", "currency", "branch", "customer_segment", "risk_rating");
  }
}
