package io.wireadvisor.samples.bank;

import io.wireadvisor.samples.bank.BankSchema.Column;
import io.wireadvisor.samples.bank.BankSchema.Kind;
import io.wireadvisor.samples.bank.BankSchema.Table;
import io.wireadvisor.samples.bank.SqlStatement.Param;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The application's 200 distinct statements, generated from the schema the way Hibernate writes
 * them: every column listed with a generated alias. That is why most are longer than Connector/J's
 * default {@code prepStmtCacheSqlLimit} of 256 characters. Associations are mapped as a careful
 * team maps them: LAZY by default, so a find by id or a finder reads its own table; a few
 * deliberate {@code left outer join}s (an account with its product and currency, a card with its
 * product, a ledger entry with its transaction type), and report queries joining 4 to 10 tables
 * that the transactions run rarely.
 *
 * <p>Families (keys in brackets):
 *
 * <ul>
 *   <li>per reference table: find by id with its associations [{@code ref.T.byId}], find by code
 *       [{@code ref.T.byCode}], list the valid rows [{@code ref.T.listValid}] — 144;
 *   <li>per written table: find by id with its associations [{@code w.T.byId}] — 12;
 *   <li>one-to-many finders [{@code w.T.byCOLUMN}] — 14; counters [{@code agg.*}] — 4;
 *   <li>report queries joining 5 to 10 tables [{@code report.*}] — 6;
 *   <li>inserts into every written table [{@code ins.T}] — 12; updates [{@code upd.*}] — 8.
 * </ul>
 */
public final class StatementCatalog {
  private final BankSchema schema;
  private final Map<String, SqlStatement> byKey = new LinkedHashMap<>();

  private StatementCatalog(BankSchema schema) {
    this.schema = schema;
  }

  /** Builds the catalogue for a schema (the bundled one has exactly the tables it needs). */
  public static StatementCatalog build(BankSchema schema) {
    StatementCatalog c = new StatementCatalog(schema);
    c.buildAll();
    return c;
  }

  public List<SqlStatement> statements() {
    return List.copyOf(byKey.values());
  }

  public SqlStatement get(String key) {
    SqlStatement s = byKey.get(key);
    if (s == null) {
      throw new IllegalArgumentException("no statement " + key);
    }
    return s;
  }

  public BankSchema schema() {
    return schema;
  }

  private void add(SqlStatement s) {
    if (byKey.put(s.key(), s) != null) {
      throw new IllegalStateException("duplicate statement key " + s.key());
    }
  }

