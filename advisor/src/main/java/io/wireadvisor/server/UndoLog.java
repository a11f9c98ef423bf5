package io.wireadvisor.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The statements that undo server changes a tool made (a global's previous value, {@code ALTER
 * TABLE … NOCACHE}), run newest first by {@link #restore}: prove's and replay's way to leave the
 * server as they found it. Thread-safe; restoring twice is harmless.
 */
public final class UndoLog {
  /** Opens a connection to run the undo statements on. */
  public interface Connect {
    Connection open() throws SQLException;
  }

  private final Deque<String> undo = new ArrayDeque<>();

  /** Records how to undo the change about to be made (pushed before it: undoing a change not made is a no-op). */
  public synchronized void push(String sql) {
    undo.push(sql);
  }

  public synchronized boolean isEmpty() {
    return undo.isEmpty();
  }

  /**
   * Runs every undo statement, newest first, on one connection; returns what failed (empty when
   * all ran), each with the server's message, and forgets them all.
   */
  public synchronized List<String> restore(Connect connect) {
    List<String> failed = new ArrayList<>();
    if (undo.isEmpty()) {
      return failed;
    }
    try (Connection c = connect.open(); Statement s = c.createStatement()) {
      while (!undo.isEmpty()) {
        String sql = undo.pop();
        try {
          s.executeUpdate(sql);
        } catch (SQLException e) {
          failed.add(sql + ": " + e.getMessage());
        }
      }
    } catch (SQLException e) {
      failed.add("cannot connect to restore: " + e.getMessage());
      for (String sql : undo) {
        failed.add("not run: " + sql);
      }
      undo.clear();
    }
    return failed;
  }
}
