package io.wireadvisor.samples.spring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * A deposit account with its balance (the bank schema's {@code account}). The currency is mapped
 * as JPA's default (eager) many-to-one, as most applications leave it: Hibernate joins it into a
 * find by id and reads it by id after a query.
 */
@Entity
@Table(name = "account")
public class Account {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(name = "account_number")
  private String accountNumber;

  @Column(name = "customer_id")
  private Long customerId;

  @Column(name = "product_id")
  private int productId;

  @Column(name = "branch_id")
  private int branchId;

  @ManyToOne(optional = false)
  @JoinColumn(name = "currency_id")
  private Currency currency;

  private BigDecimal balance;

  @Column(name = "available_balance")
  private BigDecimal availableBalance;

  @Column(name = "overdraft_limit")
  private BigDecimal overdraftLimit;

  private int status;

  @Column(name = "opened_on")
  private LocalDate openedOn;

  @Column(name = "closed_on")
  private LocalDate closedOn;

  @Column(name = "last_activity_at")
  private LocalDateTime lastActivityAt;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  @Column(name = "updated_at")
  private LocalDateTime updatedAt;

  @Version private int version;

  protected Account() {}

  public Long getId() {
    return id;
  }

  public String getAccountNumber() {
    return accountNumber;
  }

  public Long getCustomerId() {
    return customerId;
  }

  public Currency getCurrency() {
    return currency;
  }

  public BigDecimal getBalance() {
    return balance;
  }

  public BigDecimal getAvailableBalance() {
    return availableBalance;
  }

  /** What may still be paid out: the available balance plus the overdraft limit. */
  public BigDecimal spendable() {
    return availableBalance.add(overdraftLimit);
  }

  /** Moves money in (positive) or out (negative) of the account at {@code now}. */
  void post(BigDecimal amount, LocalDateTime now) {
    balance = balance.add(amount);
    availableBalance = availableBalance.add(amount);
    lastActivityAt = now;
    updatedAt = now;
  }
}
