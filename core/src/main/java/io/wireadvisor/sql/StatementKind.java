package io.wireadvisor.sql;

/**
 * What a statement does, decided by its first keyword (after leading comments and parentheses;
 * for {@code WITH ...} by the main statement that follows the common table expressions).
 */
public enum StatementKind {
  SELECT,
  INSERT,
  REPLACE,
  UPDATE,
  DELETE,
  /** CREATE, ALTER, DROP, TRUNCATE, RENAME. */
  DDL,
  SET,
  SHOW,
  /** BEGIN and START TRANSACTION. */
  BEGIN,
  COMMIT,
  ROLLBACK,
  /** SAVEPOINT and RELEASE SAVEPOINT. */
  SAVEPOINT,
  USE,
  CALL,
  /** LOAD DATA, LOAD XML and TiDB's IMPORT INTO. */
  LOAD,
  /** EXPLAIN, DESCRIBE, DESC. */
  EXPLAIN,
  /** LOCK TABLES and UNLOCK TABLES. */
  LOCK,
  /** SQL-level PREPARE (not the binary protocol's COM_STMT_PREPARE). */
  PREPARE,
  /** SQL-level EXECUTE. */
  EXECUTE,
  /** SQL-level DEALLOCATE PREPARE / DROP PREPARE. */
  DEALLOCATE,
  /** GRANT, REVOKE, KILL, FLUSH, ANALYZE, XA, TiDB's ADMIN and SPLIT, and the like. */
  ADMIN,
  /** Anything not recognised, including text that is not SQL at all. */
  OTHER,
  /** Nothing but whitespace, comments or semicolons. */
  EMPTY;

  /** The application's own work (DML and CALL), as opposed to transaction control, SETs, DDL. */
  public boolean isBusiness() {
    switch (this) {
      case SELECT:
      case INSERT:
      case UPDATE:
      case DELETE:
      case REPLACE:
      case CALL:
        return true;
      default:
        return false;
    }
  }
}
