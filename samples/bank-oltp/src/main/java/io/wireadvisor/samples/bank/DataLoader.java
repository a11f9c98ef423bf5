package io.wireadvisor.samples.bank;

import io.wireadvisor.samples.bank.BankSchema.Column;
import io.wireadvisor.samples.bank.BankSchema.Table;
import io.wireadvisor.testkit.DatabaseServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Creates the 60 tables and fills them with deterministic data: reference tables at their fixed
 * size, written tables scaled by the scale factor. Rows go in as multi-row INSERTs of
 * {@value #BATCH} rows ({@code rewriteBatchedStatements=true}), one commit per batch, two tables at a
 * time.
 */
public final class DataLoader {
  static final int BATCH = 1000;
  /** Text protocol and batch rewriting: loading is not what the scenarios measure. */
  static final String LOAD_PROPERTIES =
      "rewriteBatchedStatements=true&useServerPrepStmts=false&cachePrepStmts=false";

  private final DatabaseServer server;
  private final BankSchema schema;

  public DataLoader(DatabaseServer server, BankSchema schema) {
    this.server = server;
    this.schema = schema;
  }

  /** What was loaded. */
  public record Loaded(String database, double scale, long rows, long millis) {}

  /**
   * Creates {@code database} if needed, (re)creates every table in it and loads it.
   *
   * @param progress receives one line per finished table
   */
  public Loaded load(String database, double scale, long seed, Consumer<String> progress)
      throws SQLException, InterruptedException {
    if (!(scale > 0) || scale > 10_000) {
      throw new IllegalArgumentException("scale must be > 0 and <= 10000, was " + scale);
    }
    long start = System.nanoTime();
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE DATABASE IF NOT EXISTS `" + database + "`");
    }
    try (Connection c = server.connect(database, null);
        Statement s = c.createStatement()) {
      for (Table t : schema.tables()) {
        if (server.isTiDB() && t.kind() == BankSchema.Kind.REFERENCE) {
          // TiDB refuses DDL other than NOCACHE on a cached table (left cached by a killed run).
          try {
            s.executeUpdate("ALTER TABLE " + t.name() + " NOCACHE");
          } catch (SQLException absentOrNotCached) {
            // Nothing to undo.
          }
        }
        s.executeUpdate("DROP TABLE IF EXISTS " + t.name());
        s.executeUpdate(t.ddl());
      }
    }
    List<Table> bySize = new ArrayList<>(schema.tables());
    bySize.sort(Comparator.comparingLong((Table t) -> t.rows(scale)).reversed());
    AtomicLong rows = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
      Thread th = new Thread(r, "bank-loader");
      th.setDaemon(true);
      return th;
    });
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Table t : bySize) {
        done.add(pool.submit(() -> {
          long n = loadTable(database, t, scale, seed);
          rows.addAndGet(n);
          if (t.kind() == BankSchema.Kind.WRITTEN) {
            progress.accept(String.format("  loaded %-18s %,9d rows", t.name(), n));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof SQLException se) {
            throw se;
          }
          throw new IllegalStateException("loading failed", cause);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = server.connect(database, null);
        Statement s = c.createStatement()) {
      // Fresh statistics on every table, so every server plans with its indexes: TiDB plans a
      // table never analysed on pseudo statistics (stats:pseudo), which no real application has.
      StringBuilder analyze = new StringBuilder("ANALYZE TABLE ");
      for (Table t : schema.tables()) {
        analyze.append(analyze.length() > 14 ? ", " : "").append(t.name());
      }
      s.execute(analyze.toString());
    }
    return new Loaded(database, scale, rows.get(), (System.nanoTime() - start) / 1_000_000);
  }

  private long loadTable(String database, Table t, double scale, long seed) throws SQLException {
    List<Column> cols = t.columns();
    StringBuilder sql = new StringBuilder("INSERT INTO ").append(t.name()).append(" (");
    for (int i = 0; i < cols.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(cols.get(i).name());
    }
    sql.append(") VALUES (").append("?, ".repeat(cols.size() - 1)).append("?)");
    long n = t.rows(scale);
    SplittableRandom r = new SplittableRandom(seed * 1_000_003L + t.name().hashCode());
    try (Connection c = server.connect(database, LOAD_PROPERTIES)) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
        for (long id = 1; id <= n; id++) {
          for (int i = 0; i < cols.size(); i++) {
            Column col = cols.get(i);
            Object v;
            if (col.name().equals("id")) {
              v = id;
            } else if (t.refOf(col.name()) != null) {
              v = 1 + r.nextLong(schema.table(t.refOf(col.name())).rows(scale));
            } else {
              v = Values.value(t, col, id, r);
            }
            ps.setObject(i + 1, v);
          }
          ps.addBatch();
          if (id % BATCH == 0 || id == n) {
            ps.executeBatch();
            c.commit();
          }
        }
      }
    }
    return n;
  }
}
