package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.ServerCounters;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

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

  /**
   * Asserts that the proxy's count of every exactly-counted command equals the server's counter
   * delta, after the server's own ways of counting: the commands it folds into COM_QUERY, and
   * whether it counts the COM_STMT_CLOSE Connector/J sends after a failed prepare.
   */
  void assertCountsEqual(TrafficProfile profile, CounterSnapshot delta) {
    ServerCounters counters = server.counters();
    assertThat(counters.exactCommands()).isNotEmpty();
    long unknownCloses = proxy.stats().closesOfUnknownStatements.sum();
    assertThat(unknownCloses).isLessThanOrEqualTo(proxy.stats().preparesFailed.sum());
    boolean unknownClosesCounted = counters.countsClosesOfUnknownStatements();
    Map<String, Long> counted =
        counters.asCounted(
            command -> {
              long n = profile.count(CommandType.fromWireName(command));
              return command.equals(Commands.COM_STMT_CLOSE) && !unknownClosesCounted
                  ? n - unknownCloses
                  : n;
            });
    assertThat(counted)
        .as("proxy counts vs server counter deltas on %s", server)
        .isEqualTo(counters.exactDeltas(delta));
  }
}
