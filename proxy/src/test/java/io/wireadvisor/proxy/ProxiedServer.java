package io.wireadvisor.proxy;

import io.wireadvisor.testkit.DatabaseServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A {@link WireProxy} in front of the test server, started in-process. */
final class ProxiedServer implements AutoCloseable {
  final DatabaseServer server;
  final WireProxy proxy;

  private ProxiedServer(DatabaseServer server, WireProxy proxy) {
    this.server = server;
    this.proxy = proxy;
  }

  static ProxiedServer start(DatabaseServer server) throws IOException, InterruptedException {
    return start(server, ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()));
  }

  static ProxiedServer start(DatabaseServer server, ProxyConfig config)
      throws IOException, InterruptedException {
    return new ProxiedServer(server, WireProxy.start(config));
  }

  /** The Connector/J URL of {@code database} through the proxy. */
  String url(String database, String properties) {
    return url(proxy.port(), database, properties);
  }

  static String url(int port, String database, String properties) {
    return "jdbc:mysql://127.0.0.1:"
        + port
        + "/"
        + (database == null ? "" : database)
        + (properties == null || properties.isEmpty() ? "" : "?" + properties);
  }

  Connection connect(String database, String properties) throws SQLException {
    return DriverManager.getConnection(url(database, properties), server.user(), server.password());
  }

  @Override
  public void close() {
    proxy.close();
  }
}
