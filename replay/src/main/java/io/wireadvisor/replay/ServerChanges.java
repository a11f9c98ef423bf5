package io.wireadvisor.replay;

import io.wireadvisor.advisor.ServerChangeSql;
import io.wireadvisor.server.UndoLog;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A configuration's server-side changes for the length of one replay run: TiDB globals ({@code
 * SET GLOBAL}, the previous value read first) and {@code ALTER TABLE … CACHE} on tables of the
 * replayed database, made through {@link UndoLog#setGlobal} and {@link UndoLog#cacheTable} (as the
 * bank sample's {@code prove} makes its own), each undone by {@link #close()} in reverse order
 * ({@code NOCACHE}, the previous value), also from a shutdown hook should the replay be
 * interrupted. Anything else the advice says to run on the server is listed in {@link
 * #notApplied()}, never run.
 */
final class ServerChanges implements AutoCloseable {
  private final ReplayTarget target;
  private final Consumer<String> log;
  private final UndoLog undo = new UndoLog();
  private final List<String> applied = new ArrayList<>();
  private final List<String> notApplied = new ArrayList<>();
  private final Thread hook = new Thread(this::restore, "replay-restore-server");

  private ServerChanges(ReplayTarget target, Consumer<String> log) {
    this.target = target;
    this.log = log;
  }

  /** Applies {@code sql} on {@code target} (database {@code database}); nothing when empty. */
  static ServerChanges apply(List<String> sql, ReplayTarget target, String database, Consumer<String> log)
      throws SQLException {
    ServerChanges c = new ServerChanges(target, log);
    if (sql.isEmpty()) {
      return c;
    }
    Runtime.getRuntime().addShutdownHook(c.hook);
    try (Connection cn = c.connect(); Statement s = cn.createStatement()) {
      for (String statement : sql) {
        ServerChangeSql.Global g = ServerChangeSql.global(statement);
        ServerChangeSql.CachedTable t = ServerChangeSql.cachedTable(statement);
        if (g != null) {
          c.applied.add(c.undo.setGlobal(s, g.name(), g.value()).toString());
        } else if (t != null && (t.schema() == null || t.schema().equalsIgnoreCase(database))) {
          c.undo.cacheTable(s, database, t.table());
          c.applied.add("ALTER TABLE `" + database + "`.`" + t.table() + "` CACHE");
        } else {
          c.notApplied.add(statement);
        }
      }
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mysql://" + target.host() + ":" + target.port() + "/?connectTimeout=10000&socketTimeout=120000",
        target.user(), target.password());
  }

  /** What was applied (for the report). */
  List<String> applied() {
    return applied;
  }

  /** Statements of the advice that are not a global or a table cache of the replayed database. */
  List<String> notApplied() {
    return notApplied;
  }

  private void restore() {
    undo.restore(this::connect).forEach(f -> log.accept("RESTORE FAILED: " + f));
  }

  /** Undoes every change (idempotent). */
  @Override
  public void close() {
    restore();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException | IllegalArgumentException e) {
      // shutting down (the hook runs), or never added
    }
  }
}
