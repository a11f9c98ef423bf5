package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.samples.bank.BankSchema.Column;
import io.wireadvisor.samples.bank.BankSchema.Kind;
import io.wireadvisor.samples.bank.BankSchema.Table;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BankSchemaTest {
  private final BankSchema schema = BankSchema.load();

  @Test
  void hasSixtyTablesOfWhichTwelveAreWritten() {
    assertThat(schema.tables()).hasSize(60);
    assertThat(schema.tables(Kind.REFERENCE)).hasSize(48);
    assertThat(schema.tables(Kind.WRITTEN))
        .extracting(Table::name)
        .containsExactly(
            "customer", "account", "beneficiary", "transfer", "ledger_entry", "card",
            "card_transaction", "loan", "loan_repayment", "standing_order", "fx_trade", "audit_log");
  }

  @Test
  void resolvesReferencesByTheLongestTableName() {
    assertThat(schema.table("transfer").refOf("from_account_id")).isEqualTo("account");
    assertThat(schema.table("transfer").refOf("to_account_id")).isEqualTo("account");
    assertThat(schema.table("product").refOf("interest_rate_table_id")).isEqualTo("interest_rate_table");
    assertThat(schema.table("card").refOf("card_product_id")).isEqualTo("card_product");
    assertThat(schema.table("fx_trade").refOf("buy_currency_id")).isEqualTo("currency");
    assertThat(schema.table("audit_log").refOf("entity_id")).isNull();
  }

  @Test
  void everyReferenceTargetsAnExistingTable() {
    for (Table t : schema.tables()) {
      for (String target : t.refs().values()) {
        assertThat(schema.table(target)).as(t + " -> " + target).isNotNull();
      }
    }
  }

  @Test
  void referenceTablesAreSmallEnoughToCacheAndWrittenOnesGrowWithScale() {
    long bytes = 0;
    SplittableRandom r = new SplittableRandom(1);
    for (Table t : schema.tables(Kind.REFERENCE)) {
      assertThat(t.rows(100)).as(t.name()).isEqualTo(t.rows(1));
      long rowBytes = 0;
      for (Column c : t.columns()) {
        Object v = Values.value(t, c, 1, r);
        rowBytes += v == null ? 1 : Math.max(8, String.valueOf(v).length());
      }
      bytes += rowBytes * t.rows(1);
    }
    // TiDB caches tables up to 64 MiB; the study's reference data is small. Raw data, not storage.
    assertThat(bytes).isLessThan(4L * 1024 * 1024);
    Table ledger = schema.table("ledger_entry");
    assertThat(ledger.rows(2)).isEqualTo(2 * ledger.rows(1));
    assertThat(ledger.rows(0.00001)).isEqualTo(1);
  }

  @Test
  void writtenTablesInsertEveryColumnButTheGeneratedKey() {
    Table account = schema.table("account");
    assertThat(account.insertColumns()).extracting(Column::name).doesNotContain("id").contains("balance");
    assertThat(schema.table("currency").insertColumns()).extracting(Column::name).contains("id");
  }

  @Test
  void namesTheLineOfMalformedDdl() {
    assertThatThrownBy(() -> BankSchema.parse("-- table: reference rows=5\nCREATE TABLE t (\n  id INT NOT NULL,\n  ???\n);\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 4");
    assertThatThrownBy(() -> BankSchema.parse("CREATE TABLE t (\n  id INT\n);\n"))
        .hasMessageContaining("without a '-- table:' line");
  }
}
