package io.wireadvisor.samples.bank;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.ServerCounters;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;

/** Wire counts from the server's own command counters (testkit {@link ServerCounters}). */
public final class ServerWireCounts implements WireCounts {
  private final ServerCounters counters;
  private final String source;

  public ServerWireCounts(DatabaseServer server) {
    this.counters = server.counters();
    this.source =
        server.isTiDB()
            ? "server counters (TiDB tidb_server_query_total)"
            : "server counters (SHOW GLOBAL STATUS)";
  }

  @Override
  public String source() {
    return source;
  }

  @Override
  public Map<String, Long> snapshot() throws SQLException {
    return counters.snapshot().asMap();
  }

  @Override
  public Set<String> exactCommands() {
    return counters.exactCommands();
  }
}
