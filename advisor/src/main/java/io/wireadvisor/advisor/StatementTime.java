package io.wireadvisor.advisor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One statement shape ranked by the time the application spent on it (count &times; latency):
 * the rows of the report's "top statements by time".
 *
 * <p>Filled by {@link Advisor} (issue 14); read by every report.
 */
public final class StatementTime {
  private final String digest;
  private final String tidbDigest;
  private final String text;
  private final String kind;
  private final long executions;
  private final Map<String, Long> commands;
  private final long probes;
  private final double seconds;
  private final double share;
  private final int maxSqlLength;
  private final int sqlLimit;
  private final ServerSide server;

  /**
   * What TiDB's {@code STATEMENTS_SUMMARY} says about the same statement (joined by digest text):
   * executions, plan-cache hits, time and keys processed on the server.
   */
  public static final class ServerSide {
    private final long executions;
    private final long planCacheHits;
    private final double seconds;
    private final double avgProcessedKeys;

    public ServerSide(long executions, long planCacheHits, double seconds, double avgProcessedKeys) {
      this.executions = executions;
      this.planCacheHits = planCacheHits;
      this.seconds = seconds;
      this.avgProcessedKeys = avgProcessedKeys;
    }

    public long executions() {
      return executions;
    }

    public long planCacheHits() {
      return planCacheHits;
    }

    /** Time the server spent on the statement's executions, in seconds. */
    public double seconds() {
      return seconds;
    }

    /** Average keys processed per execution; -1 when unknown. */
    public double avgProcessedKeys() {
      return avgProcessedKeys;
    }
  }

  /**
   * @param digest the profile's own shape digest
   * @param tidbDigest TiDB's digest of the same statement (STATEMENTS_SUMMARY {@code DIGEST}), or null
   *     when no TiDB was inspected
   * @param text the whole shape text, already redacted (never cut)
   * @param kind statement kind, e.g. {@code SELECT}
   * @param executions business executions of the shape
   * @param commands wire commands of this shape by command name ({@code COM_QUERY},
   *     {@code COM_STMT_PREPARE}, {@code COM_STMT_EXECUTE}, {@code COM_STMT_CLOSE}, ...), in that
   *     order
   * @param probes session-variable probes attributed to this shape (0 when none)
   * @param seconds time the application spent on the shape in the window
   * @param share seconds over the whole profile's measured time, 0..1
   * @param maxSqlLength longest SQL text of the shape, in characters
   * @param sqlLimit the effective {@code prepStmtCacheSqlLimit} the length is judged against
   * @param server TiDB's figures for the same statement, or null
   */
  public StatementTime(
      String digest,
      String tidbDigest,
      String text,
      String kind,
      long executions,
      Map<String, Long> commands,
      long probes,
      double seconds,
      double share,
      int maxSqlLength,
      int sqlLimit,
      ServerSide server) {
    this.server = server;
    this.digest = digest;
    this.tidbDigest = tidbDigest;
    this.text = text;
    this.kind = kind;
    this.executions = executions;
    this.commands = Collections.unmodifiableMap(new LinkedHashMap<>(commands));
    this.probes = probes;
    this.seconds = seconds;
    this.share = share;
    this.maxSqlLength = maxSqlLength;
    this.sqlLimit = sqlLimit;
  }

  public String digest() {
    return digest;
  }

  /** TiDB's figures for this statement from STATEMENTS_SUMMARY, or null when none matched. */
  public ServerSide server() {
    return server;
  }

  /** TiDB's digest, or null. */
  public String tidbDigest() {
    return tidbDigest;
  }

  public String text() {
    return text;
  }

  public String kind() {
    return kind;
  }

  public long executions() {
    return executions;
  }

  public Map<String, Long> commands() {
    return commands;
  }

  public long probes() {
    return probes;
  }

  public double seconds() {
    return seconds;
  }

  public double share() {
    return share;
  }

  public int maxSqlLength() {
    return maxSqlLength;
  }

  /** {@link #sqlLimit()} of a shape no JDBC client sent: Connector/J's limit does not apply. */
  public static final int NO_SQL_LIMIT = 0;

  /**
   * The effective {@code prepStmtCacheSqlLimit} the length is judged against, or {@link
   * #NO_SQL_LIMIT} when no JDBC client sent the shape (the limit is Connector/J's alone).
   */
  public int sqlLimit() {
    return sqlLimit;
  }

  /** True when Connector/J's statement-cache limit applies to this shape ({@link #sqlLimit()}). */
  public boolean hasSqlLimit() {
    return sqlLimit != NO_SQL_LIMIT;
  }

  /** True when the shape is longer than the statement-cache limit (never cached client-side). */
  public boolean aboveSqlLimit() {
    return hasSqlLimit() && maxSqlLength > sqlLimit;
  }

  /** "QUERY", "PREPARE/EXECUTE/CLOSE", "EXECUTE" ...: the wire pattern in short. */
  public String wirePattern() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : commands.entrySet()) {
      if (e.getValue() > 0) {
        if (sb.length() > 0) {
          sb.append('/');
        }
        String name = e.getKey();
        sb.append(name.startsWith("COM_STMT_") ? name.substring(9) : name.replace("COM_", ""));
      }
    }
    return sb.toString();
  }
}
