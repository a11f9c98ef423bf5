package io.wireadvisor.advisor;

/**
 * The least traffic each judgment needs, in one place (docs/advisor.md lists them). Below these a
 * rule says "not enough traffic to judge …" ({@link Withheld}) instead of advising.
 */
final class Evidence {
  /** Any rate per minute needs at least this window. */
  static final double MIN_WINDOW_SECONDS = 10;
  /** Caching a table: reads of that table in the window. */
  static final long TABLE_CACHE_MIN_READS = 20;
  /** tidb_rc_read_check_ts: business statements in the window. */
  static final long RC_READ_CHECK_MIN_STATEMENTS = 1_000;
  /** tidb_rc_read_check_ts: share of the statements that ran under READ COMMITTED. */
  static final double RC_READ_CHECK_MIN_RC_SHARE = 0.9;
  /**
   * tidb_rc_read_check_ts: withheld when this share of the non-locking reads read tables the
   * application locks (SELECT ... FOR UPDATE) in the window: hot rows.
   */
  static final double RC_READ_CHECK_MAX_LOCKED_READ_SHARE = 0.5;

  /** server-rejects: ERR replies of one kind (read-only SETs, isolation SETs) in the window. */
  static final long REJECTIONS_MIN = 10;
  /** transaction-state: autocommit and read-only SETs in the window. */
  static final long STATE_CHANGES_MIN = 100;

  /**
   * statement-patterns: transactions in which one pattern (a shape's N+1 loading, an UPDATE after
   * an INSERT) was seen.
   */
  static final long PATTERN_MIN_TRANSACTIONS = 5;

  private Evidence() {}
}
