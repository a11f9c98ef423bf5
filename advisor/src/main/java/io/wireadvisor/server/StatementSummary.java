package io.wireadvisor.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /**
   * One row per schema and digest from rows of several summary intervals
   * ({@code STATEMENTS_SUMMARY_HISTORY}): counts and latencies summed, averages weighted by
   * executions, the last reason TiDB gave kept; the {@code max} most executed kept.
   *
   * @param oldestFirst rows in the order of their intervals, oldest first (a later reason wins)
   */
  public static List<StatementSummary> merge(List<StatementSummary> oldestFirst, int max) {
    Map<String, List<StatementSummary>> byKey = new LinkedHashMap<String, List<StatementSummary>>();
    for (StatementSummary st : oldestFirst) {
      String key = st.schema + "\u0000" + (st.digest != null ? st.digest : st.digestText);
      List<StatementSummary> rows = byKey.get(key);
      if (rows == null) {
        rows = new ArrayList<StatementSummary>();
        byKey.put(key, rows);
      }
      rows.add(st);
    }
    List<StatementSummary> out = new ArrayList<StatementSummary>();
    for (List<StatementSummary> rows : byKey.values()) {
      out.add(rows.size() == 1 ? rows.get(0) : sum(rows));
    }
    Collections.sort(out, (a, b) -> Long.compare(b.execCount, a.execCount));
    return out.size() > max ? new ArrayList<StatementSummary>(out.subList(0, max)) : out;
  }

  private static StatementSummary sum(List<StatementSummary> rows) {
    StatementSummary last = rows.get(rows.size() - 1);
    long exec = 0;
    long hits = 0;
    boolean inCache = false;
    long latency = 0;
    double keys = 0;
    boolean keysKnown = true;
    long unqualified = 0;
    boolean unqualifiedKnown = false;
    String reason = null;
    double parse = 0;
    double compile = 0;
    boolean parseKnown = true;
    boolean compileKnown = true;
    for (StatementSummary st : rows) {
      exec += st.execCount;
      hits += st.planCacheHits;
      inCache |= st.planInCache;
      latency += st.sumLatencyNanos;
      keysKnown &= st.avgProcessedKeys >= 0;
      keys += Math.max(0, st.avgProcessedKeys) * st.execCount;
      if (st.planCacheUnqualified >= 0) {
        unqualifiedKnown = true;
        unqualified += st.planCacheUnqualified;
      }
      if (st.planCacheUnqualifiedReason != null) {
        reason = st.planCacheUnqualifiedReason;
      }
      parseKnown &= st.avgParseNanos >= 0;
      compileKnown &= st.avgCompileNanos >= 0;
      parse += (double) Math.max(0, st.avgParseNanos) * st.execCount;
      compile += (double) Math.max(0, st.avgCompileNanos) * st.execCount;
    }
    StatementSummary merged =
        new StatementSummary(last.schema, last.digestText, exec, hits, inCache, latency, last.digest,
            keysKnown ? (exec == 0 ? 0 : keys / exec) : -1);
    return merged.withPlanCacheFacts(
        unqualifiedKnown ? unqualified : -1,
        reason,
        parseKnown ? (exec == 0 ? 0 : Math.round(parse / exec)) : -1,
        compileKnown ? (exec == 0 ? 0 : Math.round(compile / exec)) : -1);
  }
}
