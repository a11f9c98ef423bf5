package io.wireadvisor.sql;

/** What kind of statement a SQL text is, from its leading keyword. */
public enum StatementKind { SELECT, INSERT, REPLACE, UPDATE, DELETE, DDL, SET, SHOW, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, USE, CALL, LOAD, EXPLAIN, LOCK, PREPARE, EXECUTE, DEALLOCATE, ADMIN, OTHER, EMPTY }
