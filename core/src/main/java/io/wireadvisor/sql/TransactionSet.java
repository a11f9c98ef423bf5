package io.wireadvisor.sql;

import java.util.Locale;

/**
 * How a text changes its connection's transaction characteristics, read from the text alone:
 * <ul>
 *   <li>{@code SET [SESSION | LOCAL] TRANSACTION ISOLATION LEVEL ... [, READ ONLY | READ WRITE]}:
 *       the session's, for every later transaction;
 *   <li>{@code SET TRANSACTION ...} (no scope): the next transaction only;
 *   <li>{@code SET [SESSION | LOCAL] transaction_isolation | tx_isolation = v} and
 *       {@code @@session.} / {@code @@local.} forms, and the read-only variables
 *       {@code transaction_read_only}, {@code tx_read_only}: the session's;
 *   <li>{@code SET @@transaction_isolation = v} (no scope in the name): MySQL applies it to the next
 *       transaction only, TiDB to the session (measured on v8.4): {@link Scope#UNSCOPED_VARIABLE},
 *       which the collector resolves by the server it talks to;
 *   <li>{@code START TRANSACTION READ ONLY | READ WRITE}: the transaction it starts.
 * </ul>
 * {@code GLOBAL} and {@code PERSIST} changes are no change to this connection (a new session takes
 * the global, which the advisor reads from the server). A value that is no literal (a user
 * variable, an expression) is {@link #UNKNOWN}; {@code DEFAULT} is {@link #DEFAULT}, the session's
 * value at login. Immutable; holds no text of the statement (isolation names are constants).
 */
public final class TransactionSet {
  /** Where a change applies. */
  public enum Scope {
    /** Every later transaction of the session. */
    SESSION,
    /** The next transaction only; later ones revert to the session's. */
    NEXT_TRANSACTION,
    /** {@code @@var = v}: next transaction on MySQL, the session on TiDB. */
    UNSCOPED_VARIABLE,
    /** The transaction this text starts ({@code START TRANSACTION READ ONLY}). */
    THIS_TRANSACTION
  }

  /** The isolation or access mode goes back to the session's value at login ({@code = DEFAULT}). */
  public static final String DEFAULT = "DEFAULT";
  /** The new value is not a literal the classifier can read. */
  public static final String UNKNOWN = "unknown";
  /** Access modes. */
  public static final String READ_ONLY = "READ-ONLY";

  public static final String READ_WRITE = "READ-WRITE";

  private static final String[] LEVELS = {
    "READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"
  };

  private final String isolation;
  private final Scope isolationScope;
  private final String accessMode;
  private final Scope accessModeScope;

  private TransactionSet(String isolation, Scope isolationScope, String accessMode, Scope accessModeScope) {
    this.isolation = isolation;
    this.isolationScope = isolationScope;
    this.accessMode = accessMode;
    this.accessModeScope = accessModeScope;
  }

  /**
   * The isolation the text sets: a level as the server names it ({@code READ-COMMITTED}), {@link
   * #DEFAULT}, {@link #UNKNOWN}, or null when it sets none.
   */
  public String isolation() {
    return isolation;
  }

  /** Where {@link #isolation()} applies; null when it sets none. */
  public Scope isolationScope() {
    return isolationScope;
  }

  /** {@link #READ_ONLY}, {@link #READ_WRITE}, {@link #DEFAULT}, {@link #UNKNOWN}, or null. */
  public String accessMode() {
    return accessMode;
  }

  /** Where {@link #accessMode()} applies; null when it sets none. */
  public Scope accessModeScope() {
    return accessModeScope;
  }

  @Override
  public String toString() {
    return "TransactionSet{isolation=" + isolation + " (" + isolationScope + "), access="
        + accessMode + " (" + accessModeScope + ")}";
  }

  // ---- parsing ---------------------------------------------------------------------------

