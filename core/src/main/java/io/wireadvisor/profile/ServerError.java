package io.wireadvisor.profile;

import java.util.Locale;

/**
 * The ERR replies of one server error code for one statement shape: how many, their SQLSTATE (when
 * the collector saw it) and the time the application waited for them. Code 0 holds failures without
 * a server code (an I/O failure) and, past {@link ShapeStats#MAX_ERROR_CODES} distinct codes in a
 * shape, the codes that did not fit.
 */
public final class ServerError {
  /** The code of failures without a server error code, and of codes past the per-shape limit. */
  public static final int OTHER = 0;

  private final int code;
  private String sqlState;
  private long count;
  private long timed;
  private long nanos;

  ServerError(int code) {
    this.code = code;
  }

  /** The server's error code (e.g. 1235), or {@link #OTHER}. */
  public int code() {
    return code;
  }

  /** The five-character SQLSTATE (e.g. {@code 42000}), or null when not seen. */
  public String sqlState() {
    return sqlState;
  }

  /** ERR replies of this code. */
  public long count() {
    return count;
  }

  /** Of {@link #count()}, the replies the collector timed. */
  public long timed() {
    return timed;
  }

  /** Nanoseconds the application waited for the timed replies. */
  public long nanos() {
    return nanos;
  }

  /**
   * A SQLSTATE as a profile keeps it: five ASCII letters or digits, upper-cased; anything else is
   * unknown (null), so a forged file cannot put text in a report through it.
   */
  public static String validSqlState(String s) {
    if (s == null || s.length() != 5) {
      return null;
    }
    String u = s.toUpperCase(Locale.ROOT);
    for (int i = 0; i < 5; i++) {
      char c = u.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'A' && c <= 'Z')) {
        return null;
      }
    }
    return u;
  }

  void add(String state, long n, long timedN, long ns) {
    String s = validSqlState(state);
    // The smaller state wins, so that merging in any order keeps the same one.
    if (s != null && (sqlState == null || s.compareTo(sqlState) < 0)) {
      sqlState = s;
    }
    count += n;
    timed += timedN;
    nanos += ns;
  }

  void add(ServerError other) {
    add(other.sqlState, other.count, other.timed, other.nanos);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ServerError)) {
      return false;
    }
    ServerError e = (ServerError) o;
    return code == e.code && count == e.count && timed == e.timed && nanos == e.nanos
        && (sqlState == null ? e.sqlState == null : sqlState.equals(e.sqlState));
  }

  @Override
  public int hashCode() {
    return 31 * code + (int) count;
  }

  @Override
  public String toString() {
    return "ERR " + code + (sqlState == null ? "" : " (" + sqlState + ")") + " x" + count;
  }
}
