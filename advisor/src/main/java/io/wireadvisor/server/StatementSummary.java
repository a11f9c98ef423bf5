package io.wireadvisor.server;

/** One row of TiDB's {@code information_schema.STATEMENTS_SUMMARY}. */
public final class StatementSummary {
  private final String schema;
  private final String digestText;
  private final long execCount;
  private final long planCacheHits;
  private final boolean planInCache;
  private final long sumLatencyNanos;

  public StatementSummary(
      String schema,
      String digestText,
      long execCount,
      long planCacheHits,
      boolean planInCache,
      long sumLatencyNanos) {
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
}
