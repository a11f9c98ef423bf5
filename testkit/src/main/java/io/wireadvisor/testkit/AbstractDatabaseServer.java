package io.wireadvisor.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What every {@link DatabaseServer} does the same way once host, port and credentials are known. */
abstract class AbstractDatabaseServer implements DatabaseServer {
  private static final AtomicLong SCHEMA_SEQ = new AtomicLong();
  private static final Pattern STORE = Pattern.compile("\"store\"\\s*:\\s*\"([^\"]+)\"");

  private final String source;
  private final String host;
  private final int port;
  private final String user;
  private final String password;
  private final Optional<String> statusUrl;
  private volatile String version;
  private volatile ServerCounters counters;
  private volatile Optional<String> tidbStore;

  AbstractDatabaseServer(
      String source, String host, int port, String user, String password, String statusUrl) {
    this.source = source;
    this.host = host;
    this.port = port;
    this.user = user;
    this.password = password == null ? "" : password;
    this.statusUrl = Optional.ofNullable(statusUrl).filter(s -> !s.isBlank()).map(s -> s.replaceAll("/+$", ""));
  }

  /**
   * Connects once to learn the version; fails fast (short timeouts) so a wrong address is reported
   * instead of hanging the build.
   */
  final void probe() throws SQLException {
    try (Connection c = connect(null, "connectTimeout=10000&socketTimeout=30000");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION()")) {
      rs.next();
      version = rs.getString(1);
    }
  }

  @Override
  public ServerKind kind() {
    return ServerKind.fromVersion(version());
  }

  @Override
  public String version() {
    if (version == null) {
      throw new IllegalStateException("server at " + host + ":" + port + " not probed yet");
    }
    return version;
  }

  @Override
  public String source() {
    return source;
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String user() {
    return user;
  }

  @Override
  public String password() {
    return password;
  }

  @Override
  public String jdbcUrl(String database, String properties) {
    StringBuilder url = new StringBuilder("jdbc:mysql://");
    // IPv6 literals need brackets in a Connector/J URL.
    url.append(host.contains(":") ? "[" + host + "]" : host).append(':').append(port).append('/');
    if (database != null) {
      url.append(database);
    }
    if (properties != null && !properties.isEmpty()) {
      url.append('?').append(properties.startsWith("?") ? properties.substring(1) : properties);
    }
    return url.toString();
  }

  @Override
  public Connection connect(String database, String properties) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database, properties), user, password);
  }

  @Override
  public String createDatabase(String prefix) {
    String base = prefix == null || prefix.isBlank() ? "wa" : prefix.replaceAll("[^A-Za-z0-9_]", "_");
    // pid and a counter: unique within this JVM and against other JVMs sharing an env server.
    String name =
        (base + "_" + ProcessHandle.current().pid() + "_" + SCHEMA_SEQ.incrementAndGet())
            .toLowerCase(Locale.ROOT);
    if (name.length() > 64) {
      name = name.substring(name.length() - 64);
    }
    try (Connection c = connect(null, null);
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE DATABASE `" + name + "`");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name + " on " + describe(), e);
    }
    return name;
  }

  @Override
  public Optional<String> statusUrl() {
    return statusUrl;
  }

  @Override
  public Optional<String> tidbStore() {
    Optional<String> store = tidbStore;
    if (store == null) {
      store = tidbStore = isTiDB() ? Optional.of(readTiDBStore()) : Optional.empty();
    }
    return store;
  }

  private String readTiDBStore() {
    try (Connection c = connect(null, null);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@tidb_config")) {
      rs.next();
      Matcher m = STORE.matcher(rs.getString(1));
      if (!m.find()) {
        throw new IllegalStateException("@@tidb_config of " + describe() + " names no store");
      }
      return m.group(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read @@tidb_config from " + describe(), e);
    }
  }

  @Override
  public ServerCounters counters() {
    ServerCounters c = counters;
    if (c == null) {
      synchronized (this) {
        c = counters;
        if (c == null) {
          c = counters = newCounters();
        }
      }
    }
    return c;
  }

  private ServerCounters newCounters() {
    if (isTiDB()) {
      return statusUrl
          .<ServerCounters>map(TiDBMetricsCounters::new)
          .orElseGet(
              () ->
                  new UnavailableCounters(
                      "TiDB has no Com_* status counters and no status URL is known"
                          + " (set WIRE_ADVISOR_TIDB_STATUS_URL)"));
    }
    return new StatusVariableCounters(this);
  }

  /** Releases the counters' admin connection. */
  void closeCounters() {
    ServerCounters c = counters;
    if (c instanceof AutoCloseable) {
      try {
        ((AutoCloseable) c).close();
      } catch (Exception ignored) {
        // The server is going away anyway.
      }
    }
  }

  /** e.g. {@code embedded MariaDB 11.4.5-MariaDB on 127.0.0.1:41234}. */
  String describe() {
    String what =
        version == null
            ? "server"
            : switch (kind()) {
              case TIDB -> "TiDB " + version;
              case MARIADB -> "MariaDB " + version;
              case MYSQL -> "MySQL " + version;
            };
    String from =
        switch (source) {
          case "embedded-mariadb" -> "embedded ";
          case "testcontainers" -> "Testcontainers ";
          default -> "";
        };
    return from + what + " on " + host + ":" + port;
  }

  @Override
  public String toString() {
    return describe();
  }
}
