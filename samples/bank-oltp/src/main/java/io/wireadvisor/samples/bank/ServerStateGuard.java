package io.wireadvisor.samples.bank;

import io.wireadvisor.server.UndoLog;
import io.wireadvisor.testkit.DatabaseServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Applies a scenario's server-side changes (TiDB globals, {@code ALTER TABLE ... CACHE}) and
 * remembers how to undo each, so that {@link #restore()} puts the server back as it was: after
 * every scenario, on failure, and from a shutdown hook on Ctrl-C. Restoring twice is harmless.
 */
final class ServerStateGuard implements AutoCloseable {
  private final DatabaseServer server;
  private final String database;
  private final Consumer<String> log;
  private final UndoLog undo = new UndoLog();

  ServerStateGuard(DatabaseServer server, String database, Consumer<String> log) {
    this.server = server;
    this.database = database;
    this.log = log;
  }

  /** Sets TiDB globals through {@link UndoLog#setGlobal}, which records each previous value first. */
  synchronized void setGlobals(Map<String, String> globals) throws SQLException {
    if (globals.isEmpty()) {
      return;
    }
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement()) {
      for (Map.Entry<String, String> g : globals.entrySet()) {
        UndoLog.Global done = undo.setGlobal(s, g.getKey(), g.getValue());
        if (done.changed()) {
          log.accept("  " + done);
        }
      }
    }
  }

  /** {@code ALTER TABLE t CACHE} for each table, through {@link UndoLog#cacheTable}. */
  synchronized void cacheTables(List<String> tables) throws SQLException {
    if (tables.isEmpty()) {
      return;
    }
    try (Connection c = server.connect(database, null);
        Statement s = c.createStatement()) {
      for (String t : tables) {
        undo.cacheTable(s, database, t);
      }
      log.accept("  ALTER TABLE ... CACHE on " + tables.size() + " reference tables");
    }
  }

  /** Undoes everything applied so far, newest first; keeps going past failures and reports them. */
  synchronized void restore() {
    if (undo.isEmpty()) {
      return;
    }
    List<String> failed = undo.restore(() -> server.connect(null, "connectTimeout=10000&socketTimeout=60000"));
    if (failed.isEmpty()) {
      log.accept("  server settings restored");
    } else {
      failed.forEach(f -> log.accept("  RESTORE FAILED: " + f));
    }
  }

  @Override
  public void close() {
    restore();
  }
}
