package io.wireadvisor.profile;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where (part of) a profile came from: one collector instance and one driver configuration. A
 * JVM with two pools of different JDBC properties writes two sources; merging profiles from many
 * JVMs or proxies keeps each distinct source once, with the union of its time windows.
 */
public final class Source implements Comparable<Source> {
  /** Collector kinds. */
  public static final String AGENT = "agent";

  public static final String PROXY = "proxy";

  private final String collector;
  private final String collectorVersion;
  private final String instance;
  private final String driverName;
  private final String driverVersion;
  private final String serverVersion;
  private final String isolation;
  private final String jdbcUrl;
  private final TreeMap<String, String> properties;
  private long startMillis;
  private long endMillis;

  /**
   * @param collector {@link #AGENT} or {@link #PROXY}
   * @param instance which process: {@code host:pid} for the agent, the listen address for a proxy
   * @param jdbcUrl the URL without credentials, or null
   * @param properties the effective JDBC properties (never a password), may be empty
   */
  public Source(
      String collector,
      String collectorVersion,
      String instance,
      String driverName,
      String driverVersion,
      String serverVersion,
      String isolation,
      String jdbcUrl,
      Map<String, String> properties,
      long startMillis,
      long endMillis) {
    this.collector = Objects.requireNonNull(collector, "collector");
    this.collectorVersion = collectorVersion;
    this.instance = instance;
    this.driverName = driverName;
    this.driverVersion = driverVersion;
    this.serverVersion = serverVersion;
    this.isolation = isolation;
    this.jdbcUrl = jdbcUrl;
    this.properties = new TreeMap<>();
    if (properties != null) {
      for (Map.Entry<String, String> e : properties.entrySet()) {
        if (!isSecret(e.getKey())) {
          this.properties.put(e.getKey(), e.getValue());
        }
      }
    }
    this.startMillis = startMillis;
    this.endMillis = endMillis;
  }

  /**
   * Property names that must never reach a profile: any that contains {@code password}, {@code
   * pwd}, {@code secret}, {@code token} or {@code key} (case-insensitive).
   */
  public static boolean isSecret(String propertyName) {
    String p = propertyName.toLowerCase(java.util.Locale.ROOT);
    return p.contains("password") || p.contains("pwd") || p.contains("secret")
        || p.contains("token") || p.contains("key");
  }

  public String collector() {
    return collector;
  }

  public String collectorVersion() {
    return collectorVersion;
  }

  public String instance() {
    return instance;
  }

  public String driverName() {
    return driverName;
  }

  public String driverVersion() {
    return driverVersion;
  }

  public String serverVersion() {
    return serverVersion;
  }

  /** Transaction isolation as the server names it, e.g. {@code READ-COMMITTED}, or null. */
  public String isolation() {
    return isolation;
  }

  public String jdbcUrl() {
    return jdbcUrl;
  }

  public Map<String, String> properties() {
    return Collections.unmodifiableMap(properties);
  }

  /** A property's effective value, or null when the collector did not record it. */
  public String property(String name) {
    return properties.get(name);
  }

  public long startMillis() {
    return startMillis;
  }

  public long endMillis() {
    return endMillis;
  }

  /** The client key of sources without a client name ({@link #clientKey()}). */
  public static final String UNNAMED_CLIENT = "(unnamed)";

  /**
   * The client this source names, as shapes and command counts are attributed to it ({@link
   * ShapeStats#clients()}): the driver name, with {@code program_name} after a {@code " / "} when
   * the source has one (the mysql CLI and sysbench share libmariadb's name); {@link
   * #UNNAMED_CLIENT} without a driver name. Versions are not part of it: one client, any version.
   */
  public String clientKey() {
    return clientKey(driverName, properties.get("program_name"));
  }

  /** {@link #clientKey()} of a driver name and program name (either may be null). */
  public static String clientKey(String driverName, String programName) {
    String name = driverName == null || driverName.isEmpty() ? UNNAMED_CLIENT : driverName;
    return programName == null || programName.isEmpty() ? name : name + " / " + programName;
  }

  /** True when {@code other} describes the same collector and configuration (windows aside). */
  public boolean sameOrigin(Source other) {
    return identity().equals(other.identity());
  }

  private String identity() {
    return collector
        + '\u0000'
        + collectorVersion
        + '\u0000'
        + instance
        + '\u0000'
        + driverName
        + '\u0000'
        + driverVersion
        + '\u0000'
        + serverVersion
        + '\u0000'
        + isolation
        + '\u0000'
        + jdbcUrl
        + '\u0000'
        + properties;
  }

  /** Widens this source's window to include {@code other}'s. */
  void widen(Source other) {
    startMillis = Math.min(startMillis, other.startMillis);
    endMillis = Math.max(endMillis, other.endMillis);
  }

  public Source copy() {
    return new Source(
        collector,
        collectorVersion,
        instance,
        driverName,
        driverVersion,
        serverVersion,
        isolation,
        jdbcUrl,
        properties,
        startMillis,
        endMillis);
  }

  @Override
  public int compareTo(Source o) {
    int c = identity().compareTo(o.identity());
    if (c != 0) {
      return c;
    }
    c = Long.compare(startMillis, o.startMillis);
    return c != 0 ? c : Long.compare(endMillis, o.endMillis);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Source
        && identity().equals(((Source) o).identity())
        && startMillis == ((Source) o).startMillis
        && endMillis == ((Source) o).endMillis;
  }

  @Override
  public int hashCode() {
    return identity().hashCode();
  }

  @Override
  public String toString() {
    return "Source{" + collector + " " + instance + " " + driverName + " " + driverVersion + "}";
  }
}
