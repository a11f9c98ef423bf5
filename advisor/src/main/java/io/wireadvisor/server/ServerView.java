package io.wireadvisor.server;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the advisor knows about the server an application talks to: version, global variables,
 * tables, isolation and (TiDB) statement summaries and status-port metrics. Built read-only by
 * {@link ServerInspector} from a live server, or in code with {@link #builder(String)} (tests, the
 * samples runner, a saved {@code inspect} output via {@link ServerViewJson}).
 */
public final class ServerView {
  private final String versionString;
  private final ServerKind kind;
  private final ServerVersion version;
  private final String defaultSchema;
  private final String isolation;
  private final Map<String, String> globals;
  private final List<TableInfo> tables;
  private final List<StatementSummary> statements;
  private final Map<String, Double> metrics;
  private final String summaryBegin;
  private final String summaryRead;
  private final int summaryIntervals;
  private final List<String> summarySchemas;
  private final int summarySetAside;

  private ServerView(Builder b) {
    this.versionString = b.versionString;
    this.kind = ServerKind.fromVersion(b.versionString);
    this.version = ServerVersion.parse(b.versionString);
    this.defaultSchema = b.defaultSchema == null ? null : b.defaultSchema.toLowerCase(Locale.ROOT);
    this.isolation = b.isolation;
    this.globals = Collections.unmodifiableMap(new TreeMap<>(b.globals));
    this.tables = Collections.unmodifiableList(new ArrayList<>(b.tables));
    this.statements = Collections.unmodifiableList(new ArrayList<>(b.statements));
    this.metrics = Collections.unmodifiableMap(new TreeMap<>(b.metrics));
    this.summaryBegin = b.summaryBegin;
    this.summaryRead = b.summaryRead;
    this.summaryIntervals = b.summaryIntervals;
    this.summarySchemas = Collections.unmodifiableList(new ArrayList<>(b.summarySchemas));
    this.summarySetAside = b.summarySetAside;
  }

  /** A builder for a server reporting {@code version} from {@code SELECT VERSION()}. */
  public static Builder builder(String version) {
    return new Builder(version);
  }

  /** A builder pre-filled with everything in this view. */
  public Builder toBuilder() {
    Builder b = new Builder(versionString).defaultSchema(defaultSchema).isolation(isolation);
    b.globals.putAll(globals);
    b.tables.addAll(tables);
    b.statements.addAll(statements);
    b.metrics.putAll(metrics);
    b.summaryWindow(summaryBegin, summaryRead);
    b.summaryIntervals(summaryIntervals);
    b.summarySchemas.addAll(summarySchemas);
    b.summarySetAside = summarySetAside;
    return b;
  }

  /**
   * This view with only the statement summaries of {@code schemas} (compared without case): TiDB
   * keys its STATEMENTS_SUMMARY by schema and digest, and the same SQL text run by another
   * application (or another run of this one) in another schema is not this traffic's. Rows without
   * a schema go too. {@link #summarySchemas()} names the schemas kept, {@link #summarySetAside()}
   * counts the rows set aside.
   */
  public ServerView statementsOf(Collection<String> schemas) {
    Set<String> keep = new TreeSet<>();
    for (String s : schemas) {
      keep.add(s.toLowerCase(Locale.ROOT));
    }
    Builder b = toBuilder();
    b.statements.clear();
    int aside = 0;
    for (StatementSummary row : statements) {
      if (row.schema() != null && keep.contains(row.schema().toLowerCase(Locale.ROOT))) {
        b.statements.add(row);
      } else {
        aside++;
      }
    }
    b.summarySchemas.clear();
    b.summarySchemas.addAll(keep);
    b.summarySetAside = summarySetAside + aside;
    return b.build();
  }

  /**
   * The schemas whose statement summaries this view keeps ({@link #statementsOf}), lower case;
   * empty when it keeps every schema's.
   */
  public List<String> summarySchemas() {
    return summarySchemas;
  }

  /** Statement summary rows of other schemas set aside by {@link #statementsOf}. */
  public int summarySetAside() {
    return summarySetAside;
  }

  /** As {@code SELECT VERSION()} reported it, e.g. {@code 8.0.11-TiDB-v8.5.3}. */
  public String versionString() {
    return versionString;
  }

  public ServerKind kind() {
    return kind;
  }

  /** The product version (TiDB's own release for TiDB). */
  public ServerVersion version() {
    return version;
  }

  public boolean isTiDB() {
    return kind == ServerKind.TIDB;
  }

  /** True on TiDB of at least this release. */
  public boolean isTiDBAtLeast(int major, int minor) {
    return isTiDB() && version.atLeast(major, minor);
  }

  /** The schema unqualified table names resolve against, or null. */
  public String defaultSchema() {
    return defaultSchema;
  }

  /** Global transaction isolation as the server names it ({@code READ-COMMITTED}), or null. */
  public String isolation() {
    return isolation;
  }

  /** Global variables by lowercase name. */
  public Map<String, String> globals() {
    return globals;
  }

  /** A global variable's value, or null when unknown. */
  public String global(String name) {
    return globals.get(name.toLowerCase(Locale.ROOT));
  }

  /** True when the global is known and ON/1/TRUE. */
  public boolean globalOn(String name) {
    String v = global(name);
    return v != null && isOn(v);
  }

  /** True when the global is known and OFF/0/FALSE. */
  public boolean globalOff(String name) {
    String v = global(name);
    return v != null && !isOn(v);
  }

