package io.wireadvisor.samples.bank;

import io.wireadvisor.server.UndoLog;
import io.wireadvisor.testkit.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Applies a scenario's server-side changes (TiDB globals, {@code ALTER TABLE ... CACHE}) and
 * remembers how to undo each, so that {@link #restore()} puts the server back as it was: after
 * every scenario, on failure, and from a shutdown hook on Ctrl-C. Restoring twice is harmless.
 */
final class ServerStateGuard implements AutoCloseable {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final DatabaseServer server;
  private final String database;
  private final Consumer<String> log;
  private final UndoLog undo = new UndoLog();

  ServerStateGuard(DatabaseServer server, String database, Consumer<String> log) {
    this.server = server;
    this.database = database;
    this.log = log;
  }

  /** Sets TiDB globals, recording each previous value first. */
  synchronized void setGlobals(Map<String, String> globals) throws SQLException {
    if (globals.isEmpty()) {
      return;
    }
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement()) {
      for (Map.Entry<String, String> g : globals.entrySet()) {
        String name = checkedName(g.getKey());
        String previous;
        try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL." + name)) {
          rs.next();
          previous = rs.getString(1);
        }
        if (previous != null && previous.equalsIgnoreCase(g.getValue())) {
          continue;
        }
        s.executeUpdate("SET GLOBAL " + name + " = " + literal(g.getValue()));
        undo.push("SET GLOBAL " + name + " = " + literal(previous));
        log.accept("  SET GLOBAL " + name + " = " + g.getValue() + " (was " + previous + ")");
      }
    }
  }

  /** {@code ALTER TABLE t CACHE} for each table not cached yet. */
  synchronized void cacheTables(List<String> tables) throws SQLException {
    if (tables.isEmpty()) {
      return;
    }
    try (Connection c = server.connect(database, null);
        Statement s = c.createStatement()) {
      for (String t : tables) {
        String name = checkedName(t);
        // Pushed first: if CACHE fails half-way, NOCACHE on an uncached table is a no-op.
        undo.push("ALTER TABLE `" + database + "`." + name + " NOCACHE");
        s.executeUpdate("ALTER TABLE " + name + " CACHE");
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

  private static String checkedName(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a plain identifier: " + name);
    }
    return name;
  }

  /**
   * Numbers and ON/OFF go unquoted: MySQL and MariaDB reject a quoted value for a numeric variable
   * (TiDB takes either).
   */
  static String literal(String v) {
    if (v == null) {
      return "DEFAULT";
    }
    if (NUMBER_OR_KEYWORD.matcher(v).matches()) {
      return v;
    }
    return "'" + v.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  private static final Pattern NUMBER_OR_KEYWORD =
      Pattern.compile("-?\\d+(\\.\\d+)?|(?i:ON|OFF|TRUE|FALSE)");
}
