package io.wireadvisor.profile;

/** A profile document that cannot be read; the message names the offending field by its path. */
public final class ProfileFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String field;

  public ProfileFormatException(String field, String problem) {
    super((field.isEmpty() ? "profile" : field) + ": " + problem);
    this.field = field;
  }

  public ProfileFormatException(String field, String problem, Throwable cause) {
    super((field.isEmpty() ? "profile" : field) + ": " + problem, cause);
    this.field = field;
  }

  /** The JSON path of the wrong field, e.g. {@code shapes[3].counts.executes}; "" for the root. */
  public String field() {
    return field;
  }
}