  /** A numeric global, or {@code fallback} when absent or not a number. */
  public long globalLong(String name, long fallback) {
    String v = global(name);
    if (v == null) {
      return fallback;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  static boolean isOn(String v) {
    String s = v.trim().toUpperCase(Locale.ROOT);
    return s.equals("ON") || s.equals("1") || s.equals("TRUE");
  }

  public List<TableInfo> tables() {
    return tables;
  }

  /**
   * The table a profile names: {@code schema.name} exactly; an unqualified name in the default
   * schema, else the only table of that name in any schema. Null when unknown or ambiguous.
   */
  public TableInfo table(String profileName) {
    String n = unquote(profileName.toLowerCase(Locale.ROOT));
    int dot = n.indexOf('.');
    if (dot >= 0) {
      String schema = n.substring(0, dot);
      String name = n.substring(dot + 1);
      for (TableInfo t : tables) {
        if (t.schema().equals(schema) && t.name().equals(name)) {
          return t;
        }
      }
      return null;
    }
    TableInfo only = null;
    int matches = 0;
    for (TableInfo t : tables) {
      if (t.name().equals(n)) {
        if (t.schema().equals(defaultSchema)) {
          return t;
        }
        only = t;
        matches++;
      }
    }
    return matches == 1 ? only : null;
  }

  private static String unquote(String s) {
    return s.replace("`", "").replace("\"", "");
  }

  /** TiDB statement summaries (most executed first), empty elsewhere. */
  /**
   * When TiDB's current STATEMENTS_SUMMARY window began ({@code MIN(SUMMARY_BEGIN_TIME)}, server
   * time, {@code yyyy-MM-dd HH:mm:ss}), or null when not read: {@link #statements()} count from
   * then, for every client of the server, until {@link #summaryRead()}.
   */
  public String summaryBegin() {
    return summaryBegin;
  }

  /** The server's {@code NOW()} when STATEMENTS_SUMMARY was read, or null. */
  public String summaryRead() {
    return summaryRead;
  }

  /**
   * How many intervals of {@code STATEMENTS_SUMMARY_HISTORY} {@link #statements()} add up (those
   * that overlap the profile's window, the current one among them); 0 when {@code
   * STATEMENTS_SUMMARY}, the current interval alone, was read (no window given, or no history).
   */
  public int summaryIntervals() {
    return summaryIntervals;
  }

  public List<StatementSummary> statements() {
    return statements;
  }

  /** TiDB status-port metrics, keyed {@code name{label="v",...}} as exposed; empty elsewhere. */
  public Map<String, Double> metrics() {
    return metrics;
  }

  /** One line: kind, version and where known isolation. */
  public String describe() {
    return kind + " " + versionString + (isolation == null ? "" : ", " + isolation);
  }

  @Override
  public String toString() {
    return "ServerView{" + describe() + ", globals=" + globals.size() + ", tables=" + tables.size()
        + "}";
  }

  /** Builds a {@link ServerView}. */
  public static final class Builder {
    private final String versionString;
    private String defaultSchema;
    private String isolation;
    private final Map<String, String> globals = new TreeMap<>();
    private final List<TableInfo> tables = new ArrayList<>();
    private final List<StatementSummary> statements = new ArrayList<>();
    private final Map<String, Double> metrics = new TreeMap<>();
    private String summaryBegin;
    private String summaryRead;
    private int summaryIntervals;
    private final List<String> summarySchemas = new ArrayList<>();
    private int summarySetAside;

    Builder(String versionString) {
      if (versionString == null || versionString.trim().isEmpty()) {
        throw new IllegalArgumentException("server version is required");
      }
      this.versionString = versionString.trim();
    }

    public Builder defaultSchema(String schema) {
      this.defaultSchema = schema;
      return this;
    }

    public Builder isolation(String isolation) {
      this.isolation = isolation;
      return this;
    }

    public Builder global(String name, String value) {
      globals.put(name.toLowerCase(Locale.ROOT), value);
      return this;
    }

    public Builder globals(Map<String, String> values) {
      for (Map.Entry<String, String> e : values.entrySet()) {
        global(e.getKey(), e.getValue());
      }
      return this;
    }

    public Builder table(TableInfo table) {
      tables.add(table);
      return this;
    }

    /** Replaces a table of the same qualified name, or adds it. */
    public Builder replaceTable(TableInfo table) {
      for (int i = 0; i < tables.size(); i++) {
        if (tables.get(i).qualifiedName().equals(table.qualifiedName())) {
          tables.set(i, table);
          return this;
        }
      }
      tables.add(table);
      return this;
    }

    public Builder statement(StatementSummary row) {
      statements.add(row);
      return this;
    }

    /** STATEMENTS_SUMMARY's window: its begin time and the time it was read (server time). */
    public Builder summaryWindow(String begin, String read) {
      this.summaryBegin = begin;
      this.summaryRead = read;
      return this;
    }

    /** Intervals of STATEMENTS_SUMMARY_HISTORY read; 0 for STATEMENTS_SUMMARY's current one. */
    public Builder summaryIntervals(int intervals) {
      this.summaryIntervals = Math.max(0, intervals);
      return this;
    }

    public Builder metric(String key, double value) {
      metrics.put(key, value);
      return this;
    }

    public ServerView build() {
      return new ServerView(this);
    }
  }
}
