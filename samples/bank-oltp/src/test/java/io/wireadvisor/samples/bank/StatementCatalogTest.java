package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StatementCatalogTest {
  private final StatementCatalog catalog = StatementCatalog.build(BankSchema.load());
  private final List<SqlStatement> all = catalog.statements();

  @Test
  void hasTwoHundredDistinctStatements() {
    Set<String> texts = new HashSet<>();
    all.forEach(s -> texts.add(s.sql()));
    assertThat(all).hasSize(200);
    assertThat(texts).hasSize(200);
  }

  @Test
  void ninetyPercentAreSelects() {
    assertThat(all.stream().filter(SqlStatement::isSelect).count()).isEqualTo(180);
  }

  @Test
  void mostAreLongerThanTheDefaultStatementCacheLimitAndSomeLongerThan2048() {
    long over256 = all.stream().filter(s -> s.length() > 256).count();
    long over2048 = all.stream().filter(s -> s.length() > 2048).count();
    // Connector/J caches only sql.length() < prepStmtCacheSqlLimit (default 256): scenario 3 depends on it.
    assertThat(over256).isGreaterThan(all.size() * 3 / 4);
    assertThat(over256).isLessThan(all.size());
    assertThat(over2048).isGreaterThanOrEqualTo(5);
    assertThat(all.stream().mapToInt(SqlStatement::length).max().getAsInt()).isLessThan(20480);
  }

  @Test
  void everyPlaceholderHasAParameterOnAnExistingColumn() {
    for (SqlStatement s : all) {
      long marks = s.sql().chars().filter(c -> c == '?').count();
      assertThat(s.params()).as(s.key()).hasSize((int) marks);
      for (SqlStatement.Param p : s.params()) {
        catalog.schema().table(p.table()).column(p.column());
      }
    }
  }

  @Test
  void readsAsAnOrmWritesIt() {
    String byId = catalog.get("ref.product.byId").sql();
    assertThat(byId)
        .startsWith("select product0_.id as id1_0_, product0_.code as code2_0_")
        .contains(" left outer join product_type producttyp1_ on product0_.product_type_id=producttyp1_.id")
        .endsWith(" where product0_.id=?");
    assertThat(catalog.get("ins.transfer").sql()).startsWith("insert into transfer (from_account_id, to_account_id,");
  }
}