  /** What {@code t} changes, statement by statement (a later one wins), or null for nothing. */
  static TransactionSet of(TokenList t) {
    String iso = null;
    Scope isoScope = null;
    String access = null;
    Scope accessScope = null;
    int n = t.size();
    int start = 0;
    while (start < n) {
      int end = start;
      while (end < n && t.type(end) != Token.SEMICOLON) {
        end++;
      }
      if (t.is(start, Keyword.SET)) {
        int i = start + 1;
        while (i > 0 && i < end) {
          int next = nextAssignment(t, i, end);
          int to = next < 0 ? end : next - 1;
          Scope scope = Scope.SESSION;
          boolean global = false;
          int k = i;
          Keyword kw = t.kw(k);
          if (kw == Keyword.GLOBAL || kw == Keyword.PERSIST || kw == Keyword.PERSIST_ONLY) {
            global = true;
            k++;
          } else if (kw == Keyword.SESSION || kw == Keyword.LOCAL) {
            k++;
          } else if (t.is(k, Keyword.TRANSACTION)) {
            scope = Scope.NEXT_TRANSACTION;
          }
          if (t.is(k, Keyword.TRANSACTION)) {
            // SET [scope] TRANSACTION characteristic [, characteristic]: the commas belong to it.
            to = end;
            next = -1;
            if (!global) {
              for (int c = k + 1; c < to; c++) {
                if (t.is(c, Keyword.ISOLATION) && t.is(c + 1, Keyword.LEVEL)) {
                  String level = level(t, c + 2, to);
                  if (level != null) {
                    iso = level;
                    isoScope = scope;
                  }
                } else if (t.is(c, Keyword.READ)) {
                  String mode = accessWord(t, c + 1); // READ COMMITTED etc. are levels: null
                  if (mode != null) {
                    access = mode;
                    accessScope = scope;
                  }
                }
              }
            }
          } else {
            String name = null;
            if (t.type(k) == Token.VARIABLE && isSystemVariable(t, k)) {
              String text = t.sql.substring(t.start(k) + 2, t.end(k)).toLowerCase(Locale.ROOT);
              int dot = text.indexOf('.');
              if (dot < 0) {
                scope = global ? scope : Scope.UNSCOPED_VARIABLE;
                name = text;
              } else {
                String prefix = text.substring(0, dot);
                global |= !prefix.equals("session") && !prefix.equals("local");
                name = text.substring(dot + 1);
              }
            } else if (t.type(k) == Token.WORD || t.type(k) == Token.QUOTED_IDENT) {
              name = t.identifier(k);
            }
            if (name != null && !global && isAssign(t, k + 1)) {
              if (name.equals("transaction_isolation") || name.equals("tx_isolation")) {
                iso = isolationValue(t, k + 2, to);
                isoScope = scope;
              } else if (name.equals("transaction_read_only") || name.equals("tx_read_only")) {
                access = readOnlyValue(t, k + 2, to);
                accessScope = scope;
              }
            }
          }
          i = next;
        }
      } else if (t.is(start, Keyword.START) && t.is(start + 1, Keyword.TRANSACTION)) {
        for (int c = start + 2; c < end; c++) {
          if (t.is(c, Keyword.READ)) {
            String mode = accessWord(t, c + 1);
            if (mode != null) {
              access = mode;
              accessScope = Scope.THIS_TRANSACTION;
            }
          }
        }
      }
      start = end + 1;
    }
    return iso == null && access == null ? null : new TransactionSet(iso, isoScope, access, accessScope);
  }

  /** READ ONLY / READ WRITE after {@code READ} at {@code c - 1}, or null (READ COMMITTED...). */
  private static String accessWord(TokenList t, int c) {
    if (t.is(c, Keyword.ONLY)) {
      return READ_ONLY;
    }
    if (t.is(c, Keyword.WRITE)) {
      return READ_WRITE;
    }
    return null;
  }

