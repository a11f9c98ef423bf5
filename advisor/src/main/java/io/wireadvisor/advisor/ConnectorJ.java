package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerVersion;

/**
 * Connector/J versions known to misbehave with a setting the advisor recommends.
 *
 * <p>8.0.x through 8.2.0 with {@code useServerPrepStmts=true&cachePrepStmts=true} send
 * COM_STMT_RESET before every execution of a statement taken back from the statement cache (and
 * before every later execution of it): {@code ServerPreparedQuery.clearParameters(true)}, which
 * {@code close()} (returning to the cache) and {@code ConnectionImpl.prepareStatement} (taking from
 * it) both call, sets {@code longParameterSwitchDetected} to {@code !(hadLongData)}, i.e. true
 * when no long data was sent, and {@code prepareExecutePacket} then calls {@code
 * serverResetStatement()}, which never clears the flag. Read in the sources of 8.0.20, 8.0.26,
 * 8.0.28, 8.0.30, 8.0.33, 8.1.0 and 8.2.0; 8.3.0 sets the flag to {@code clearServerParameters &&
 * hadLongData} and clears it after a reset (as do 8.4.0, 9.0.0–9.3.0 and 9.5.0). Measured on the
 * server's own counters by {@code DriverStatementResetIT}: 298 RESET for 300 EXECUTE with 8.0.30,
 * 8.0.33 and 8.2.0, none with 8.3.0, 8.4.0 and 9.5.0 (TiDB v8.4; 8.0.33, 8.4.0, 9.5.0 on MariaDB
 * 11.4.5 too).
 */
final class ConnectorJ {
  /** The first release whose statement cache sends no COM_STMT_RESET on reuse. */
  static final ServerVersion RESET_FIXED = new ServerVersion(8, 3, 0);

  /** The newest release the project tests (testkit's TestVersions.DRIVER_VERSION). */
  static final String NEWEST_TESTED = "9.5.0";

  private ConnectorJ() {}

  /** True for the versions whose statement cache sends COM_STMT_RESET on every reuse. */
  static boolean resetsCachedStatements(ServerVersion driver) {
    return driver != null && driver.major() == 8 && driver.compareTo(RESET_FIXED) < 0;
  }

  /**
   * The oldest Connector/J of the profile's sources whose statement cache resets, or null when no
   * source recorded such a version (a proxy records none: then only the traffic can tell).
   */
  static ServerVersion resettingDriver(TrafficProfile profile) {
    ServerVersion oldest = null;
    for (Source s : profile.sources()) {
      if (s.driverVersion() == null) {
        continue;
      }
      ServerVersion v = ServerVersion.parse(s.driverVersion());
      if (resetsCachedStatements(v) && (oldest == null || v.compareTo(oldest) < 0)) {
        oldest = v;
      }
    }
    return oldest;
  }

  /** True when some source recorded a driver version (the agent does; the proxy cannot). */
  static boolean driverRecorded(TrafficProfile profile) {
    for (Source s : profile.sources()) {
      if (s.driverVersion() != null) {
        return true;
      }
    }
    return false;
  }

  /** Why a setting is withheld for {@code driver}, for reports. */
  static String resetReason(ServerVersion driver) {
    return "Connector/J "
        + driver
        + " with useServerPrepStmts=true and cachePrepStmts=true sends a COM_STMT_RESET before"
        + " every execution of a statement taken back from its cache (fixed in "
        + RESET_FIXED
        + ")";
  }
}
