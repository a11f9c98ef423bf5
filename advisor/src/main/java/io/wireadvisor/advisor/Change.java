package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The exact change a recommendation asks for: Connector/J properties (as URL parameters and as
 * HikariCP {@code dataSourceProperties}), pool settings, SQL statements to run on the server, and,
 * for traffic from other clients, what to do in each client's own terms ({@link #clients()}).
 */
public final class Change {
  private final Map<String, String> jdbcProperties;
  private final Map<String, String> poolSettings;
  private final Map<String, String> hibernateProperties;
  private final List<String> sql;
  private final List<String> notes;
  private final Map<String, List<String>> clients;

  private Change(Builder b) {
    this.jdbcProperties = Collections.unmodifiableMap(new LinkedHashMap<>(b.jdbcProperties));
    this.poolSettings = Collections.unmodifiableMap(new LinkedHashMap<>(b.poolSettings));
    this.hibernateProperties =
        Collections.unmodifiableMap(new LinkedHashMap<>(b.hibernateProperties));
    this.sql = Collections.unmodifiableList(new ArrayList<>(b.sql));
    this.notes = Collections.unmodifiableList(new ArrayList<>(b.notes));
    Map<String, List<String>> c = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : b.clients.entrySet()) {
      c.put(e.getKey(), Collections.unmodifiableList(new ArrayList<>(e.getValue())));
    }
    this.clients = Collections.unmodifiableMap(c);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Connector/J properties to set, in order. */
  public Map<String, String> jdbcProperties() {
    return jdbcProperties;
  }

  /** HikariCP settings (pool level, not driver properties). */
  public Map<String, String> poolSettings() {
    return poolSettings;
  }

  /**
   * Hibernate properties ({@code hibernate.*}, as in {@code hibernate.properties} or {@code
   * persistence.xml}; Spring Boot: {@code spring.jpa.properties.hibernate.*}).
   */
  public Map<String, String> hibernateProperties() {
    return hibernateProperties;
  }

  /** SQL to run on the server, each a complete statement ending with ';'. */
  public List<String> sql() {
    return sql;
  }

  /** Anything else to do, in words. */
  public List<String> notes() {
    return notes;
  }

  /**
   * What to do per client, in its own terms: the client's label ({@code PyMySQL (pymysql
   * 1.2.4)}) to its lines, in order; empty when the traffic came from JDBC clients only.
   */
  public Map<String, List<String>> clients() {
    return clients;
  }

  /** {@code a=1&b=2}: append to the JDBC URL; empty when there are no properties. */
  public String urlParameters() {
    return urlParameters(jdbcProperties);
  }

  static String urlParameters(Map<String, String> props) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(e.getKey()).append('=').append(e.getValue());
    }
    return sb.toString();
  }

  /** HikariCP property-file lines: {@code dataSource.name=value} per driver property. */
  public List<String> hikariDataSourceLines() {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, String> e : jdbcProperties.entrySet()) {
      lines.add("dataSource." + e.getKey() + "=" + e.getValue());
    }
    return lines;
  }

  /** Builds a {@link Change}. */
  public static final class Builder {
    private final Map<String, String> jdbcProperties = new LinkedHashMap<>();
    private final Map<String, String> poolSettings = new LinkedHashMap<>();
    private final Map<String, String> hibernateProperties = new LinkedHashMap<>();
    private final List<String> sql = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, List<String>> clients = new LinkedHashMap<>();

    public Builder jdbc(JdbcProperty property, String value) {
      return jdbc(property.key(), value);
    }

    public Builder jdbc(String name, String value) {
      jdbcProperties.put(name, value);
      return this;
    }

    public Builder pool(String name, String value) {
      poolSettings.put(name, value);
      return this;
    }

    public Builder hibernate(String name, String value) {
      hibernateProperties.put(name, value);
      return this;
    }

    public Builder sql(String statement) {
      sql.add(statement);
      return this;
    }

    public Builder note(String note) {
      notes.add(note);
      return this;
    }

    /** A line for one client ({@code label}), after the ones it already has. */
    public Builder client(String label, String line) {
      List<String> lines = clients.get(label);
      if (lines == null) {
        lines = new ArrayList<>();
        clients.put(label, lines);
      }
      if (!lines.contains(line)) {
        lines.add(line);
      }
      return this;
    }

    public Change build() {
      return new Change(this);
    }
  }
}
