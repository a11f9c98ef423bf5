package io.wireadvisor.samples.spring;

import java.math.BigDecimal;

/** The body of {@code POST /transfers}; {@code reference} is optional. */
public record TransferRequest(Long fromAccountId, Long toAccountId, BigDecimal amount, String reference) {}
