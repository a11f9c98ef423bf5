package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Connector/J settings in effect, as the profile's sources recorded them: explicit
 * properties first, then the {@code useConfigs=maxPerformance} bundle, then driver defaults.
 *
 * <p>A profile may hold several sources (pools, JVMs); a setting counts as in effect only when it is
 * in effect for every source that recorded properties. A proxy cannot see properties: with no such
 * source, {@link #known()} is false and rules judge by traffic alone.
 */
public final class JdbcSettings {
  /** Connector/J defaults for the properties the rules read. */
  static final Map<String, String> DEFAULTS;

  /** {@code com/mysql/cj/configurations/maxPerformance.properties} (8.0.33 .. 9.x). */
  static final Map<String, String> MAX_PERFORMANCE;

  static {
    Map<String, String> d = new HashMap<>();
    Map<String, String> m = new HashMap<>();
    for (JdbcProperty p : JdbcProperty.values()) {
      if (p.defaultValue() != null) {
        d.put(p.lowerKey(), p.defaultValue());
      }
      if (p.maxPerformanceValue() != null) {
        m.put(p.lowerKey(), p.maxPerformanceValue());
      }
    }
    DEFAULTS = Collections.unmodifiableMap(d);
    MAX_PERFORMANCE = Collections.unmodifiableMap(m);
  }

  private final List<Map<String, String>> known = new ArrayList<>();
  private final String driverVersion;

  private JdbcSettings(TrafficProfile profile) {
    String driver = null;
    for (Source s : profile.sources()) {
      if (Source.PROXY.equals(s.collector())) {
        continue; // a proxy sees no JDBC properties: its sources hold connection attributes
      }
      if (!s.properties().isEmpty()) {
        Map<String, String> lower = new HashMap<>();
        for (Map.Entry<String, String> e : s.properties().entrySet()) {
          lower.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue() == null ? "" : e.getValue());
        }
        known.add(lower);
      }
      if (s.driverVersion() != null && driver == null) {
        driver = s.driverVersion();
      }
    }
    this.driverVersion = driver;
  }

  /** The settings recorded in a profile's sources. */
  public static JdbcSettings of(TrafficProfile profile) {
    return new JdbcSettings(profile);
  }

  /** True when at least one source recorded its JDBC properties. */
  public boolean known() {
    return !known.isEmpty();
  }

  /** The Connector/J version a source reported, or null. */
  public String driverVersion() {
    return driverVersion;
  }

  /** The driver version parsed, or null when unknown. */
  public ServerVersion parsedDriverVersion() {
    if (driverVersion == null) {
      return null;
    }
    ServerVersion v = ServerVersion.parse(driverVersion);
    return v.major() == 0 ? null : v;
  }

  private static String effective(Map<String, String> props, String name) {
    String key = name.toLowerCase(Locale.ROOT);
    String v = props.get(key);
    if (v != null) {
      return v.trim();
    }
    String configs = props.get("useconfigs");
    if (configs != null && configs.toLowerCase(Locale.ROOT).contains("maxperformance")) {
      v = MAX_PERFORMANCE.get(key);
      if (v != null) {
        return v;
      }
    }
    return DEFAULTS.get(key);
  }

  /** True when the boolean property is in effect for every source that recorded properties. */
  public boolean isTrue(JdbcProperty property) {
    return isTrue(property.key());
  }

  /** True when the boolean property is off for every source that recorded properties. */
  public boolean isFalse(JdbcProperty property) {
    if (known.isEmpty()) {
      return false;
    }
    for (Map<String, String> props : known) {
      if (!"false".equalsIgnoreCase(effective(props, property.key()))) {
        return false;
      }
    }
    return true;
  }

  /** The smallest effective integer value over the sources, or Connector/J's default. */
  public long minLong(JdbcProperty property) {
    return minLong(property.key(), Long.parseLong(property.defaultValue()));
  }

  /** True when the boolean property is in effect for every source that recorded properties. */
  public boolean isTrue(String name) {
    if (known.isEmpty()) {
      return false;
    }
    for (Map<String, String> props : known) {
      if (!"true".equalsIgnoreCase(effective(props, name))) {
        return false;
      }
    }
    return true;
  }

  /** The smallest effective integer value over the sources, or the default when none is known. */
  public long minLong(String name, long fallback) {
    long min = Long.MAX_VALUE;
    for (Map<String, String> props : known) {
      String v = effective(props, name);
      try {
        min = Math.min(min, v == null ? fallback : Long.parseLong(v));
      } catch (NumberFormatException e) {
        min = Math.min(min, fallback);
      }
    }
    if (min == Long.MAX_VALUE) {
      String d = DEFAULTS.get(name.toLowerCase(Locale.ROOT));
      return d == null ? fallback : Long.parseLong(d);
    }
    return min;
  }

  /** True when every source with properties uses {@code useConfigs=maxPerformance}. */
  public boolean usesMaxPerformance() {
    if (known.isEmpty()) {
      return false;
    }
    for (Map<String, String> props : known) {
      String configs = props.get("useconfigs");
      if (configs == null || !configs.toLowerCase(Locale.ROOT).contains("maxperformance")) {
        return false;
      }
    }
    return true;
  }
}
