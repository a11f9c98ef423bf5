package io.wireadvisor.replay;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.profile.Source;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * One configuration to replay under: Connector/J properties, HikariCP settings, and the
 * server-side statements (TiDB globals, table cache) applied for its runs and undone after each.
 */
public record ReplayConfig(
    String name,
    String origin,
    Map<String, String> jdbcProperties,
    Map<String, String> poolSettings,
    List<String> serverSql) {
  public ReplayConfig {
    jdbcProperties = Collections.unmodifiableMap(new LinkedHashMap<>(jdbcProperties));
    poolSettings = Collections.unmodifiableMap(new LinkedHashMap<>(poolSettings));
    serverSql = List.copyOf(serverSql);
  }

  /** A configuration without server-side changes. */
  public ReplayConfig(
      String name, String origin, Map<String, String> jdbcProperties, Map<String, String> poolSettings) {
    this(name, origin, jdbcProperties, poolSettings, List.of());
  }

  /** This configuration with {@code sql} run on the server for its runs (and undone after each). */
  public ReplayConfig withServerSql(List<String> sql) {
    List<String> all = new java.util.ArrayList<>(serverSql);
    all.addAll(sql);
    return new ReplayConfig(name, origin, jdbcProperties, poolSettings, all);
  }

  /**
   * The configuration the captured application used: the JDBC properties in the capture's header
   * when the agent wrote it; otherwise inferred from the traffic (server-side prepared statements
   * when the capture has prepares, the client cache when no statement was prepared twice on one
   * connection), said in {@link #origin()}.
   */
  public static ReplayConfig current(Capture capture) {
    Map<String, String> header = new LinkedHashMap<>(capture.header().jdbcProperties());
    header.keySet().removeIf(Source::isSecret);
    if (!header.isEmpty()) {
      return new ReplayConfig("current", "the capture's header (the application's JDBC properties)", header, Map.of());
    }
    boolean prepares = false;
    boolean preparedTwice = false;
    Map<Long, Map<String, Integer>> perConnection = new HashMap<>();
    for (CaptureEvent e : capture.events()) {
      if (e.kind() == CaptureEvent.Kind.PREPARE && e.sql() != null) {
        prepares = true;
        int n = perConnection.computeIfAbsent(e.connection(), k -> new HashMap<>()).merge(e.sql(), 1, Integer::sum);
        preparedTwice |= n > 1;
      }
    }
    Map<String, String> inferred = new TreeMap<>();
    inferred.put("useServerPrepStmts", String.valueOf(prepares));
    if (prepares) {
      inferred.put("cachePrepStmts", String.valueOf(!preparedTwice));
    }
    return new ReplayConfig("current", "inferred from the captured traffic", inferred, Map.of());
  }

  /**
   * A configuration from a properties file: {@code dataSource.<name>=value} or a bare Connector/J
   * property name for the driver, {@code pool.<hikariSetting>=value} for the pool.
   */
  public static ReplayConfig fromFile(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    Map<String, String> jdbc = new TreeMap<>();
    Map<String, String> pool = new TreeMap<>();
    for (String key : p.stringPropertyNames()) {
      String value = p.getProperty(key).trim();
      if (key.startsWith("pool.")) {
        pool.put(key.substring(5), value);
      } else {
        String name = key.startsWith("dataSource.") ? key.substring(11) : key;
        if (Source.isSecret(name)) {
          throw new IllegalArgumentException(file + ": '" + key + "' names a secret; pass credentials with"
              + " --user and WIRE_ADVISOR_PASSWORD or --password-file, not in a configuration file");
        }
        jdbc.put(name, value);
      }
    }
    String base = file.getFileName().toString();
    return new ReplayConfig(base, "file " + file, jdbc, pool);
  }

  /** This configuration with {@code props} and {@code pool} set over its own. */
  public ReplayConfig with(String newName, String newOrigin, Map<String, String> props, Map<String, String> pool) {
    Map<String, String> j = new LinkedHashMap<>(jdbcProperties);
    j.putAll(props);
    Map<String, String> ps = new LinkedHashMap<>(poolSettings);
    ps.putAll(pool);
    return new ReplayConfig(newName, newOrigin, j, ps, serverSql);
  }
}
