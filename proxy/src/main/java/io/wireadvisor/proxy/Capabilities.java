package io.wireadvisor.proxy;

/**
 * MySQL capability flags the proxy reads or changes.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/group__group__cs__capabilities__flags.html">
 *     Capability flags</a>
 */
final class Capabilities {
  /** Also MariaDB's marker: a server without it announces MariaDB extended capabilities. */
  static final int CLIENT_LONG_PASSWORD = 1;

  static final int CLIENT_CONNECT_WITH_DB = 1 << 3;
  static final int CLIENT_COMPRESS = 1 << 5;
  static final int CLIENT_PROTOCOL_41 = 1 << 9;
  static final int CLIENT_SSL = 1 << 11;
  static final int CLIENT_MULTI_RESULTS = 1 << 17;
  static final int CLIENT_PLUGIN_AUTH = 1 << 19;
  static final int CLIENT_DEPRECATE_EOF = 1 << 24;
  static final int CLIENT_OPTIONAL_RESULTSET_METADATA = 1 << 25;
  static final int CLIENT_ZSTD_COMPRESSION_ALGORITHM = 1 << 26;
  static final int CLIENT_QUERY_ATTRIBUTES = 1 << 27;

  /** MariaDB extended capability (bit 36 overall, bit 4 of the extended word): cached metadata. */
  static final int MARIADB_CLIENT_CACHE_METADATA = 1 << 4;

  /** Server status flags (OK and EOF packets). */
  static final int SERVER_STATUS_CURSOR_EXISTS = 0x0040;

  static final int SERVER_MORE_RESULTS_EXISTS = 0x0008;

  private Capabilities() {}
}
