package io.wireadvisor.sql;

/**
 * Session chatter: statements a driver or pool sends to read or change connection state, or to
 * check that the connection is alive, rather than to do the application's work. Each kind maps
 * to a driver setting that can suppress it, which is why they are told apart.
 */
public enum ProbeKind {
  /**
   * {@code SELECT @@session.transaction_isolation} (or {@code tx_isolation}, any scope form), and
   * nothing else in the select list; a list that mixes it with other variables is
   * {@link #VARIABLES_READ}.
   */
  ISOLATION_READ,
  /** {@code SELECT @@session.transaction_read_only} (or {@code tx_read_only}). */
  READ_ONLY_READ,
  /** {@code SET autocommit = ...}. */
  AUTOCOMMIT_SET,
  /** {@code SET SESSION TRANSACTION ISOLATION LEVEL ...} or setting the isolation variable. */
  ISOLATION_SET,
  /** {@code SET SESSION TRANSACTION READ ONLY|READ WRITE} or setting the read-only variable. */
  READ_ONLY_SET,
  /** {@code SET NAMES ...} and {@code SET CHARACTER SET ...}. */
  SET_NAMES,
  /** {@code SHOW [GLOBAL|SESSION] VARIABLES ...}. */
  SHOW_VARIABLES,
  /** A SELECT of nothing but {@code @@} system variables, like Connector/J's connect-time load. */
  VARIABLES_READ,
  /**
   * Any other SET of session system variables ({@code sql_mode}, {@code net_write_timeout}...).
   * SET GLOBAL/PERSIST and SET of {@code @user} variables are not probes.
   */
  SESSION_SET,
  /** {@code SELECT 1}, {@code SELECT 1 FROM DUAL}, {@code DO 1}, or anything sent with a
   * <code>/* ping *&#47;</code> prefix (Connector/J's marker for a validation query). */
  VALIDATION_QUERY
}