  private void buildAll() {
    for (Table t : schema.tables(Kind.REFERENCE)) {
      String n = t.name();
      add(select("ref." + n + ".byId", t, deliberateJoins(t)).where("{0}.id=?", p(t, "id")).build());
      add(select("ref." + n + ".byCode", t, deliberateJoins(t)).where("{0}.code=?", p(t, "code")).build());
      add(
          select("ref." + n + ".listValid", t, List.of())
              .where(
                  "{0}.status=? and {0}.valid_from<=? and ({0}.valid_to is null or {0}.valid_to>=?)",
                  value(t, "status"),
                  value(t, "valid_from"),
                  value(t, "valid_to"))
              .tail(" order by {0}.code asc limit 100")
              .build());
    }
    for (Table t : schema.tables(Kind.WRITTEN)) {
      add(select("w." + t.name() + ".byId", t, deliberateJoins(t)).where("{0}.id=?", p(t, "id")).build());
    }
    finder("account", "customer_id", "opened_on");
    finder("beneficiary", "customer_id", "last_used_at");
    finder("transfer", "from_account_id", "created_at");
    finder("transfer", "to_account_id", "created_at");
    finder("ledger_entry", "account_id", "posted_at");
    finder("ledger_entry", "transfer_id", "posted_at");
    finder("card", "account_id", "created_at");
    finder("card_transaction", "card_id", "authorised_at");
    finder("loan", "customer_id", "start_date");
    finder("loan", "account_id", "start_date");
    finder("loan_repayment", "loan_id", "due_date");
    finder("standing_order", "account_id", "next_run_date");
    finder("fx_trade", "account_id", "traded_at");
    finder("audit_log", "customer_id", "created_at");

    counter("agg.ledgerEntriesSince", "ledger_entry", "account_id", "posted_at");
    counter("agg.cardSpendSince", "card_transaction", "card_id", "authorised_at");
    counter("agg.transfersOutSince", "transfer", "from_account_id", "created_at");
    counter("agg.repaymentsSince", "loan_repayment", "loan_id", "paid_at");

    add(
        select(
                "report.accountOverview",
                schema.table("account"),
                List.of(
                    "customer_id", "product_id", "product_id.product_type_id",
                    "product_id.interest_rate_table_id", "product_id.fee_schedule_id",
                    "product_id.limit_profile_id", "currency_id", "branch_id",
                    "customer_id.customer_segment_id", "customer_id.risk_rating_id"))
            .where("{0}.id=?", p(schema.table("account"), "id"))
            .build());
    Table le = schema.table("ledger_entry");
    add(
        select(
                "report.statementListing",
                le,
                List.of(
                    "transfer_id", "transaction_type_id", "gl_account_id", "currency_id",
                    "account_id", "transaction_type_id.fee_type_id", "transfer_id.channel_id"))
            .where("{0}.account_id=? and {0}.posted_at>=?", p(le, "account_id"), value(le, "posted_at"))
            .tail(" order by {0}.posted_at desc, {0}.id desc limit 50")
            .build());
    Table er = schema.table("exchange_rate");
    add(
        select(
                "report.fxQuote",
                er,
                List.of(
                    "base_currency_id", "quote_currency_id", "rate_source_id"))
            .where(
                "{0}.base_currency_id=? and {0}.quote_currency_id=? and {0}.status=?",
                p(er, "base_currency_id"),
                p(er, "quote_currency_id"),
                value(er, "status"))
            .tail(" order by {0}.rate_date desc limit 1")
            .build());
    add(
        select(
                "report.cardAuthorisationContext",
                schema.table("card"),
                List.of(
                    "account_id", "card_product_id", "card_product_id.card_network_id",
                    "card_product_id.limit_profile_id", "card_product_id.fee_schedule_id",
                    "account_id.customer_id", "account_id.currency_id", "account_id.product_id"))
            .where("{0}.id=?", p(schema.table("card"), "id"))
            .build());
    add(
        select(
                "report.loanOverview",
                schema.table("loan"),
                List.of(
                    "loan_product_id", "loan_product_id.repayment_schedule_type_id",
                    "loan_product_id.collateral_type_id", "loan_product_id.interest_rate_table_id",
                    "account_id", "customer_id", "currency_id", "customer_id.risk_rating_id"))
            .where("{0}.id=?", p(schema.table("loan"), "id"))
            .build());
    add(
        select(
                "report.transferDetail",
                schema.table("transfer"),
                List.of(
                    "from_account_id", "to_account_id", "beneficiary_id", "beneficiary_id.bank_id",
                    "payment_scheme_id", "channel_id", "transaction_type_id", "currency_id"))
            .where("{0}.id=?", p(schema.table("transfer"), "id"))
            .build());

    for (Table t : schema.tables(Kind.WRITTEN)) {
      insert(t);
    }
    update("upd.accountDebit", "account", "balance=balance-?, available_balance=available_balance-?, last_activity_at=?, updated_at=?, version=version+1", "account",
        "balance", "available_balance", "last_activity_at", "updated_at");
    update("upd.accountCredit", "account", "balance=balance+?, available_balance=available_balance+?, last_activity_at=?, updated_at=?, version=version+1", "account#2",
        "balance", "available_balance", "last_activity_at", "updated_at");
    update("upd.cardLastUsed", "card", "last_used_at=?, updated_at=?, version=version+1", "card", "last_used_at", "updated_at");
    update("upd.loanOutstanding", "loan", "outstanding_amount=outstanding_amount-?, next_due_date=?, updated_at=?, version=version+1", "loan",
        "outstanding_amount", "next_due_date", "updated_at");
    update("upd.customerLogin", "customer", "last_login_at=?, updated_at=?, version=version+1", "customer", "last_login_at", "updated_at");
    update("upd.beneficiaryLastUsed", "beneficiary", "last_used_at=?, updated_at=?", "beneficiary", "last_used_at", "updated_at");
    update("upd.standingOrderNextRun", "standing_order", "next_run_date=?, updated_at=?", "standing_order", "next_run_date", "updated_at");
    update("upd.transferStatus", "transfer", "status=?, updated_at=?", "transfer", "status", "updated_at");
  }

