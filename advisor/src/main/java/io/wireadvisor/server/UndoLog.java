package io.wireadvisor.server;

import io.wireadvisor.advisor.SqlText;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The statements that undo server changes a tool made (a global's previous value, {@code ALTER
 * TABLE … NOCACHE}), run newest first by {@link #restore}: prove's and replay's way to leave the
 * server as they found it. Thread-safe; restoring twice is harmless.
 *
 * <p>The two changes the tools make go through {@link #setGlobal} and {@link #cacheTable}, which
 * push their own undo: one way to quote a value and name a variable for replay and the bank
 * sample alike.
 */
public final class UndoLog {
  /** MySQL's 1232, "Incorrect argument type to variable": a bare number for a string variable. */
  private static final int WRONG_TYPE_FOR_VAR = 1232;
  private static final Pattern GLOBAL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** What {@link #setGlobal} did. */
  public static final class Global {
    private final String name;
    private final String value;
    private final String previous;
    private final boolean changed;

    Global(String name, String value, String previous, boolean changed) {
      this.name = name;
      this.value = value;
      this.previous = previous;
      this.changed = changed;
    }

    /** The value before (null when the server held NULL). */
    public String previous() {
      return previous;
    }

    /** False when the global already held the value (nothing run, nothing to undo). */
    public boolean changed() {
      return changed;
    }

    /** {@code SET GLOBAL name = value (was previous)}, or {@code (already previous)}, for a tool's log. */
    @Override
    public String toString() {
      return "SET GLOBAL " + name + " = " + value + (changed ? " (was " : " (already ") + previous + ")";
    }
  }

  /** Opens a connection to run the undo statements on. */
  public interface Connect {
    Connection open() throws SQLException;
  }

  private final Deque<String> undo = new ArrayDeque<>();

  /** Records how to undo the change about to be made (pushed before it: undoing a change not made is a no-op). */
  public synchronized void push(String sql) {
    undo.push(sql);
  }

  /**
   * One server change with its undo: reads {@code @@GLOBAL.name}, pushes the statement that sets it
   * back, then runs {@code SET GLOBAL name = value} on {@code s}. Values are written by {@link
   * SqlText#settingValue}; when the server answers 1232 to a bare number (a string variable holding
   * digits) the quoted form is used instead. The undo's form is checked the same way before the
   * change, by setting the previous value again (a no-op), so a restore cannot fail on quoting.
   * Nothing is run when the global already holds {@code value} (ignoring case; {@code ON} and
   * {@code OFF} hold as 1 and 0).
   *
   * @throws IllegalArgumentException when {@code name} is not a plain variable name (letters,
   *     digits, underscores, not starting with a digit): it is written into the SQL as it is
   */
  public Global setGlobal(Statement s, String name, String value) throws SQLException {
    if (name == null || !GLOBAL_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a plain variable name: " + name);
    }
    String previous;
    try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL." + name)) {
      rs.next();
      previous = rs.getString(1);
    }
    if (previous != null && value != null && switchValue(previous).equalsIgnoreCase(switchValue(value))) {
      return new Global(name, value, previous, false);
    }
    String restore = previous == null || !SqlText.isBareSettingValue(previous)
        ? "SET GLOBAL " + name + " = " + SqlText.settingValue(previous)
        : set(s, name, previous);
    push(restore);
    set(s, name, value);
    return new Global(name, value, previous, true);
  }

  /** ON and OFF as the 1 and 0 the servers read a boolean back as. */
  private static String switchValue(String v) {
    return v.equalsIgnoreCase("ON") ? "1" : v.equalsIgnoreCase("OFF") ? "0" : v;
  }

  /** Runs {@code SET GLOBAL name = value}; returns the statement the server took. */
  private static String set(Statement s, String name, String value) throws SQLException {
    String sql = "SET GLOBAL " + name + " = " + SqlText.settingValue(value);
    try {
      s.executeUpdate(sql);
      return sql;
    } catch (SQLException e) {
      if (e.getErrorCode() != WRONG_TYPE_FOR_VAR || !SqlText.isBareSettingValue(value)) {
        throw e;
      }
    }
    String quoted = "SET GLOBAL " + name + " = " + SqlText.quotedSettingValue(value);
    s.executeUpdate(quoted);
    return quoted;
  }

  /**
   * {@code ALTER TABLE `schema`.`table` CACHE} (TiDB's cached tables) on {@code s}, its {@code
   * NOCACHE} pushed first: if {@code CACHE} fails half-way, {@code NOCACHE} on a table that is not
   * cached is a no-op. Both names are quoted by {@link SqlText#identifier}.
   */
  public void cacheTable(Statement s, String schema, String table) throws SQLException {
    String qualified = SqlText.identifier(schema) + "." + SqlText.identifier(table);
    push("ALTER TABLE " + qualified + " NOCACHE");
    s.executeUpdate("ALTER TABLE " + qualified + " CACHE");
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
