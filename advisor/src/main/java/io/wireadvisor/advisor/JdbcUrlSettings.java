package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A JDBC URL for the report to copy: the application's (as the collector recorded it: hosts,
 * ports, database, never a parameter) with the settings the agent read from the driver that
 * differ from Connector/J's defaults, so a report's "all changes together" URL does not quietly
 * drop {@code rewriteBatchedStatements=true} or {@code sslMode=DISABLED} the application had.
 *
 * <p>Only {@link JdbcProperty} keys, and only values made of {@code [A-Za-z0-9_.-]} (at most 64):
 * the collector records nothing else, and a profile is only a file. {@code connectionAttributes}
 * (may carry anything), {@code characterEncoding} and {@code connectionTimeZone} (the driver
 * fills them in from the server) are left out. Parameters the collector does not record (user,
 * password, {@code allowPublicKeyRetrieval}, ...) are not in it: the report says so.
 */
public final class JdbcUrlSettings {
  /**
   * Connector/J's defaults (8.0.33 to 9.x, {@code com.mysql.cj.conf.PropertyDefinitions}) of the
   * recorded keys {@link JdbcProperty#defaultValue()} leaves out, lower case; a key with neither
   * is never written.
   */
  private static final Map<String, String> MORE_DEFAULTS = new HashMap<>();

  static {
    String[][] d = {
      {"useConfigs", ""}, {"useLocalTransactionState", "false"}, {"elideSetAutoCommits", "false"},
      {"cacheResultSetMetadata", "false"}, {"cacheCallableStmts", "false"}, {"useCursorFetch", "false"},
      {"defaultFetchSize", "0"}, {"useCompression", "false"}, {"enableQueryTimeouts", "true"},
      {"maintainTimeStats", "true"}, {"allowMultiQueries", "false"}, {"zeroDateTimeBehavior", "EXCEPTION"},
      {"sslMode", "PREFERRED"},
    };
    for (String[] kv : d) {
      MORE_DEFAULTS.put(kv[0].toLowerCase(Locale.ROOT), kv[1]);
    }
  }

  private JdbcUrlSettings() {}

  /**
   * The recorded settings of one connection source that differ from the driver's defaults, in
   * {@link JdbcProperty} order. Under {@code useConfigs=maxPerformance} the values it sets itself
   * are left out (the {@code useConfigs} parameter brings them).
   */
  public static Map<String, String> nonDefault(Map<String, String> recorded) {
    Map<String, String> lower = new HashMap<>();
    for (Map.Entry<String, String> e : recorded.entrySet()) {
      if (e.getKey() != null && e.getValue() != null) {
        lower.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue());
      }
    }
    String useConfigs = lower.get("useconfigs");
    boolean maxPerformance = useConfigs != null && useConfigs.toLowerCase(Locale.ROOT).contains("maxperformance");
    Map<String, String> out = new LinkedHashMap<>();
    for (JdbcProperty p : JdbcProperty.values()) {
      String key = p.key().toLowerCase(Locale.ROOT);
      String value = lower.get(key);
      String dflt = p.defaultValue() != null ? p.defaultValue() : MORE_DEFAULTS.get(key);
      if (value == null || dflt == null || value.equalsIgnoreCase(dflt) || !safe(value)) {
        continue;
      }
      if (maxPerformance && p.maxPerformanceValue() != null && value.equalsIgnoreCase(p.maxPerformanceValue())) {
        continue;
      }
      out.put(p.key(), value);
    }
    return out;
  }

  /** {@code url} with {@link #nonDefault} as its query string (none when nothing differs). */
  public static String withSettings(String url, Map<String, String> recorded) {
    return url.indexOf('?') >= 0 ? url : merge(url, nonDefault(recorded));
  }

  /**
   * {@code url} (a {@link #withSettings} URL) with {@code changes} merged in: a key the changes
   * set is replaced where it stood (Connector/J reads names case-insensitively), the others are
   * added after the URL's own.
   */
  public static String merge(String url, Map<String, String> changes) {
    int q = url.indexOf('?');
    String base = q < 0 ? url : url.substring(0, q);
    List<String[]> params = new ArrayList<>();
    if (q >= 0) {
      for (String pair : url.substring(q + 1).split("&")) {
        int eq = pair.indexOf('=');
        if (!pair.isEmpty()) {
          params.add(eq < 0 ? new String[] {pair, ""} : new String[] {pair.substring(0, eq), pair.substring(eq + 1)});
        }
      }
    }
    Map<String, String> rest = new LinkedHashMap<>(changes);
    for (String[] kv : params) {
      for (Map.Entry<String, String> e : changes.entrySet()) {
        if (e.getKey().equalsIgnoreCase(kv[0])) {
          kv[1] = e.getValue();
          rest.remove(e.getKey());
        }
      }
    }
    StringBuilder b = new StringBuilder(base);
    char sep = '?';
    for (String[] kv : params) {
      b.append(sep).append(kv[0]).append('=').append(kv[1]);
      sep = '&';
    }
    for (Map.Entry<String, String> e : rest.entrySet()) {
      b.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = '&';
    }
    return b.toString();
  }

  private static boolean safe(String v) {
    if (v.isEmpty() || v.length() > 64) {
      return false;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-')) {
        return false;
      }
    }
    return true;
  }
}
