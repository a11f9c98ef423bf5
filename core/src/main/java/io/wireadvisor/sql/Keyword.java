package io.wireadvisor.sql;

/**
 * The keywords the classifier reacts to. The lexer tags each word with its keyword (or null) once,
 * so later passes compare references instead of strings.
 *
 * <p>{@code reserved} follows MySQL closely enough for two decisions: whether a word after a table
 * name is an alias, and whether a {@code -} before a number is unary. Words MySQL lets you use as
 * column names ({@code level}, {@code data}, {@code status}...) must stay non-reserved here.
 */
enum Keyword {
  // Reserved: never an alias, and a sign after them is unary.
  SELECT(true), FROM(true), WHERE(true), JOIN(true), INNER(true), LEFT(true), RIGHT(true),
  CROSS(true), NATURAL(true), STRAIGHT_JOIN(true), OUTER(true), ON(true), USING(true),
  GROUP(true), ORDER(true), BY(true), HAVING(true), LIMIT(true), UNION(true), EXCEPT(true),
  INTERSECT(true), SET(true), FOR(true), LOCK(true), UNLOCK(true), WINDOW(true), PARTITION(true),
  USE(true), FORCE(true), IGNORE(true), AS(true), VALUES(true), INTO(true), AND(true), OR(true),
  NOT(true), IN(true), IS(true), LIKE(true), BETWEEN(true), EXISTS(true), CASE(true), WHEN(true),
  THEN(true), ELSE(true), NULL(true), TRUE(true), FALSE(true), DISTINCT(true), ALL(true),
  WITH(true), RECURSIVE(true), UPDATE(true), DELETE(true), INSERT(true), REPLACE(true),
  KEY(true), INDEX(true), INTERVAL(true), DIV(true), MOD(true), XOR(true), REGEXP(true),
  RLIKE(true), COLLATE(true), BINARY(true), DEFAULT(true), HIGH_PRIORITY(true),
  LOW_PRIORITY(true), DELAYED(true), SQL_CALC_FOUND_ROWS(true), DUAL(true), TABLE(true),
  IF(true), CREATE(true), ALTER(true), DROP(true), RENAME(true), TO(true), ASC(true), DESC(true),
  DESCRIBE(true), EXPLAIN(true), CALL(true), LOAD(true), GRANT(true), REVOKE(true), KILL(true),
  ANALYZE(true), OPTIMIZE(true), CHECK(true), PURGE(true), CHANGE(true), UNIQUE(true),
  FULLTEXT(true), SPATIAL(true), OF(true), FETCH(true), RETURN(true), CHARACTER(true), SQL_NO_CACHE(true),
  SQL_SMALL_RESULT(true), SQL_BIG_RESULT(true), SQL_BUFFER_RESULT(true), OUTFILE(true), INFILE(true), ANY(true), SOME(true), LATERAL(true),
  RETURNING(true),
  // Non-reserved: may also be plain identifiers.
  OFFSET(false), END(false), QUICK(false), SESSION(false), GLOBAL(false),
  LOCAL(false), PERSIST(false), PERSIST_ONLY(false), TRANSACTION(false), ISOLATION(false),
  LEVEL(false), ONLY(false), READ(false), WRITE(false), NAMES(false), CHARSET(false),
  VARIABLES(false), SHOW(false), BEGIN(false), START(false), COMMIT(false), ROLLBACK(false),
  SAVEPOINT(false), RELEASE(false), DATA(false), XML(false), PREPARE(false), EXECUTE(false),
  DEALLOCATE(false), DO(false), TRUNCATE(false), VIEW(false), TEMPORARY(false), DUPLICATE(false),
  TABLES(false), WORK(false), XA(false), IMPORT(false), SHARE(false), MODE(false), FLUSH(false),
  CHECKSUM(false), REPAIR(false), RESET(false), INSTALL(false), UNINSTALL(false), ADMIN(false),
  SPLIT(false), BACKUP(false), RESTORE(false), SHUTDOWN(false), RESTART(false), BINLOG(false),
  HANDLER(false), CACHE(false), ONLINE(false), VALUE(false), CONCURRENT(false), HELP(false),
  TRACE(false), AUTOCOMMIT(false), TX_ISOLATION(false), TRANSACTION_ISOLATION(false),
  TX_READ_ONLY(false), TRANSACTION_READ_ONLY(false);

  final boolean reserved;
  private final char[] lower;

  Keyword(boolean reserved) {
    this.reserved = reserved;
    this.lower = name().toLowerCase(java.util.Locale.ROOT).toCharArray();
  }

  private static final int MAX_LEN = 24;
  /** Indexed by length, then first letter; each cell holds the few keywords that share both. */
  private static final Keyword[][][] BUCKETS = new Keyword[MAX_LEN + 1][26][];

  static {
    for (Keyword k : values()) {
      int len = k.lower.length;
      int c = k.lower[0] - 'a';
      Keyword[] old = BUCKETS[len][c];
      Keyword[] grown;
      if (old == null) {
        grown = new Keyword[] {k};
      } else {
        grown = java.util.Arrays.copyOf(old, old.length + 1);
        grown[old.length] = k;
      }
      BUCKETS[len][c] = grown;
    }
  }

  /** The keyword spelled by {@code s[start, end)} in any letter case, or null; allocates nothing. */
  static Keyword lookup(String s, int start, int end) {
    int len = end - start;
    if (len < 2 || len > MAX_LEN) {
      return null;
    }
    int c = lowerAscii(s.charAt(start)) - 'a';
    if (c < 0 || c >= 26) {
      return null;
    }
    Keyword[] bucket = BUCKETS[len][c];
    if (bucket == null) {
      return null;
    }
    outer:
    for (Keyword k : bucket) {
      char[] kw = k.lower;
      for (int i = 1; i < len; i++) {
        if (lowerAscii(s.charAt(start + i)) != kw[i]) {
          continue outer;
        }
      }
      return k;
    }
    return null;
  }

  static char lowerAscii(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
  }
}
