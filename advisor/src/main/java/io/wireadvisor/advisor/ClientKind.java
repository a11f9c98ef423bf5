package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import java.util.Locale;

/**
 * The kind of client a profile's source names: the agent's JVMs speak JDBC; a proxy's sources name
 * the client by the {@code _client_name} (and {@code program_name}) connection attributes its
 * HandshakeResponse carried.
 */
public enum ClientKind {
  CONNECTOR_J("MySQL Connector/J", true),
  MARIADB_CONNECTOR_J("MariaDB Connector/J", true),
  GO_SQL_DRIVER("go-sql-driver/mysql", false),
  PYMYSQL("PyMySQL", false),
  NODE_MYSQL2("Node.js mysql2", false),
  PHP_MYSQLND("PHP mysqlnd (PDO_MySQL, mysqli)", false),
  C_API("libmysqlclient/libmariadb C API", false),
  MYSQL_CLI("mysql command-line client", false),
  /** A client that sent no connection attributes, or a name not known here. */
  UNKNOWN("a client that did not name itself", false);

  private final String label;
  private final boolean jdbc;

  ClientKind(String label, boolean jdbc) {
    this.label = label;
    this.jdbc = jdbc;
  }

  /** How reports name the kind. */
  public String label() {
    return label;
  }

  /** True for Connector/J and MariaDB Connector/J: JDBC URL, HikariCP and Spring lines apply. */
  public boolean jdbc() {
    return jdbc;
  }

  /** The kind of client a source describes. */
  public static ClientKind of(Source source) {
    String name = source.driverName() == null ? "" : source.driverName().toLowerCase(Locale.ROOT);
    if (Source.AGENT.equals(source.collector())) {
      // The agent instruments JDBC drivers only: an unnamed driver there is still JDBC.
      return name.contains("mariadb") ? MARIADB_CONNECTOR_J : CONNECTOR_J;
    }
    if (name.isEmpty()) {
      return UNKNOWN;
    }
    if (name.contains("connector/j") || name.contains("connector-j")
        || name.contains("connector-java")) {
      return name.contains("mariadb") ? MARIADB_CONNECTOR_J : CONNECTOR_J;
    }
    if (name.equals("go-mysql-driver")) {
      return GO_SQL_DRIVER;
    }
    if (name.equals("pymysql")) {
      return PYMYSQL;
    }
    if (name.equals("node-mysql-2")) {
      return NODE_MYSQL2;
    }
    if (name.equals("mysqlnd")) {
      return PHP_MYSQLND;
    }
    if (name.equals("libmysql") || name.equals("libmariadb")) {
      String program = source.property("program_name");
      if (program != null) {
        String p = program.toLowerCase(Locale.ROOT);
        if (p.equals("mysql") || p.equals("mariadb")) {
          return MYSQL_CLI;
        }
      }
      return C_API;
    }
    return UNKNOWN;
  }
}
