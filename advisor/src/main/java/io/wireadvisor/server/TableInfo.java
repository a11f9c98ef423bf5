package io.wireadvisor.server;

import java.util.Locale;
import java.util.Objects;

/** One table (or view) as {@code information_schema.TABLES} describes it. */
public final class TableInfo {
  private final String schema;
  private final String name;
  private final long dataBytes;
  private final long indexBytes;
  private final boolean partitioned;
  private final boolean temporary;
  private final boolean view;
  private final boolean cached;
  private final long rows;

  /**
   * @param cached TiDB only: {@code CREATE_OPTIONS} contains {@code cached=on}
   */
  public TableInfo(
      String schema,
      String name,
      long dataBytes,
      long indexBytes,
      boolean partitioned,
      boolean temporary,
      boolean view,
      boolean cached) {
    this(schema, name, dataBytes, indexBytes, partitioned, temporary, view, cached, -1);
  }

  /**
   * @param rows {@code TABLE_ROWS} as the server's statistics give it; -1 when unknown (a server
   *     view written before it was recorded)
   */
  public TableInfo(
      String schema,
      String name,
      long dataBytes,
      long indexBytes,
      boolean partitioned,
      boolean temporary,
      boolean view,
      boolean cached,
      long rows) {
    this.schema = Objects.requireNonNull(schema, "schema").toLowerCase(Locale.ROOT);
    this.name = Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT);
    this.dataBytes = dataBytes;
    this.indexBytes = indexBytes;
    this.partitioned = partitioned;
    this.temporary = temporary;
    this.view = view;
    this.cached = cached;
    this.rows = rows;
  }

  /** Rows by the server's statistics ({@code TABLE_ROWS}): 0 on TiDB before ANALYZE; -1 unknown. */
  public long rows() {
    return rows;
  }

  /** A plain base table of this size, not cached. */
  public static TableInfo table(String schema, String name, long dataBytes, long indexBytes) {
    return new TableInfo(schema, name, dataBytes, indexBytes, false, false, false, false);
  }

  public String schema() {
    return schema;
  }

  public String name() {
    return name;
  }

  /** {@code schema.name}, lowercase. */
  public String qualifiedName() {
    return schema + "." + name;
  }

  public long dataBytes() {
    return dataBytes;
  }

  public long indexBytes() {
    return indexBytes;
  }

  /** Data plus indexes: what TiDB compares with the 64 MiB cached-table limit. */
  public long totalBytes() {
    return dataBytes + indexBytes;
  }

  public boolean partitioned() {
    return partitioned;
  }

  public boolean temporary() {
    return temporary;
  }

  public boolean view() {
    return view;
  }

  public boolean cached() {
    return cached;
  }

  /** The same table marked cached (what {@code ALTER TABLE ... CACHE} leads to). */
  public TableInfo withCached(boolean cached) {
    return new TableInfo(schema, name, dataBytes, indexBytes, partitioned, temporary, view, cached, rows);
  }

  @Override
  public String toString() {
    return qualifiedName() + "(" + totalBytes() + " B" + (cached ? ", cached" : "") + ")";
  }
}
