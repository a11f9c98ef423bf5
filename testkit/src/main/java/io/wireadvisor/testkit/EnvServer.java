package io.wireadvisor.testkit;

import java.net.URI;
import java.sql.SQLException;

/** A server the user pointed at with {@code WIRE_ADVISOR_JDBC_URL}; never stopped by us. */
final class EnvServer extends AbstractDatabaseServer {
  private EnvServer(String host, int port, String user, String password, String statusUrl) {
    super("env", host, port, user, password, statusUrl);
  }

  /**
   * Connects to the given URL once. Only host and port are taken from it: each test chooses its
   * own database and driver properties.
   *
   * @throws IllegalStateException naming the URL when it is malformed or unreachable
   */
  static EnvServer connect(String url, String user, String password, String statusUrl) {
    if (url == null || !url.startsWith("jdbc:mysql://")) {
      throw new IllegalStateException(
          "WIRE_ADVISOR_JDBC_URL must look like jdbc:mysql://host:port/, got: " + url);
    }
    URI uri;
    try {
      uri = URI.create(url.substring("jdbc:".length()));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("WIRE_ADVISOR_JDBC_URL is not a valid URL: " + url, e);
    }
    if (uri.getHost() == null) {
      throw new IllegalStateException("WIRE_ADVISOR_JDBC_URL has no host: " + url);
    }
    EnvServer server =
        new EnvServer(
            uri.getHost().replaceAll("^\\[|\\]$", ""),
            uri.getPort() < 0 ? 3306 : uri.getPort(),
            user == null || user.isEmpty() ? "root" : user,
            password,
            statusUrl);
    try {
      server.probe();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot connect to WIRE_ADVISOR_JDBC_URL " + url + " as " + server.user() + ": " + e.getMessage(), e);
    }
    return server;
  }

  @Override
  public void close() {
    closeCounters();
  }
}
