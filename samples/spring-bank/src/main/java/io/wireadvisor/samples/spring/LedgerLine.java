package io.wireadvisor.samples.spring;

import java.math.BigDecimal;
import java.time.LocalDateTime;

/** A ledger entry as the API shows it: {@code D}ebit or {@code C}redit, and the balance after it. */
public record LedgerLine(
    long id, Long transferId, String debitCredit, BigDecimal amount, BigDecimal balanceAfter, String narrative,
    LocalDateTime postedAt) {
  static LedgerLine of(LedgerEntry e) {
    return new LedgerLine(
        e.getId(), e.getTransferId(), e.getDebitCredit(), e.getAmount(), e.getBalanceAfter(), e.getNarrative(),
        e.getPostedAt());
  }
}
