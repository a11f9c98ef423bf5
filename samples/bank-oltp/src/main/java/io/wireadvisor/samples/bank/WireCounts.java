package io.wireadvisor.samples.bank;

import java.sql.SQLException;
import java.util.Map;
import java.util.Set;

/**
 * Where the per-command wire counts of a scenario come from. The first implementation reads the
 * server's own counters ({@link ServerWireCounts}); a collector (the agent's traffic profile) can
 * take its place without changing the runner or the report.
 */
public interface WireCounts {
  /** A short description for the report, e.g. {@code server counters (SHOW GLOBAL STATUS)}. */
  String source();

  /**
   * The cumulative count per MySQL command name ({@code COM_QUERY}, {@code COM_STMT_PREPARE},
   * ...) now; the runner subtracts two snapshots.
   */
  Map<String, Long> snapshot() throws SQLException;

  /** The command names whose counts are exact; others are shown as approximate. */
  Set<String> exactCommands();
}
