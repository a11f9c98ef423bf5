package io.wireadvisor.sql;

/** Finds the statement's main keyword and the {@link StatementKind} it stands for. */
final class KindDetector {
  private KindDetector() {}

  /**
   * Index of the main keyword: past leading parentheses and hints, and past a WITH clause's
   * common table expressions, so {@code WITH x AS (...) UPDATE ...} is an UPDATE.
   */
  static int mainIndex(TokenList t) {
    int i = skipOpeners(t, 0);
    if (t.is(i, Keyword.WITH)) {
      int k = i + 1;
      if (t.is(k, Keyword.RECURSIVE)) {
        k++;
      }
      while (t.isIdentifier(k)) {
        k++;
        if (t.type(k) == Token.LPAREN) {
          k = t.match(k) + 1;
          if (k == 0) {
            return i;
          }
        }
        if (!t.is(k, Keyword.AS) || t.type(k + 1) != Token.LPAREN) {
          return i;
        }
        int close = t.match(k + 1);
        if (close < 0) {
          return i;
        }
        k = close + 1;
        if (t.type(k) == Token.COMMA) {
          k++;
        } else {
          return skipOpeners(t, k);
        }
      }
    }
    return i;
  }

  private static int skipOpeners(TokenList t, int from) {
    int i = from;
    while (t.type(i) == Token.LPAREN || t.type(i) == Token.HINT || t.type(i) == Token.SEMICOLON) {
      i++;
    }
    return i;
  }

  /**
   * Whether a SELECT locks what it reads: {@code FOR UPDATE}, {@code FOR SHARE} (MySQL 8.0, TiDB)
   * or {@code LOCK IN SHARE MODE}, anywhere in the statement (a locking subquery of a UNION
   * locks too). Other kinds are never locking reads.
   */
  static boolean lockingRead(TokenList t, StatementKind kind) {
    if (kind != StatementKind.SELECT) {
      return false;
    }
    for (int i = 0; i < t.size(); i++) {
      if (t.is(i, Keyword.FOR) && (t.is(i + 1, Keyword.UPDATE) || t.is(i + 1, Keyword.SHARE))) {
        return true;
      }
      if (t.is(i, Keyword.LOCK) && t.is(i + 1, Keyword.IN) && t.is(i + 2, Keyword.SHARE)
          && t.is(i + 3, Keyword.MODE)) {
        return true;
      }
    }
    return false;
  }

  static StatementKind kind(TokenList t, int main) {
    if (main >= t.size()) {
      return StatementKind.EMPTY;
    }
    Keyword k = t.kw(main);
    if (k == null) {
      return StatementKind.OTHER;
    }
    switch (k) {
      case SELECT:
        return StatementKind.SELECT;
      case INSERT:
        return StatementKind.INSERT;
      case REPLACE:
        return StatementKind.REPLACE;
      case UPDATE:
        return StatementKind.UPDATE;
      case DELETE:
        return StatementKind.DELETE;
      case DROP:
        return t.is(main + 1, Keyword.PREPARE) ? StatementKind.DEALLOCATE : StatementKind.DDL;
      case CREATE:
      case ALTER:
      case TRUNCATE:
      case RENAME:
        return StatementKind.DDL;
      case SET:
        return StatementKind.SET;
      case SHOW:
        return StatementKind.SHOW;
      case BEGIN:
        return StatementKind.BEGIN;
      case START:
        return t.is(main + 1, Keyword.TRANSACTION) ? StatementKind.BEGIN : StatementKind.ADMIN;
      case COMMIT:
        return StatementKind.COMMIT;
      case ROLLBACK:
        return StatementKind.ROLLBACK;
      case SAVEPOINT:
      case RELEASE:
        return StatementKind.SAVEPOINT;
      case USE:
        return StatementKind.USE;
      case CALL:
        return StatementKind.CALL;
      case LOAD:
        return t.is(main + 1, Keyword.DATA) || t.is(main + 1, Keyword.XML)
            ? StatementKind.LOAD : StatementKind.ADMIN;
      case IMPORT:
        return StatementKind.LOAD;
      case EXPLAIN:
      case DESCRIBE:
      case DESC:
        return StatementKind.EXPLAIN;
      case LOCK:
      case UNLOCK:
        return StatementKind.LOCK;
      case PREPARE:
        return StatementKind.PREPARE;
      case EXECUTE:
        return StatementKind.EXECUTE;
      case DEALLOCATE:
        return StatementKind.DEALLOCATE;
      case GRANT:
      case REVOKE:
      case KILL:
      case FLUSH:
      case ANALYZE:
      case OPTIMIZE:
      case CHECK:
      case CHECKSUM:
      case REPAIR:
      case RESET:
      case PURGE:
      case INSTALL:
      case UNINSTALL:
      case XA:
      case ADMIN:
      case CHANGE:
      case SPLIT:
      case BACKUP:
      case RESTORE:
      case SHUTDOWN:
      case RESTART:
      case BINLOG:
      case CACHE:
        return StatementKind.ADMIN;
      default:
        return StatementKind.OTHER;
    }
  }
}
