package io.wireadvisor.replay;

import java.net.URI;

/**
 * The server to replay against: host, port and database from a {@code jdbc:mysql://host:port/db}
 * URL (its parameters are ignored: the configuration under test sets them), and the credentials.
 */
public record ReplayTarget(String host, int port, String database, String user, String password) {
  /** Parses {@code jdbc:mysql://host[:port][/database][?…]}; the message names what is wrong. */
  public static ReplayTarget parse(String jdbcUrl, String user, String password) {
    String prefix = "jdbc:mysql://";
    if (jdbcUrl == null || !jdbcUrl.startsWith(prefix)) {
      throw new IllegalArgumentException("--jdbc-url must start with " + prefix + ", was: " + jdbcUrl);
    }
    URI u;
    try {
      u = URI.create("mysql://" + jdbcUrl.substring(prefix.length()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--jdbc-url is not a URL: " + e.getMessage());
    }
    if (u.getHost() == null) {
      throw new IllegalArgumentException("--jdbc-url names no single host (replay takes one server): " + jdbcUrl);
    }
    if (u.getUserInfo() != null) {
      throw new IllegalArgumentException("--jdbc-url must not carry credentials; use --user and WIRE_ADVISOR_PASSWORD or --password-file");
    }
    String path = u.getPath() == null ? "" : u.getPath();
    String db = path.startsWith("/") ? path.substring(1) : path;
    return new ReplayTarget(u.getHost(), u.getPort() < 0 ? 3306 : u.getPort(), db, user, password == null ? "" : password);
  }
}
