package io.wireadvisor.samples.spring;

import org.springframework.http.HttpStatus;

/** A request the bank cannot serve, with the HTTP status that says why. */
public final class BankException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final HttpStatus status;

  private BankException(HttpStatus status, String message) {
    super(message);
    this.status = status;
  }

  /** 404: the named thing does not exist. */
  static BankException notFound(String message) {
    return new BankException(HttpStatus.NOT_FOUND, message);
  }

  /** 422: a well-formed request the bank refuses (insufficient funds, same account, …). */
  static BankException rejected(String message) {
    return new BankException(HttpStatus.UNPROCESSABLE_ENTITY, message);
  }

  public HttpStatus status() {
    return status;
  }
}
