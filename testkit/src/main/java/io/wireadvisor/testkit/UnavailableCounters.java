package io.wireadvisor.testkit;

import java.sql.SQLException;
import java.util.Set;

/** Counters for a server whose counts cannot be read; says why instead of returning zeros. */
final class UnavailableCounters implements ServerCounters {
  private final String reason;

  UnavailableCounters(String reason) {
    this.reason = reason;
  }

  @Override
  public CounterSnapshot snapshot() throws SQLException {
    throw new SQLException("server counters unavailable: " + reason);
  }

  @Override
  public Set<String> exactCommands() {
    return Set.of();
  }
}
