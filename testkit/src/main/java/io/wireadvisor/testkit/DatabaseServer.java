package io.wireadvisor.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/** A running MySQL-protocol server that tests may connect to, as found by {@link ServerLocator}. */
public interface DatabaseServer extends AutoCloseable {
  /** Which family of server this is. */
  ServerKind kind();

  /** The version as the server reports it ({@code SELECT VERSION()}). */
  String version();

  /** Where the server came from: {@code "env"}, {@code "testcontainers"} or {@code "embedded-mariadb"}. */
  String source();

  String host();

  int port();

  String user();

  String password();

  /**
   * A Connector/J URL {@code jdbc:mysql://host:port/database?properties}.
   *
   * @param database schema name, or null/empty for none
   * @param properties URL query string without the {@code ?}, or null/empty for none
   */
  String jdbcUrl(String database, String properties);

  /** Opens a connection as {@link #user()} to {@link #jdbcUrl(String, String)}. */
  Connection connect(String database, String properties) throws SQLException;

  /**
   * Creates a uniquely named schema, so tests sharing one server do not see each other's tables.
   *
   * @param prefix start of the name; letters, digits and underscores
   * @return the new schema's name
   */
  String createDatabase(String prefix);

  /** The TiDB status port's base URL (e.g. {@code http://host:10080}); empty for other servers. */
  Optional<String> statusUrl();

  /** The server's own command counters. */
  ServerCounters counters();

  /**
   * TiDB's storage engine as the server was started with ({@code "tikv"}, {@code "unistore"},
   * …), read from {@code @@tidb_config}; empty for other servers.
   */
  Optional<String> tidbStore();

  /**
   * Why this server cannot hold a row of {@code bytes} bytes, or empty when it can. A
   * single-process TiDB ({@code unistore}, TiDB's test storage) keeps each lock in one 8 MiB
   * arena block ({@code unistore/lockstore}); a row near that size makes it panic
   * ({@code index out of range} in {@code arena.get}) and the whole server dies, so tests that
   * commit such rows skip there.
   */
  default Optional<String> cannotHoldRowOf(long bytes) {
    return tidbStore()
        .filter(store -> !store.equalsIgnoreCase("tikv") && bytes >= UNISTORE_MAX_ROW)
        .map(store -> "TiDB on " + store + " storage (one process, not TiKV) cannot hold a row of "
            + bytes + " bytes (its lock store's arena blocks are 8 MiB); needs TiDB on TiKV");
  }

  /** Rows from this size on do not fit one of unistore's 8 MiB lock-store arena blocks with their key and lock header. */
  long UNISTORE_MAX_ROW = (8L << 20) - (64L << 10);

  /** Shorthand for {@code kind() == ServerKind.TIDB}. */
  default boolean isTiDB() {
    return kind() == ServerKind.TIDB;
  }

  /** Stops the server if this object started it; for servers it merely found, releases resources. */
  @Override
  void close();
}
