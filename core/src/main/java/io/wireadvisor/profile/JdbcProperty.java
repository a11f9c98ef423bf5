package io.wireadvisor.profile;

import java.util.Locale;

/**
 * The Connector/J connection properties wire-advisor records and judges: the agent reads these
 * from each connection (and only these), a profile's {@link Source#properties()} holds them by
 * {@link #key()}, and the advisor's rules read and recommend them through this type, so a name is
 * written once. Defaults are Connector/J 8.0.33–9.x's ({@code PropertyDefinitions}); the
 * {@code maxPerformance} column is {@code com/mysql/cj/configurations/maxPerformance.properties}.
 * A null default means the rules do not read the property's default.
 */
public enum JdbcProperty {
  USE_SERVER_PREP_STMTS("useServerPrepStmts", "false", null),
  CACHE_PREP_STMTS("cachePrepStmts", "false", "true"),
  PREP_STMT_CACHE_SIZE("prepStmtCacheSize", "25", null),
  PREP_STMT_CACHE_SQL_LIMIT("prepStmtCacheSqlLimit", "256", null),
  USE_CONFIGS("useConfigs", null, null),
  USE_LOCAL_SESSION_STATE("useLocalSessionState", "false", "true"),
  USE_LOCAL_TRANSACTION_STATE("useLocalTransactionState", null, null),
  REWRITE_BATCHED_STATEMENTS("rewriteBatchedStatements", "false", null),
  ELIDE_SET_AUTO_COMMITS("elideSetAutoCommits", null, "true"),
  ALWAYS_SEND_SET_ISOLATION("alwaysSendSetIsolation", "true", "false"),
  CACHE_SERVER_CONFIGURATION("cacheServerConfiguration", "false", "true"),
  CACHE_RESULT_SET_METADATA("cacheResultSetMetadata", null, null),
  CACHE_CALLABLE_STMTS("cacheCallableStmts", null, "true"),
  USE_CURSOR_FETCH("useCursorFetch", null, null),
  DEFAULT_FETCH_SIZE("defaultFetchSize", null, null),
  USE_COMPRESSION("useCompression", null, null),
  ENABLE_QUERY_TIMEOUTS("enableQueryTimeouts", null, "false"),
  MAINTAIN_TIME_STATS("maintainTimeStats", null, null),
  CONNECTION_ATTRIBUTES("connectionAttributes", null, "none"),
  ALLOW_MULTI_QUERIES("allowMultiQueries", null, null),
  ZERO_DATE_TIME_BEHAVIOR("zeroDateTimeBehavior", null, null),
  CHARACTER_ENCODING("characterEncoding", null, null),
  CONNECTION_TIME_ZONE("connectionTimeZone", null, null),
  SSL_MODE("sslMode", null, null),
  /** {@code Connection.setReadOnly} sends {@code SET SESSION TRANSACTION READ ONLY|WRITE} when true. */
  READ_ONLY_PROPAGATES_TO_SERVER("readOnlyPropagatesToServer", "true", null);

  private final String key;
  private final String defaultValue;
  private final String maxPerformanceValue;

  JdbcProperty(String key, String defaultValue, String maxPerformanceValue) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.maxPerformanceValue = maxPerformanceValue;
  }

  /** The property's name as written in a JDBC URL or {@code Properties} (e.g. {@code useServerPrepStmts}). */
  public String key() {
    return key;
  }

  /** Connector/J's default, or null when the rules do not read it. */
  public String defaultValue() {
    return defaultValue;
  }

  /** The value {@code useConfigs=maxPerformance} sets, or null when it leaves the property alone. */
  public String maxPerformanceValue() {
    return maxPerformanceValue;
  }

  /** The property named {@code key} (Connector/J reads names case-insensitively), or null. */
  public static JdbcProperty byKey(String key) {
    for (JdbcProperty p : values()) {
      if (p.key.equalsIgnoreCase(key)) {
        return p;
      }
    }
    return null;
  }

  /** Every key, in declaration order (the order the agent reads them in). */
  public static String[] keys() {
    JdbcProperty[] all = values();
    String[] keys = new String[all.length];
    for (int i = 0; i < all.length; i++) {
      keys[i] = all[i].key;
    }
    return keys;
  }

  /** The key lower-cased, as {@code JdbcSettings} compares them. */
  public String lowerKey() {
    return key.toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return key;
  }
}
