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

  private CaptureHeader(Builder b) {
    this.collector = b.collector;
    this.collectorVersion = b.collectorVersion;
    this.server = b.server;
    this.startedAtMillis = b.startedAtMillis;
    this.valuesMasked = b.valuesMasked;
    this.jdbcProperties = Collections.unmodifiableMap(new LinkedHashMap<>(b.jdbcProperties));
    this.upstream = b.upstream;
    this.driverName = b.driverName;
    this.driverVersion = b.driverVersion;
  }

  /**
   * A header of {@code collector} ({@code proxy} or {@code agent}) at {@code collectorVersion}
   * (null when unknown); every other field is optional: no server, started at 0, values not
   * masked, no JDBC properties, no upstream, no driver.
   */
  public static Builder builder(String collector, String collectorVersion) {
    return new Builder(collector, collectorVersion);
  }

  /** The fields of a {@link CaptureHeader}, each set at most once by its caller. */
  public static final class Builder {
    private final String collector;
    private final String collectorVersion;
    private String server;
    private long startedAtMillis;
    private boolean valuesMasked;
    private Map<String, String> jdbcProperties = Collections.emptyMap();
    private String upstream;
    private String driverName;
    private String driverVersion;

    private Builder(String collector, String collectorVersion) {
      this.collector = collector;
      this.collectorVersion = collectorVersion;
    }

    /** The server's version string as its greeting gave it, or null. */
    public Builder server(String server) {
      this.server = server;
      return this;
    }

    public Builder startedAtMillis(long startedAtMillis) {
      this.startedAtMillis = startedAtMillis;
      return this;
    }

    public Builder valuesMasked(boolean valuesMasked) {
      this.valuesMasked = valuesMasked;
      return this;
    }

    /** The Connector/J properties the application used (copied; null is none). */
    public Builder jdbcProperties(Map<String, String> jdbcProperties) {
      this.jdbcProperties =
          jdbcProperties == null ? Collections.<String, String>emptyMap() : jdbcProperties;
      return this;
    }

    /** The server the collector spoke to, {@code host:port} (the proxy's upstream), or null. */
    public Builder upstream(String upstream) {
      this.upstream = upstream;
      return this;
    }

    /**
     * The client driver as it names itself ({@code MySQL Connector/J}, the proxy's {@code
     * _client_name}) and its version, when the collector knows them; either may be null.
     */
    public Builder driver(String name, String version) {
      this.driverName = name;
      this.driverVersion = version;
      return this;
    }

    public CaptureHeader build() {
      return new CaptureHeader(this);
    }
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
    return builder(collector, collectorVersion)
        .server(server)
        .startedAtMillis(startedAtMillis)
        .valuesMasked(valuesMasked)
        .jdbcProperties(jdbcProperties)
        .upstream(upstream)
        .driver(name, version)
        .build();
  }
}
