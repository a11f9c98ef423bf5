package io.wireadvisor.samples.bank;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The business transactions and their weighted mix. A transaction is planned up front as a list
 * of steps (statement + how its entity roles map), so that the mix can be examined without a
 * database and replayed from a seed.
 */
public final class BusinessTransactions {
  /** A business transaction type, its share of the mix and the reference data it consults. */
  public enum Type {
    BALANCE_INQUIRY("balance inquiry", 27, "product", "product_type", "currency", "branch",
        "interest_rate_table", "interest_rate_tier", "interest_accrual_method", "customer_segment",
        "status_code", "language", "time_zone"),
    STATEMENT_LISTING("statement listing", 14, "transaction_type", "gl_account", "gl_category",
        "currency", "channel", "document_template", "language", "cost_center", "status_code",
        "error_code"),
    TRANSFER("transfer", 8, "payment_scheme", "cutoff_time", "holiday_calendar", "holiday", "bank",
        "country", "sanctioned_country", "limit_profile", "limit_rule", "fee_schedule", "fee_item",
        "fee_type", "tax_rule", "channel", "transaction_type", "notification_template"),
    FX_QUOTE("FX quote", 10, "currency", "exchange_rate", "rate_source", "fx_margin",
        "customer_segment", "country", "region", "channel"),
    CARD_AUTHORISATION("card authorisation", 15, "card_product", "card_network",
        "merchant_category", "fraud_rule", "country", "sanctioned_country", "limit_profile",
        "limit_rule", "currency", "city", "atm", "risk_rating", "error_code"),
    LOAN_REPAYMENT("loan repayment", 5, "loan_product", "repayment_schedule_type",
        "collateral_type", "interest_rate_table", "interest_rate_tier", "interest_accrual_method",
        "holiday_calendar", "holiday", "fee_item", "tax_rule"),
    CUSTOMER_PROFILE("customer profile", 11, "occupation", "kyc_document_type", "risk_rating",
        "customer_segment", "language", "country", "city", "branch", "region",
        "notification_template", "time_zone"),
    PRODUCT_CATALOGUE("product catalogue", 10, "product", "product_type", "card_product",
        "loan_product", "fee_schedule", "fee_item", "interest_rate_table", "interest_rate_tier",
        "document_template", "region", "branch", "atm", "city");

    private final String label;
    private final int weight;
    private final String[] referenceTables;

    Type(String label, int weight, String... referenceTables) {
      this.label = label;
      this.weight = weight;
      this.referenceTables = referenceTables;
    }

    public String label() {
      return label;
    }

    /** Share of the mix in percent. */
    public int weight() {
      return weight;
    }
  }

  /**
   * One statement execution within a transaction.
   *
   * @param roles maps a parameter's role to the role to use instead ({@code account ->
   *     account#2} books the second leg of a transfer with the same statement)
   */
  public record Step(SqlStatement statement, Map<String, String> roles) {
    public String role(String role) {
      return role == null ? null : roles.getOrDefault(role, role);
    }
  }

  /** A planned transaction: whether it writes decides whether it runs inside BEGIN/COMMIT. */
  public record Plan(Type type, List<Step> steps) {
    public boolean writes() {
      for (Step s : steps) {
        if (!s.statement().isSelect()) {
          return true;
        }
      }
      return false;
    }
  }

  private final StatementCatalog catalog;
  private final int totalWeight;

  public BusinessTransactions(StatementCatalog catalog) {
    this.catalog = catalog;
    int w = 0;
    for (Type t : Type.values()) {
      w += t.weight;
    }
    this.totalWeight = w;
  }

  public StatementCatalog catalog() {
    return catalog;
  }

  /** Draws the next transaction of the mix. */
  public Plan next(SplittableRandom r) {
    int x = r.nextInt(totalWeight);
    for (Type t : Type.values()) {
      x -= t.weight;
      if (x < 0) {
        return plan(t, r);
      }
    }
    throw new AssertionError();
  }