  // ---- families -------------------------------------------------------------------------

  /**
   * The few many-to-one associations mapped {@code fetch = EAGER} on purpose (the screen always
   * shows them); every other association is LAZY and costs no join.
   */
  private static final Map<String, List<String>> DELIBERATE_JOINS =
      Map.of(
          "account", List.of("product_id", "currency_id"),
          "card", List.of("card_product_id"),
          "ledger_entry", List.of("transaction_type_id"),
          "product", List.of("product_type_id"),
          "exchange_rate", List.of("base_currency_id", "quote_currency_id"));

  private static List<String> deliberateJoins(Table t) {
    return DELIBERATE_JOINS.getOrDefault(t.name(), List.of());
  }

  private void finder(String table, String fkColumn, String orderColumn) {
    Table t = schema.table(table);
    add(
        select("w." + table + ".by" + camel(fkColumn), t, deliberateJoins(t))
            .where("{0}." + fkColumn + "=?", p(t, fkColumn))
            .tail(" order by {0}." + orderColumn + " desc limit 20")
            .build());
  }

  private void counter(String key, String table, String fkColumn, String timeColumn) {
    Table t = schema.table(table);
    String a = alias(t, 0);
    String sql =
        "select count(" + a + ".id) as col_0_0_, max(" + a + "." + timeColumn + ") as col_1_0_ from "
            + table + " " + a + " where " + a + "." + fkColumn + "=? and " + a + "." + timeColumn + ">=?";
    add(new SqlStatement(key, sql, SqlStatement.Kind.SELECT, List.of(p(t, fkColumn), value(t, timeColumn))));
  }

