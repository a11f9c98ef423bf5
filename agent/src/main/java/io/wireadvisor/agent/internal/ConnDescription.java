package io.wireadvisor.agent.internal;

import java.util.Map;

/**
 * One connection's configuration as the agent records it in a source: read from driver state
 * when the connection was set up, with the isolation its statements run under. Immutable; an
 * isolation change makes a new one ({@link #withIsolation}).
 */
public final class ConnDescription {
  public final String driverVersion;
  public final String serverVersion;
  public final String isolation;
  /** Sanitized (no user info, no query string); null when unknown. */
  public final String url;
  /** Non-secret effective JDBC properties, sorted. */
  public final Map<String, String> properties;
  /** {@link io.wireadvisor.profile.ProfileRecorder#isolationIndex} of {@link #isolation}. */
  public final int isolationIndex;

  public ConnDescription(
      String driverVersion,
      String serverVersion,
      String isolation,
      String url,
      Map<String, String> properties) {
    this.driverVersion = driverVersion;
    this.serverVersion = serverVersion;
    this.isolation = isolation;
    this.url = url;
    this.properties = properties;
    this.isolationIndex = io.wireadvisor.profile.ProfileRecorder.isolationIndex(isolation);
  }

  /** The same configuration under {@code newIsolation}. */
  public ConnDescription withIsolation(String newIsolation) {
    return new ConnDescription(driverVersion, serverVersion, newIsolation, url, properties);
  }

  /** Identifies a distinct source. */
  public String key() {
    return driverVersion + '|' + serverVersion + '|' + isolation + '|' + url + '|' + properties;
  }

  /**
   * The server-variable spelling ({@code READ-COMMITTED}, ...) of a JDBC isolation constant, null
   * for anything else ({@code TRANSACTION_NONE}, unknown values).
   */
  public static String isolationName(int jdbcLevel) {
    switch (jdbcLevel) {
      case 1: // Connection.TRANSACTION_READ_UNCOMMITTED
        return "READ-UNCOMMITTED";
      case 2: // Connection.TRANSACTION_READ_COMMITTED
        return "READ-COMMITTED";
      case 4: // Connection.TRANSACTION_REPEATABLE_READ
        return "REPEATABLE-READ";
      case 8: // Connection.TRANSACTION_SERIALIZABLE
        return "SERIALIZABLE";
      default:
        return null;
    }
  }
}
