package io.wireadvisor.advisor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The first screen's answer: round trips per business statement now and after the advice, the
 * estimated time saved, the server and the window.
 *
 * <p>Filled by {@link Advisor} (issue 14); read by every report.
 */
public final class Outlook {
  private final double windowSeconds;
  private final String server;
  private final ServerKind serverKind;
  private final long businessStatements;
  private final Map<String, Long> commandsNow;
  private final Map<String, Long> commandsAfter;
  private final double measuredSeconds;
  private final double secondsSaved;
  private final java.util.List<String> jdbcUrls;
  private final java.util.List<String> notEstimated;
  /** Business statements after the advice (estimated); {@link #businessStatements} unless set. */
  private final long businessStatementsAfter;
  private final String cpuLine;

  /** Which kind of server the profile (or inspection) says it is. */
  public enum ServerKind {
    TIDB,
    MYSQL,
    MARIADB,
    UNKNOWN
  }

  /**
   * @param windowSeconds the profile's window
   * @param server one line naming the server (version), from inspection or the profile; may be
   *     null when neither says
   * @param serverKind which kind of server
   * @param businessStatements business statements executed in the window (probes excluded)
   * @param commandsNow wire commands in the window by type, probes split out under the key
   *     {@code "probes"} (so a {@code COM_QUERY} bar holds business queries only)
   * @param commandsAfter the same after every recommendation is applied (estimated)
   * @param measuredSeconds time the application spent on wire commands in the window
   * @param secondsSaved estimated time saved in the window by all recommendations together
   * @param jdbcUrls the JDBC URLs (without credentials or parameters) the application used, as the
   *     collector recorded them: the reports build the complete URLs to paste from them
   * @param notEstimated gains the advised changes bring that {@code secondsSaved} does not count,
   *     one short phrase each (e.g. the driver's own CPU per statement): the first screen names them;
   *     may be empty
   * @param businessStatementsAfter business statements after every recommendation (estimated):
   *     fewer than now when a change removes statements (N+1 loads batched, batches rewritten into
   *     multi-row statements), so that round trips per statement after divide by the statements
   *     that remain
   * @param cpuLine what the CPU-bound model found (the host's busy share, CPU per statement, what
   *     the changes free), or null when the host was not CPU-bound or its CPU not measured
   */
  public Outlook(
      double windowSeconds,
      String server,
      ServerKind serverKind,
      long businessStatements,
      Map<String, Long> commandsNow,
      Map<String, Long> commandsAfter,
      double measuredSeconds,
      double secondsSaved,
      java.util.List<String> jdbcUrls,
      java.util.List<String> notEstimated,
      long businessStatementsAfter,
      String cpuLine) {
    this.cpuLine = cpuLine;
    this.notEstimated = java.util.Collections.unmodifiableList(new java.util.ArrayList<String>(notEstimated));
    this.windowSeconds = windowSeconds;
    this.server = server;
    this.serverKind = serverKind;
    this.businessStatements = businessStatements;
    this.commandsNow = Collections.unmodifiableMap(new LinkedHashMap<>(commandsNow));
    this.commandsAfter = Collections.unmodifiableMap(new LinkedHashMap<>(commandsAfter));
    this.measuredSeconds = measuredSeconds;
    this.secondsSaved = Math.max(0, secondsSaved);
    this.jdbcUrls = java.util.Collections.unmodifiableList(new java.util.ArrayList<String>(jdbcUrls));
    this.businessStatementsAfter = Math.max(0, businessStatementsAfter);
  }

  /** Business statements after every recommendation (estimated). */
  public long businessStatementsAfter() {
    return businessStatementsAfter;
  }

  /**
   * The CPU-bound model's line (docs/advisor.md, "CPU-bound hosts"): on a host whose cores were busy,
   * the CPU per statement and the share the changes free, which the saving takes when larger than
   * the latency estimate; null when the host was not CPU-bound or its CPU was not measured.
   */
  public String cpuLine() {
    return cpuLine;
  }

  /** Gains of the advised changes the estimated saving leaves out, one phrase each; may be empty. */
  public java.util.List<String> notEstimated() {
    return notEstimated;
  }

  /** The application's JDBC URLs (sanitized), distinct, in order; empty when none was recorded. */
  public java.util.List<String> jdbcUrls() {
    return jdbcUrls;
  }

  public double windowSeconds() {
    return windowSeconds;
  }

  /** May be null. */
  public String server() {
    return server;
  }

  public ServerKind serverKind() {
    return serverKind;
  }

  public long businessStatements() {
    return businessStatements;
  }

  public Map<String, Long> commandsNow() {
    return commandsNow;
  }

  public Map<String, Long> commandsAfter() {
    return commandsAfter;
  }

  public double measuredSeconds() {
    return measuredSeconds;
  }

  public double secondsSaved() {
    return secondsSaved;
  }

  /** Wire round trips per business statement now (0 when there were none). */
  public double roundTripsPerStatementNow() {
    return perStatement(commandsNow, businessStatements);
  }

  /**
   * Estimated wire round trips per business statement after the advice: the commands after over
   * the statements after ({@link #businessStatementsAfter}).
   */
  public double roundTripsPerStatementAfter() {
    return perStatement(commandsAfter, businessStatementsAfter);
  }

  /** Estimated wire commands after the advice, every type. */
  public long commandsAfterTotal() {
    long sum = 0;
    for (long v : commandsAfter.values()) {
      sum += v;
    }
    return sum;
  }

  private static double perStatement(Map<String, Long> commands, long statements) {
    if (statements == 0) {
      return 0;
    }
    long sum = 0;
    for (long v : commands.values()) {
      sum += v;
    }
    return (double) sum / statements;
  }
}