  /** Plans one transaction of the given type. */
  public Plan plan(Type type, SplittableRandom r) {
    List<Step> s = new ArrayList<>();
    switch (type) {
      case BALANCE_INQUIRY -> {
        s.add(step(report(r, "report.accountOverview", "w.account.byId")));
        s.add(step("agg.ledgerEntriesSince"));
        s.add(step("w.ledger_entry.byAccountId"));
        refs(s, type, r, 6);
      }
      case STATEMENT_LISTING -> {
        s.add(step("w.account.byId"));
        s.add(step("agg.ledgerEntriesSince"));
        s.add(step(report(r, "report.statementListing", "w.ledger_entry.byAccountId")));
        s.add(step(r.nextBoolean() ? "w.transfer.byFromAccountId" : "w.transfer.byToAccountId"));
        // The user opens one line of the statement.
        String[] detail = {
          "report.transferDetail", "w.transfer.byId", "w.ledger_entry.byId",
          "w.ledger_entry.byTransferId", "w.card_transaction.byId", "w.fx_trade.byId",
          "w.loan_repayment.byId", "w.audit_log.byId"
        };
        s.add(step(detail[r.nextInt(detail.length)]));
        refs(s, type, r, 5);
      }
      case TRANSFER -> {
        s.add(step("w.account.byId"));
        s.add(step("w.account.byId", "account", "account#2"));
        s.add(step("w.beneficiary.byCustomerId"));
        s.add(step("w.beneficiary.byId"));
        s.add(step("agg.transfersOutSince"));
        s.add(step("w.transfer.byFromAccountId"));
        refs(s, type, r, 10);
        s.add(step("ins.transfer"));
        s.add(step("upd.accountDebit"));
        s.add(step("upd.accountCredit"));
        s.add(step("ins.ledger_entry"));
        s.add(step("ins.ledger_entry", "account", "account#2"));
        s.add(step("upd.transferStatus"));
        if (r.nextBoolean()) {
          // Paid to a saved beneficiary rather than a one-off payee.
          s.add(step("upd.beneficiaryLastUsed"));
        }
        s.add(step("ins.audit_log"));
      }
      case FX_QUOTE -> {
        s.add(step(report(r, "report.fxQuote", "ref.exchange_rate.byCode")));
        s.add(step("w.account.byId"));
        s.add(step("w.fx_trade.byAccountId"));
        refs(s, type, r, 6);
        if (r.nextInt(10) < 3) {
          s.add(step("ins.fx_trade"));
          s.add(step("upd.accountDebit"));
          s.add(step("ins.audit_log"));
        }
      }
      case CARD_AUTHORISATION -> {
        s.add(step(report(r, "report.cardAuthorisationContext", "w.card.byId")));
        s.add(step("agg.cardSpendSince"));
        // Velocity check on the card's latest authorisations.
        s.add(step("w.card_transaction.byCardId"));
        refs(s, type, r, 7);
        s.add(step("ins.card_transaction"));
        if (r.nextBoolean()) {
          // Only card-present authorisations refresh the card's last use.
          s.add(step("upd.cardLastUsed"));
        }
      }
      case LOAN_REPAYMENT -> {
        s.add(step(report(r, "report.loanOverview", "w.loan.byId")));
        s.add(step("w.loan_repayment.byLoanId"));
        s.add(step("agg.repaymentsSince"));
        s.add(step("w.loan.byAccountId"));
        refs(s, type, r, 6);
        if (r.nextInt(10) == 0) {
          // Origination: the customer takes out a new loan on the same account.
          s.add(step("w.loan.byId"));
          s.add(step("ins.loan"));
        } else {
          s.add(step("ins.ledger_entry"));
          s.add(step("ins.loan_repayment"));
          s.add(step("upd.loanOutstanding"));
          s.add(step("upd.accountDebit"));
        }
        s.add(step("ins.audit_log"));
      }
      case CUSTOMER_PROFILE -> {
        s.add(step("w.customer.byId"));
        s.add(step("w.account.byCustomerId"));
        s.add(step("w.card.byAccountId"));
        s.add(step("w.loan.byCustomerId"));
        s.add(step("w.beneficiary.byCustomerId"));
        s.add(step("w.standing_order.byAccountId"));
        s.add(step("w.audit_log.byCustomerId"));
        String[] open = {"w.card.byId", "w.loan.byId", "w.standing_order.byId", "w.beneficiary.byId"};
        s.add(step(open[r.nextInt(open.length)]));
        refs(s, type, r, 5);
        int x = r.nextInt(100);
        if (x < 20) {
          s.add(step("upd.customerLogin"));
          s.add(step("ins.audit_log"));
        } else if (x < 24) {
          s.add(step("ins.beneficiary"));
          s.add(step("ins.audit_log"));
        } else if (x < 28) {
          s.add(step("ins.standing_order"));
          s.add(step("upd.standingOrderNextRun"));
        } else if (x < 30) {
          // Onboarding: a new customer, account and card.
          s.add(step("ins.customer"));
          s.add(step("ins.account"));
          s.add(step("ins.card"));
          s.add(step("ins.audit_log"));
        }
      }
      case PRODUCT_CATALOGUE -> refs(s, type, r, 6);
      default -> throw new AssertionError(type);
    }
    return new Plan(type, s);
  }

  /**
   * A report query (4 to 10 joined tables) one time in {@value #REPORT_ONE_IN}; otherwise the
   * screen's everyday read of the same entity. Reports are what the users open rarely.
   */
  private static String report(SplittableRandom r, String report, String everyday) {
    return r.nextInt(REPORT_ONE_IN) == 0 ? report : everyday;
  }

  static final int REPORT_ONE_IN = 10;

  /** Reference lookups: by id (half), by code (35%), or the list of valid rows (15%). */
  private void refs(List<Step> s, Type type, SplittableRandom r, int n) {
    for (int i = 0; i < n; i++) {
      String table = type.referenceTables[r.nextInt(type.referenceTables.length)];
      int f = r.nextInt(20);
      String family = f < 10 ? "byId" : f < 17 ? "byCode" : "listValid";
      s.add(step("ref." + table + "." + family));
    }
  }

  private Step step(String key) {
    return new Step(catalog.get(key), Map.of());
  }

  private Step step(String key, String role, String insteadRole) {
    Map<String, String> m = new HashMap<>();
    m.put(role, insteadRole);
    return new Step(catalog.get(key), m);
  }
}
