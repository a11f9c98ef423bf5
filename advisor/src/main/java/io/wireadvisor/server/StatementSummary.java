package io.wireadvisor.server;

/** One row of TiDB's {@code information_schema.STATEMENTS_SUMMARY}. */
public final class StatementSummary {
  private final String schema;
  private final String digestText;
  private final long execCount;
  private final long planCacheHits;
  private final boolean planInCache;
  private final long sumLatencyNanos;
  private final String digest;
  private final double avgProcessedKeys;
  private long planCacheUnqualified = -1;
  private String planCacheUnqualifiedReason;
  private long avgParseNanos = -1;
  private long avgCompileNanos = -1;

  public StatementSummary(
      String schema,
      String digestText,
      long execCount,
      long planCacheHits,
      boolean planInCache,
      long sumLatencyNanos) {
    this(schema, digestText, execCount, planCacheHits, planInCache, sumLatencyNanos, null, -1);
  }

  /**
   * @param digest TiDB's digest of the statement ({@code DIGEST}), the identity TiDB Dashboard and
   *     the slow log use; null when unknown
   * @param avgProcessedKeys {@code AVG_PROCESSED_KEYS}; -1 when unknown
   */
  public StatementSummary(
      String schema,
      String digestText,
      long execCount,
      long planCacheHits,
      boolean planInCache,
      long sumLatencyNanos,
      String digest,
      double avgProcessedKeys) {
    this.digest = digest;
    this.avgProcessedKeys = avgProcessedKeys;
    this.schema = schema;
    this.digestText = digestText == null ? "" : digestText;
    this.execCount = execCount;
    this.planCacheHits = planCacheHits;
    this.planInCache = planInCache;
    this.sumLatencyNanos = sumLatencyNanos;
  }

  public String schema() {
    return schema;
  }

  public String digestText() {
    return digestText;
  }

  public long execCount() {
    return execCount;
  }

  public long planCacheHits() {
    return planCacheHits;
  }

  public boolean planInCache() {
    return planInCache;
  }

  public long sumLatencyNanos() {
    return sumLatencyNanos;
  }

  /** TiDB's digest, or null. */
  public String digest() {
    return digest;
  }

  /** Average keys processed per execution, or -1. */
  public double avgProcessedKeys() {
    return avgProcessedKeys;
  }

  /**
   * This row with TiDB's plan-cache refusals ({@code PLAN_CACHE_UNQUALIFIED}, {@code
   * PLAN_CACHE_UNQUALIFIED_LAST_REASON}) and optimizer times ({@code AVG_PARSE_LATENCY}, {@code
   * AVG_COMPILE_LATENCY}, nanoseconds); -1 or null for what the server does not record.
   */
  public StatementSummary withPlanCacheFacts(long unqualified, String lastReason, long avgParse, long avgCompile) {
    StatementSummary s =
        new StatementSummary(schema, digestText, execCount, planCacheHits, planInCache, sumLatencyNanos, digest, avgProcessedKeys);
    s.planCacheUnqualified = unqualified;
    s.planCacheUnqualifiedReason = lastReason == null || lastReason.isEmpty() ? null : lastReason;
    s.avgParseNanos = avgParse;
    s.avgCompileNanos = avgCompile;
    return s;
  }

  /** Executions TiDB's plan cache refused ({@code PLAN_CACHE_UNQUALIFIED}), or -1 when not recorded. */
  public long planCacheUnqualified() {
    return planCacheUnqualified;
  }

  /** TiDB's words for the last refusal, as the server wrote them (may quote a value), or null. */
  public String planCacheUnqualifiedReason() {
    return planCacheUnqualifiedReason;
  }

  /** Average parse time in nanoseconds, or -1. */
  public long avgParseNanos() {
    return avgParseNanos;
  }

  /** Average compile (optimize) time in nanoseconds, or -1. */
  public long avgCompileNanos() {
    return avgCompileNanos;
  }
}
