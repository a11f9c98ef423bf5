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

/** A payment between two accounts of the bank (the bank schema's {@code transfer}). */
@Entity
@Table(name = "transfer")
public class Transfer {
  /** {@code status}: booked. */
  static final int BOOKED = 1;
  /** {@code payment_scheme_id}, {@code channel_id}, {@code transaction_type_id} of an internal transfer. */
  static final int INTERNAL = 1;

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(name = "from_account_id")
  private Long fromAccountId;

  @Column(name = "to_account_id")
  private Long toAccountId;

  @Column(name = "beneficiary_id")
  private Long beneficiaryId;

  private BigDecimal amount;

  @Column(name = "currency_id")
  private int currencyId;

  @Column(name = "fee_amount")
  private BigDecimal feeAmount;

  @Column(name = "payment_scheme_id")
  private int paymentSchemeId;

  @Column(name = "channel_id")
  private int channelId;

  @Column(name = "transaction_type_id")
  private int transactionTypeId;

  private int status;
  private String reference;

  @Column(name = "value_date")
  private LocalDate valueDate;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  @Column(name = "updated_at")
  private LocalDateTime updatedAt;

  protected Transfer() {}

  /** A booked internal transfer, without fee, valued today. */
  static Transfer booked(Account from, Account to, BigDecimal amount, String reference, LocalDateTime now) {
    Transfer t = new Transfer();
    t.fromAccountId = from.getId();
    t.toAccountId = to.getId();
    t.amount = amount;
    t.currencyId = from.getCurrency().getId();
    t.feeAmount = BigDecimal.ZERO;
    t.paymentSchemeId = INTERNAL;
    t.channelId = INTERNAL;
    t.transactionTypeId = INTERNAL;
    t.status = BOOKED;
    t.reference = reference;
    t.valueDate = now.toLocalDate();
    t.createdAt = now;
    t.updatedAt = now;
    return t;
  }

  public Long getId() {
    return id;
  }

  public Long getFromAccountId() {
    return fromAccountId;
  }

  public Long getToAccountId() {
    return toAccountId;
  }

  public BigDecimal getAmount() {
    return amount;
  }

  public String getReference() {
    return reference;
  }

  public LocalDateTime getCreatedAt() {
    return createdAt;
  }
}
