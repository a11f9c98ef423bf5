package io.wireadvisor.samples.spring;

import java.math.BigDecimal;

/** A booked transfer with both accounts' balances after it. */
public record TransferResult(
    long transferId, long fromAccountId, long toAccountId, BigDecimal amount, String currency,
    BigDecimal fromBalance, BigDecimal toBalance) {}
