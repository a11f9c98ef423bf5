package io.wireadvisor.samples.spring;

import java.math.BigDecimal;

/** An account as the API shows it. */
public record AccountView(
    long id, String accountNumber, long customerId, String currency, BigDecimal balance, BigDecimal availableBalance) {
  static AccountView of(Account a) {
    return new AccountView(
        a.getId(), a.getAccountNumber(), a.getCustomerId(), a.getCurrency().getCode(), a.getBalance(),
        a.getAvailableBalance());
  }
}