  /** The level named by the words at {@code c}: REPEATABLE READ, READ COMMITTED, ... */
  private static String level(TokenList t, int c, int to) {
    if (c >= to || t.type(c) != Token.WORD) {
      return null;
    }
    if (t.textEquals(c, "serializable")) {
      return LEVELS[3];
    }
    if (c + 1 < to && t.type(c + 1) == Token.WORD) {
      if (t.textEquals(c, "repeatable") && t.is(c + 1, Keyword.READ)) {
        return LEVELS[2];
      }
      if (t.is(c, Keyword.READ) && t.textEquals(c + 1, "committed")) {
        return LEVELS[1];
      }
      if (t.is(c, Keyword.READ) && t.textEquals(c + 1, "uncommitted")) {
        return LEVELS[0];
      }
    }
    return null;
  }

  /** An isolation variable's new value: a quoted level, an index 0-3, DEFAULT, or UNKNOWN. */
  private static String isolationValue(TokenList t, int from, int to) {
    if (to - from != 1 || (t.cut() && from == t.size() - 1)) {
      return UNKNOWN;
    }
    if (t.is(from, Keyword.DEFAULT)) {
      return DEFAULT;
    }
    String v = literal(t, from);
    if (v == null) {
      return UNKNOWN;
    }
    if (t.type(from) == Token.NUMBER) {
      int idx = "0".equals(v) ? 0 : "1".equals(v) ? 1 : "2".equals(v) ? 2 : "3".equals(v) ? 3 : -1;
      return idx < 0 ? UNKNOWN : LEVELS[idx];
    }
    String n = v.trim().toUpperCase(Locale.ROOT).replace(' ', '-').replace('_', '-');
    for (String level : LEVELS) {
      if (level.equals(n)) {
        return level;
      }
    }
    return UNKNOWN;
  }

  /** A read-only variable's new value: ON/1/TRUE read-only, OFF/0/FALSE read-write. */
  private static String readOnlyValue(TokenList t, int from, int to) {
    if (to - from != 1 || (t.cut() && from == t.size() - 1)) {
      return UNKNOWN;
    }
    if (t.is(from, Keyword.DEFAULT)) {
      return DEFAULT;
    }
    if (t.is(from, Keyword.TRUE)) {
      return READ_ONLY;
    }
    if (t.is(from, Keyword.FALSE)) {
      return READ_WRITE;
    }
    String v = literal(t, from);
    if (v == null) {
      return UNKNOWN;
    }
    v = v.trim().toUpperCase(Locale.ROOT);
    if (v.equals("1") || v.equals("ON") || v.equals("TRUE")) {
      return READ_ONLY;
    }
    if (v.equals("0") || v.equals("OFF") || v.equals("FALSE")) {
      return READ_WRITE;
    }
    return UNKNOWN;
  }

  /** The text of a plain string, number or word at {@code i} (quotes removed), else null. */
  private static String literal(TokenList t, int i) {
    int type = t.type(i);
    String text = t.sql.substring(t.start(i), t.end(i));
    if (type == Token.NUMBER || type == Token.WORD) {
      return type == Token.WORD && t.kw(i) != null && t.kw(i) != Keyword.ON ? null : text;
    }
    if (type == Token.STRING && text.length() >= 2) {
      char q = text.charAt(0);
      if ((q == '\'' || q == '"') && text.charAt(text.length() - 1) == q) {
        String inner = text.substring(1, text.length() - 1);
        return inner.indexOf(q) >= 0 || inner.indexOf('\\') >= 0 ? null : inner;
      }
    }
    return null;
  }

  private static boolean isSystemVariable(TokenList t, int k) {
    return t.end(k) - t.start(k) > 2 && t.sql.charAt(t.start(k) + 1) == '@';
  }

  private static boolean isAssign(TokenList t, int i) {
    return t.type(i) == Token.OPERATOR && (t.textEquals(i, "=") || t.textEquals(i, ":="));
  }

  /** The index after the next top-level comma of this statement, or -1. */
  private static int nextAssignment(TokenList t, int from, int end) {
    int depth = t.depth(from);
    for (int k = from; k < end; k++) {
      if (t.type(k) == Token.COMMA && t.depth(k) == depth) {
        return k + 1;
      }
    }
    return -1;
  }
}
