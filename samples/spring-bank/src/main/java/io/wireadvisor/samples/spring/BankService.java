package io.wireadvisor.samples.spring;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The bank's operations, one transaction each, as Spring applications usually write them:
 * {@code @Transactional(readOnly = true)} for reads, {@code @Transactional} for the transfer.
 */
@Service
public class BankService {
  /** The most ledger lines one request returns. */
  static final int MAX_LEDGER_LINES = 100;

  private final AccountRepository accounts;
  private final CustomerRepository customers;
  private final TransferRepository transfers;
  private final LedgerEntryRepository ledger;

  BankService(
      AccountRepository accounts, CustomerRepository customers, TransferRepository transfers,
      LedgerEntryRepository ledger) {
    this.accounts = accounts;
    this.customers = customers;
    this.transfers = transfers;
    this.ledger = ledger;
  }

  @Transactional(readOnly = true)
  public AccountView account(long id) {
    return accounts.findById(id).map(AccountView::of)
        .orElseThrow(() -> BankException.notFound("no account " + id));
  }

  @Transactional(readOnly = true)
  public List<AccountView> accountsOf(long customerId) {
    if (!customers.existsById(customerId)) {
      throw BankException.notFound("no customer " + customerId);
    }
    return accounts.findByCustomerIdOrderByIdAsc(customerId).stream().map(AccountView::of).toList();
  }

  /** The account's latest ledger lines, newest first. */
  @Transactional(readOnly = true)
  public List<LedgerLine> ledger(long accountId, int limit) {
    if (limit < 1 || limit > MAX_LEDGER_LINES) {
      throw BankException.rejected("limit must be 1 to " + MAX_LEDGER_LINES + ", was " + limit);
    }
    if (!accounts.existsById(accountId)) {
      throw BankException.notFound("no account " + accountId);
    }
    return ledger.findByAccountIdOrderByPostedAtDescIdDesc(accountId, Limit.of(limit)).stream()
        .map(LedgerLine::of).toList();
  }

  /**
   * Moves {@code amount} between two accounts of the same currency: both accounts locked, the
   * transfer and its two ledger entries inserted, both balances updated, in one transaction.
   */
  @Transactional
  public TransferResult transfer(TransferRequest request) {
    if (request.fromAccountId() == null || request.toAccountId() == null || request.amount() == null) {
      throw BankException.rejected("fromAccountId, toAccountId and amount are required");
    }
    BigDecimal amount = request.amount();
    // DECIMAL(18,2): at most 16 digits before the point, 2 after.
    if (amount.signum() <= 0 || amount.stripTrailingZeros().scale() > 2
        || amount.precision() - amount.scale() > 16) {
      throw BankException.rejected("amount must be positive, below 10^16, with at most 2 decimals, was "
          + amount.toPlainString());
    }
    long fromId = request.fromAccountId();
    long toId = request.toAccountId();
    if (fromId == toId) {
      throw BankException.rejected("cannot transfer from account " + fromId + " to itself");
    }
    String reference = request.reference() == null || request.reference().isBlank()
        ? "transfer " + fromId + " to " + toId : request.reference();
    if (reference.length() > 64) {
      throw BankException.rejected("reference is longer than 64 characters");
    }
    List<Account> locked = accounts.lockInIdOrder(List.of(fromId, toId));
    Account from = find(locked, fromId);
    Account to = find(locked, toId);
    if (!from.getCurrency().getId().equals(to.getCurrency().getId())) {
      throw BankException.rejected("accounts " + fromId + " (" + from.getCurrency().getCode() + ") and " + toId
          + " (" + to.getCurrency().getCode() + ") hold different currencies");
    }
    if (from.spendable().compareTo(amount) < 0) {
      throw BankException.rejected("insufficient funds on account " + fromId);
    }
    LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
    from.post(amount.negate(), now);
    to.post(amount, now);
    Transfer transfer = transfers.save(Transfer.booked(from, to, amount, reference, now));
    ledger.save(LedgerEntry.of(transfer, from, true, "to " + to.getAccountNumber(), now));
    ledger.save(LedgerEntry.of(transfer, to, false, "from " + from.getAccountNumber(), now));
    return new TransferResult(transfer.getId(), fromId, toId, amount, from.getCurrency().getCode(),
        from.getBalance(), to.getBalance());
  }

  private static Account find(List<Account> locked, long id) {
    for (Account a : locked) {
      if (a.getId() == id) {
        return a;
      }
    }
    throw BankException.notFound("no account " + id);
  }
}
