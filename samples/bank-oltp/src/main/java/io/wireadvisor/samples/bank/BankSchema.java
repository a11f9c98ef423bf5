package io.wireadvisor.samples.bank;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bank schema, read from {@code bank/bank-schema.sql}: which tables exist, which are reference
 * (read-only) and which are written, their columns, how many rows they get at a scale factor, and
 * which column refers to which table.
 */
public final class BankSchema {
  /** The classpath resource holding the DDL. */
  public static final String RESOURCE = "bank/bank-schema.sql";

  /** Whether the application writes a table. */
  public enum Kind {
    /** Small, read, practically never written: candidates for {@code ALTER TABLE ... CACHE}. */
    REFERENCE,
    /** Written by business transactions; grows with the scale factor. */
    WRITTEN
  }

  /** A column as declared. */
  public record Column(String name, String type, int length, int scale, boolean nullable) {
    /** Whether this is an integer type. */
    public boolean isInteger() {
      return type.endsWith("INT");
    }
  }

  /** A table as declared, with its {@code CREATE TABLE} statement. */
  public static final class Table {
    private final String name;
    private final Kind kind;
    private final long rows;
    private final boolean scaled;
    private final List<Column> columns;
    private final String ddl;
    private final Map<String, String> refs = new LinkedHashMap<>();

    Table(String name, Kind kind, long rows, boolean scaled, List<Column> columns, String ddl) {
      this.name = name;
      this.kind = kind;
      this.rows = rows;
      this.scaled = scaled;
      this.columns = List.copyOf(columns);
      this.ddl = ddl;
    }

    public String name() {
      return name;
    }

    public Kind kind() {
      return kind;
    }

    public List<Column> columns() {
      return columns;
    }

    public Column column(String columnName) {
      for (Column c : columns) {
        if (c.name().equals(columnName)) {
          return c;
        }
      }
      throw new IllegalArgumentException("no column " + name + "." + columnName);
    }

    /** Columns except the generated primary key of written tables (what an ORM inserts). */
    public List<Column> insertColumns() {
      List<Column> out = new ArrayList<>();
      for (Column c : columns) {
        if (!(kind == Kind.WRITTEN && c.name().equals("id"))) {
          out.add(c);
        }
      }
      return out;
    }

    /** The {@code CREATE TABLE} statement. */
    public String ddl() {
      return ddl;
    }

    /** Rows loaded at scale factor {@code sf}; reference tables do not grow, and never go below 1. */
    public long rows(double sf) {
      return scaled ? Math.max(1, Math.round(rows * sf)) : rows;
    }

    /** The table a column refers to, or null: {@code from_account_id} refers to {@code account}. */
    public String refOf(String columnName) {
      return refs.get(columnName);
    }

    /** Columns referring to other tables, in declaration order, to the table they refer to. */
    public Map<String, String> refs() {
      return Collections.unmodifiableMap(refs);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final Pattern HEADER =
      Pattern.compile("^-- table: (reference|written) rows=(\\d+)(\\*sf)?\\s*$");
  private static final Pattern CREATE = Pattern.compile("^CREATE TABLE (\\w+) \\($");
  private static final Pattern COLUMN =
      Pattern.compile("^\\s+(\\w+) (\\w+)(?:\\((\\d+)(?:,(\\d+))?\\))?(.*?),?$");

  private final Map<String, Table> tables;

  private BankSchema(Map<String, Table> tables) {
    this.tables = Collections.unmodifiableMap(tables);
  }

  /** The schema from the bundled resource. */
  public static BankSchema load() {
    try (InputStream in = BankSchema.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " missing from the classpath");
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Parses DDL in the format described at the top of the resource.
   *
   * @throws IllegalArgumentException naming the line when the text does not follow it
   */
  public static BankSchema parse(String ddlText) {
    Map<String, Table> tables = new LinkedHashMap<>();
    String[] lines = ddlText.split("\n");
    Matcher header = null;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].stripTrailing();
      Matcher h = HEADER.matcher(line);
      if (h.matches()) {
        header = h;
        continue;
      }
      Matcher c = CREATE.matcher(line);
      if (!c.matches()) {
        if (line.startsWith("CREATE")) {
          throw new IllegalArgumentException("line " + (i + 1) + ": expected 'CREATE TABLE name (': " + line);
        }
        continue;
      }
      if (header == null) {
        throw new IllegalArgumentException("line " + (i + 1) + ": CREATE TABLE without a '-- table:' line before it");
      }
      String name = c.group(1);
      StringBuilder ddl = new StringBuilder(line).append('\n');
      List<Column> columns = new ArrayList<>();
      int j = i + 1;
      for (; j < lines.length; j++) {
        String l = lines[j].stripTrailing();
        ddl.append(l).append('\n');
        if (l.equals(");")) {
          break;
        }
        String t = l.trim();
        if (t.startsWith("PRIMARY KEY") || t.startsWith("KEY") || t.startsWith("UNIQUE KEY")) {
          continue;
        }
        Matcher m = COLUMN.matcher(l);
        if (!m.matches()) {
          throw new IllegalArgumentException("line " + (j + 1) + ": not a column: " + l);
        }
        columns.add(
            new Column(
                m.group(1),
                m.group(2).toUpperCase(Locale.ROOT),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3)),
                m.group(4) == null ? 0 : Integer.parseInt(m.group(4)),
                !m.group(5).contains("NOT NULL")));
      }
      if (j == lines.length) {
        throw new IllegalArgumentException("CREATE TABLE " + name + " has no closing ');'");
      }
      String dml = ddl.toString().trim();
      Table table =
          new Table(
              name,
              header.group(1).equals("reference") ? Kind.REFERENCE : Kind.WRITTEN,
              Long.parseLong(header.group(2)),
              header.group(3) != null,
              columns,
              dml.substring(0, dml.length() - 1));
      if (tables.put(name, table) != null) {
        throw new IllegalArgumentException("table " + name + " declared twice");
      }
      header = null;
      i = j;
    }
    for (Table t : tables.values()) {
      for (Column col : t.columns()) {
        String ref = resolveRef(col.name(), tables);
        if (ref != null) {
          t.refs.put(col.name(), ref);
        }
      }
    }
    return new BankSchema(tables);
  }

  /** The longest table name {@code T} such that the column is {@code T_id} or {@code <prefix>_T_id}. */
  private static String resolveRef(String column, Map<String, Table> tables) {
    if (!column.endsWith("_id")) {
      return null;
    }
    String stem = column.substring(0, column.length() - 3);
    String best = null;
    for (String t : tables.keySet()) {
      if ((stem.equals(t) || stem.endsWith("_" + t)) && (best == null || t.length() > best.length())) {
        best = t;
      }
    }
    return best;
  }

  /** All tables in DDL order (parents before children where it matters for reading). */
  public List<Table> tables() {
    return List.copyOf(tables.values());
  }

  public Table table(String name) {
    Table t = tables.get(name);
    if (t == null) {
      throw new IllegalArgumentException("no table " + name);
    }
    return t;
  }

  /** Tables of one kind, in DDL order. */
  public List<Table> tables(Kind kind) {
    List<Table> out = new ArrayList<>();
    for (Table t : tables.values()) {
      if (t.kind() == kind) {
        out.add(t);
      }
    }
    return out;
  }
}
