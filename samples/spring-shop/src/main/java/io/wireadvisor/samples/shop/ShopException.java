package io.wireadvisor.samples.shop;

/** A business rule refused the operation (unknown product or customer, not enough stock). */
public class ShopException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ShopException(String message) {
    super(message);
  }
}
