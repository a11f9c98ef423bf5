package io.wireadvisor.profile;

/** Per-connection quantities whose distribution over connections a profile keeps. */
public enum ConnectionMetric {
  /** COM_STMT_PREPARE commands the connection sent. */
  PREPARED_STATEMENTS("preparedStatements"),
  /** Distinct shapes the connection prepared: compare with {@code prepStmtCacheSize}. */
  DISTINCT_PREPARED_SHAPES("distinctPreparedShapes"),
  /** Distinct shapes the connection ran by any means. */
  DISTINCT_SHAPES("distinctShapes"),
  /** Commands of any type the connection sent. */
  COMMANDS("commands"),
  /** Milliseconds from connect to close (or to the snapshot, for a connection still open). */
  LIFETIME_MILLIS("lifetimeMillis");

  private final String jsonName;

  ConnectionMetric(String jsonName) {
    this.jsonName = jsonName;
  }

  public String jsonName() {
    return jsonName;
  }

  public static ConnectionMetric fromJsonName(String name) {
    for (ConnectionMetric m : values()) {
      if (m.jsonName.equals(name)) {
        return m;
      }
    }
    return null;
  }
}
