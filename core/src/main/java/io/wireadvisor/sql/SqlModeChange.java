package io.wireadvisor.sql;

import java.util.Locale;

/**
 * Whether a text changes its connection's {@link Escaping}: {@code SET [SESSION | LOCAL]
 * sql_mode = ...} (or {@code @@sql_mode}, {@code @@session.sql_mode}, {@code @@local.sql_mode}).
 * The mode the value names when it is a literal ({@code 'ANSI,NO_BACKSLASH_ESCAPES'},
 * {@code TRADITIONAL}); {@link Escaping#UNKNOWN} for anything else ({@code DEFAULT}, an
 * expression, a number), which the next reply's status flags settle.
 */
final class SqlModeChange {
  /** The text changes no mode. */
  static final int NONE = -1;
  /** Or'ed to the result: statements follow the change in the same text (a multi-statement). */
  static final int MORE = 0x10;

  private SqlModeChange() {}

  /**
   * {@link #NONE}, or the ordinal of the {@link Escaping} the text leaves its connection in; when
   * another statement follows the change (the server reads that one in the new mode), {@code
   * UNKNOWN} with {@link #MORE}.
   */
  static int of(TokenList t) {
    int result = NONE;
    boolean changed = false;
    int n = t.size();
    int start = 0;
    while (start < n) {
      int end = start;
      while (end < n && t.type(end) != Token.SEMICOLON) {
        end++;
      }
      if (changed && end > start) {
        // The rest is read in the new mode and may change it again: settled by the replies.
        return Escaping.UNKNOWN.ordinal() | MORE;
      }
      int mode = statement(t, start, end);
      if (mode != NONE) {
        result = mode;
        changed = true;
      }
      start = end + 1;
    }
    return result;
  }

  /** The mode {@code t[from, to)} sets, or NONE. */
  private static int statement(TokenList t, int from, int to) {
    if (!t.is(from, Keyword.SET)) {
      return NONE;
    }
    int i = from + 1;
    if (i < to && t.type(i) == Token.WORD && t.textEquals(i, "statement")) {
      // MariaDB's SET STATEMENT sql_mode=... FOR ...: whichever mode its inner statement is read
      // in, no literal must depend on it.
      for (int k = i; k < to; k++) {
        if (names(t, k)) {
          return Escaping.UNKNOWN.ordinal() | MORE;
        }
      }
      return NONE;
    }
    int result = NONE;
    int depth = t.depth(from);
    while (i < to) {
      boolean global = false;
      if (t.is(i, Keyword.GLOBAL) || t.is(i, Keyword.PERSIST) || t.is(i, Keyword.PERSIST_ONLY)) {
        global = true;
        i++;
      } else if (t.is(i, Keyword.SESSION) || t.is(i, Keyword.LOCAL)) {
        i++;
      }
      int target = i;
      int valueFrom = target + 2;
      int valueTo = valueFrom;
      while (valueTo < to && !(t.type(valueTo) == Token.COMMA && t.depth(valueTo) == depth)) {
        valueTo++;
      }
      if (!global && names(t, target) && isAssign(t, target + 1)) {
        result = value(t, valueFrom, valueTo);
      }
      i = valueTo + 1;
    }
    return result;
  }

  private static boolean names(TokenList t, int i) {
    if (t.type(i) == Token.WORD) {
      return t.textEquals(i, "sql_mode");
    }
    if (t.type(i) == Token.VARIABLE) {
      return t.textEquals(i, "@@sql_mode") || t.textEquals(i, "@@session.sql_mode")
          || t.textEquals(i, "@@local.sql_mode");
    }
    return false;
  }

  private static boolean isAssign(TokenList t, int i) {
    return t.type(i) == Token.OPERATOR && (t.textEquals(i, "=") || t.textEquals(i, ":="));
  }

  private static int value(TokenList t, int from, int to) {
    if (to - from == 1 && !(t.cut() && from == t.size() - 1)) {
      int type = t.type(from);
      if (type == Token.STRING || (type == Token.WORD && !t.is(from, Keyword.DEFAULT))) {
        String text = t.sql.substring(t.start(from), t.end(from)).toUpperCase(Locale.ROOT);
        if (!(text.startsWith("X'") || text.startsWith("B'"))) {
          return Escaping.fromSqlMode(text).ordinal();
        }
      }
    }
    return Escaping.UNKNOWN.ordinal();
  }
}
