package io.wireadvisor.samples.spring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/** One side of a double-entry booking (the bank schema's {@code ledger_entry}). */
@Entity
@Table(name = "ledger_entry")
public class LedgerEntry {
  /** {@code gl_account_id} of customer deposits. */
  static final int CUSTOMER_DEPOSITS = 1;

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(name = "account_id")
  private Long accountId;

  @Column(name = "transfer_id")
  private Long transferId;

  @Column(name = "transaction_type_id")
  private int transactionTypeId;

  @Column(name = "gl_account_id")
  private int glAccountId;

  @Column(name = "currency_id")
  private int currencyId;

  private BigDecimal amount;

  @Column(name = "balance_after")
  private BigDecimal balanceAfter;

  @Column(name = "debit_credit")
  private String debitCredit;

  private String narrative;

  @Column(name = "value_date")
  private LocalDate valueDate;

  @Column(name = "posted_at")
  private LocalDateTime postedAt;

  protected LedgerEntry() {}

  /**
   * The booking of a transfer on one account, after its balance moved: debit ({@code D}) on the
   * paying account, credit ({@code C}) on the receiving one.
   */
  static LedgerEntry of(Transfer transfer, Account account, boolean debit, String narrative, LocalDateTime now) {
    LedgerEntry e = new LedgerEntry();
    e.accountId = account.getId();
    e.transferId = transfer.getId();
    e.transactionTypeId = Transfer.INTERNAL;
    e.glAccountId = CUSTOMER_DEPOSITS;
    e.currencyId = account.getCurrency().getId();
    e.amount = transfer.getAmount();
    e.balanceAfter = account.getBalance();
    e.debitCredit = debit ? "D" : "C";
    e.narrative = narrative;
    e.valueDate = now.toLocalDate();
    e.postedAt = now;
    return e;
  }

  public Long getId() {
    return id;
  }

  public Long getTransferId() {
    return transferId;
  }

  public BigDecimal getAmount() {
    return amount;
  }

  public BigDecimal getBalanceAfter() {
    return balanceAfter;
  }

  public String getDebitCredit() {
    return debitCredit;
  }

  public String getNarrative() {
    return narrative;
  }

  public LocalDateTime getPostedAt() {
    return postedAt;
  }
}
