package io.wireadvisor.samples.bank;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * One configuration {@code prove} runs: Connector/J properties (the JDBC URL's parameters, which
 * are also the pool's {@code dataSourceProperties}), HikariCP settings, server globals and cached
 * tables. Immutable; {@link #with} gives the next step's configuration.
 *
 * <p>Property names are matched case-insensitively, as Connector/J matches them, so a recommended
 * {@code useServerPrepStmts=true} replaces the baseline's {@code useserverprepstmts=false} in
 * place instead of adding a second, conflicting parameter.
 */
public record ProveConfig(
    Map<String, String> jdbcProperties,
    Map<String, String> poolSettings,
    Map<String, String> globals,
    List<String> cachedTables) {

  public ProveConfig {
    jdbcProperties = Collections.unmodifiableMap(new LinkedHashMap<>(jdbcProperties));
    poolSettings = Collections.unmodifiableMap(new LinkedHashMap<>(poolSettings));
    globals = Collections.unmodifiableMap(new LinkedHashMap<>(globals));
    cachedTables = List.copyOf(new TreeSet<>(cachedTables));
  }

  /** The baseline: a scenario's URL parameters ({@code a=1&b=2}), nothing else. */
  public static ProveConfig baseline(String urlParameters) {
    return new ProveConfig(parse(urlParameters), Map.of(), Map.of(), List.of());
  }

  /**
   * A scenario's configuration as a starting point: its JDBC properties, and on TiDB its globals
   * (elsewhere they do not exist). Its cached tables are not taken: caching is advice to prove.
   */
  public static ProveConfig of(Scenarios.Scenario scenario, boolean tidb) {
    return new ProveConfig(parse(scenario.jdbcProperties()), Map.of(), tidb ? scenario.tidbGlobals() : Map.of(), List.of());
  }

  /** {@code a=1&b=2} as an ordered map; a parameter without {@code =} is an error. */
  static Map<String, String> parse(String urlParameters) {
    Map<String, String> m = new LinkedHashMap<>();
    if (urlParameters == null || urlParameters.isBlank()) {
      return m;
    }
    for (String p : urlParameters.split("&")) {
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not a name=value URL parameter: '" + p + "' in " + urlParameters);
      }
      put(m, p.substring(0, eq), p.substring(eq + 1));
    }
    return m;
  }

  /** The URL parameters, {@code a=1&b=2}, in the order they were first set. */
  public String urlParameters() {
    StringBuilder sb = new StringBuilder();
    jdbcProperties.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
    return sb.toString();
  }

  /** A property's value, looked up case-insensitively; null when not set. */
  public String property(String name) {
    return get(jdbcProperties, name);
  }

  /** A global's value as set by this configuration, case-insensitively; null when not set. */
  public String global(String name) {
    return get(globals, name);
  }

  public boolean isCached(String table) {
    return cachedTables.stream().anyMatch(t -> t.equalsIgnoreCase(table));
  }

  /** This configuration with the step's changes applied on top (same names replaced in place). */
  public ProveConfig with(ChangePlan.Step step) {
    Map<String, String> jdbc = new LinkedHashMap<>(jdbcProperties);
    step.jdbcProperties().forEach((k, v) -> put(jdbc, k, v));
    Map<String, String> pool = new LinkedHashMap<>(poolSettings);
    step.poolSettings().forEach((k, v) -> {
      if (v == null) {
        remove(pool, k);
      } else {
        put(pool, k, v);
      }
    });
    Map<String, String> g = new LinkedHashMap<>(globals);
    step.globals().forEach((k, v) -> put(g, k, v));
    List<String> tables = new java.util.ArrayList<>(cachedTables);
    tables.addAll(step.tables());
    return new ProveConfig(jdbc, pool, g, tables);
  }

  static String get(Map<String, String> m, String name) {
    for (Map.Entry<String, String> e : m.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** Replaces a key that differs only in case, keeping its position; else appends. */
  static void put(Map<String, String> m, String name, String value) {
    for (Map.Entry<String, String> e : m.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        e.setValue(value);
        return;
      }
    }
    m.put(name, value);
  }

  private static void remove(Map<String, String> m, String name) {
    m.keySet().removeIf(k -> k.equalsIgnoreCase(name));
  }

  /** Case-insensitive and whitespace-tolerant equality of two setting values ({@code ON} = {@code on}). */
  static boolean sameValue(String a, String b) {
    return a != null && b != null && a.trim().toLowerCase(Locale.ROOT).equals(b.trim().toLowerCase(Locale.ROOT));
  }
}