  private void insert(Table t) {
    List<Column> cols = t.insertColumns();
    StringBuilder sql = new StringBuilder("insert into ").append(t.name()).append(" (");
    List<Param> params = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(cols.get(i).name());
      params.add(p(t, cols.get(i).name()));
    }
    sql.append(") values (");
    for (int i = 0; i < cols.size(); i++) {
      sql.append(i == 0 ? "?" : ", ?");
    }
    sql.append(')');
    add(new SqlStatement("ins." + t.name(), sql.toString(), SqlStatement.Kind.INSERT, params));
  }

  private void update(String key, String table, String set, String idRole, String... setColumns) {
    Table t = schema.table(table);
    List<Param> params = new ArrayList<>();
    for (String c : setColumns) {
      t.column(c);
      params.add(new Param(table, c, null));
    }
    params.add(new Param(table, "id", idRole));
    add(new SqlStatement(key, "update " + table + " set " + set + " where id=?", SqlStatement.Kind.UPDATE, params));
  }

  // ---- parameters ------------------------------------------------------------------------

  /** A placeholder bound to the entity the column refers to (or, for {@code id}, the row itself). */
  static Param p(Table t, String column) {
    t.column(column);
    if (column.equals("id")) {
      return new Param(t.name(), column, t.name());
    }
    if (column.equals("code")) {
      // Bound to the code of the row playing the table's role.
      return new Param(t.name(), column, t.name());
    }
    String ref = t.refOf(column);
    if (ref == null) {
      return new Param(t.name(), column, null);
    }
    boolean second = column.startsWith("to_") || column.startsWith("quote_") || column.startsWith("buy_");
    return new Param(t.name(), column, second ? ref + "#2" : ref);
  }

  /** A placeholder bound to a fresh value like the column's data. */
  static Param value(Table t, String column) {
    t.column(column);
    return new Param(t.name(), column, null);
  }

  // ---- SQL text --------------------------------------------------------------------------

  /** Hibernate 5's table alias: the name's first letters, a sequence number and an underscore. */
  static String alias(Table t, int index) {
    String n = t.name().replace("_", "");
    return n.substring(0, Math.min(10, n.length())) + index + "_";
  }

  private static String camel(String column) {
    StringBuilder sb = new StringBuilder();
    boolean up = true;
    for (char ch : column.toCharArray()) {
      if (ch == '_') {
        up = true;
      } else {
        sb.append(up ? Character.toUpperCase(ch) : ch);
        up = false;
      }
    }
    return sb.toString();
  }

  private SelectBuilder select(String key, Table root, List<String> joinPaths) {
    return new SelectBuilder(key, root, joinPaths);
  }

  /** Writes {@code select <every column of every joined table> from ... left outer join ...}. */
  private final class SelectBuilder {
    private final String key;
    private final List<Table> tables = new ArrayList<>();
    private final List<String> aliases = new ArrayList<>();
    private final StringBuilder from = new StringBuilder();
    private String where = "";
    private String tail = "";
    private final List<Param> params = new ArrayList<>();

    SelectBuilder(String key, Table root, List<String> joinPaths) {
      this.key = key;
      tables.add(root);
      aliases.add(alias(root, 0));
      from.append(" from ").append(root.name()).append(' ').append(aliases.get(0));
      Map<String, Integer> pathIndex = new LinkedHashMap<>();
      for (String path : joinPaths) {
        int dot = path.lastIndexOf('.');
        int parent = dot < 0 ? 0 : pathIndex.get(path.substring(0, dot));
        String column = dot < 0 ? path : path.substring(dot + 1);
        Table pt = tables.get(parent);
        String target = pt.refOf(column);
        if (target == null) {
          throw new IllegalArgumentException(key + ": " + pt + "." + column + " refers to no table");
        }
        Table tt = schema.table(target);
        int idx = tables.size();
        tables.add(tt);
        String a = alias(tt, idx);
        aliases.add(a);
        pathIndex.put(path, idx);
        from.append(" left outer join ").append(tt.name()).append(' ').append(a).append(" on ")
            .append(aliases.get(parent)).append('.').append(column).append('=').append(a).append(".id");
      }
    }

    SelectBuilder where(String condition, Param... ps) {
      where = " where " + expand(condition);
      Collections.addAll(params, ps);
      return this;
    }

    SelectBuilder tail(String text) {
      tail = expand(text);
      return this;
    }

    private String expand(String s) {
      for (int i = 0; i < aliases.size(); i++) {
        s = s.replace("{" + i + "}", aliases.get(i));
      }
      return s;
    }

    SqlStatement build() {
      StringBuilder sql = new StringBuilder("select ");
      for (int ti = 0; ti < tables.size(); ti++) {
        List<Column> cols = tables.get(ti).columns();
        for (int ci = 0; ci < cols.size(); ci++) {
          String c = cols.get(ci).name();
          if (ti > 0 || ci > 0) {
            sql.append(", ");
          }
          sql.append(aliases.get(ti)).append('.').append(c).append(" as ")
              .append(c, 0, Math.min(10, c.length())).append(ci + 1).append('_').append(ti).append('_');
        }
      }
      return new SqlStatement(key, sql + from.toString() + where + tail, SqlStatement.Kind.SELECT, params);
    }
  }
}
