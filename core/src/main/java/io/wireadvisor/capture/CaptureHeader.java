package io.wireadvisor.capture;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The first line of a capture: what wrote it, against which server, and whether values are masked. */
public final class CaptureHeader {
  /** The words every capture's header carries, so that whoever opens the file knows. */
  public static final String NOTICE =
      "This file holds statements and data values from captured database traffic. Treat it as you"
          + " would the database. Passwords are never captured.";

  private final String collector;
  private final String collectorVersion;
  private final String server;
  private final long startedAtMillis;
  private final boolean valuesMasked;
  private final Map<String, String> jdbcProperties;
  private final String upstream;
  private final String driverVersion;
  private final String driverName;

  public CaptureHeader(
      String collector,
      String collectorVersion,
      String server,
      long startedAtMillis,
      boolean valuesMasked,
      Map<String, String> jdbcProperties) {
    this(collector, collectorVersion, server, startedAtMillis, valuesMasked, jdbcProperties, null, null);
  }

  /**
   * @param upstream the server the collector spoke to, {@code host:port} (the proxy's upstream),
   *     or null
   * @param driverVersion the Connector/J version the application ran, when the collector knows it
   */
  public CaptureHeader(
      String collector,
      String collectorVersion,
      String server,
      long startedAtMillis,
      boolean valuesMasked,
      Map<String, String> jdbcProperties,
      String upstream,
      String driverVersion) {
    this(collector, collectorVersion, server, startedAtMillis, valuesMasked, jdbcProperties, upstream,
        driverVersion, null);
  }

  /**
   * @param driverName the client driver as it names itself ({@code MySQL Connector/J}, the
   *     proxy's {@code _client_name}), or null
   */
  public CaptureHeader(
      String collector,
      String collectorVersion,
      String server,
      long startedAtMillis,
      boolean valuesMasked,
      Map<String, String> jdbcProperties,
      String upstream,
      String driverVersion,
      String driverName) {
    this.driverName = driverName;
    this.upstream = upstream;
    this.driverVersion = driverVersion;
    this.collector = collector;
    this.collectorVersion = collectorVersion;
    this.server = server;
    this.startedAtMillis = startedAtMillis;
    this.valuesMasked = valuesMasked;
    this.jdbcProperties =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(jdbcProperties == null ? Collections.<String, String>emptyMap() : jdbcProperties));
  }

  /** {@code proxy} or {@code agent}. */
  public String collector() {
    return collector;
  }

  public String collectorVersion() {
    return collectorVersion;
  }

  /** The server's version string as its greeting gave it, or null. */
  public String server() {
    return server;
  }

  public long startedAtMillis() {
    return startedAtMillis;
  }

  public boolean valuesMasked() {
    return valuesMasked;
  }

  /**
   * The Connector/J properties the application used, when the collector knows them (the agent);
   * empty from the proxy. Secret-named properties are never kept.
   */
  public Map<String, String> jdbcProperties() {
    return jdbcProperties;
  }

  /** The server the collector spoke to as {@code host:port} (the proxy's upstream), or null. */
  public String upstream() {
    return upstream;
  }

  /**
   * The version of the driver the application ran (e.g. {@code 8.0.33}), or null when unknown: the
   * agent's Connector/J, the proxy's first client's {@code _client_version}. Written in the
   * capture's last line when the collector learned it after the header (a proxy's clients log in
   * later); the reader puts it here.
   */
  public String driverVersion() {
    return driverVersion;
  }

  /** The driver's name ({@code MySQL Connector/J}, {@code libmariadb}, ...), or null when unknown. */
  public String driverName() {
    return driverName;
  }

  /** This header with the driver named (as the capture's last line names it). */
  public CaptureHeader withDriver(String name, String version) {
    return new CaptureHeader(collector, collectorVersion, server, startedAtMillis, valuesMasked,
        jdbcProperties, upstream, version, name);
  }
}
