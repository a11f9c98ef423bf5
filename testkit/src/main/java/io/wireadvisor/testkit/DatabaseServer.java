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

  /** Shorthand for {@code kind() == ServerKind.TIDB}. */
  default boolean isTiDB() {
    return kind() == ServerKind.TIDB;
  }

  /** Stops the server if this object started it; for servers it merely found, releases resources. */
  @Override
  void close();
}
