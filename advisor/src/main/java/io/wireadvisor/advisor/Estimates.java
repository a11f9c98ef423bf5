package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Time, not only counts: what each recommendation is estimated to save (round trips and the time
 * the application spent on them), the statements ranked by time, and the first screen's outlook.
 *
 * <p>The estimates count the round trips a change removes, each at the time the profile
 * measured for it (the removed shapes' own latency where they have one, else the median of their
 * command type). On TiDB with STATEMENTS_SUMMARY's optimizer times ({@code AVG_PARSE_LATENCY},
 * {@code AVG_COMPILE_LATENCY}) they also count the parse and compile time the plan cache removes
 * from each execution it will serve: the client waits for it, and it is most of TiDB's CPU on
 * short statements. Other server-side gains (TSO waits saved by RC read checks, reads served from
 * a cached table) are not estimated; each {@link Saving} says so.
 */
final class Estimates {
  /** How many statements the report ranks by time. */
  static final int TOP_STATEMENTS = 20;
  static final String PROBES = "probes";
  private static final double NANOS = 1e9;

  private final TrafficProfile profile;
  private final Workload w;
  private final JdbcSettings jdbc;
  private final StateModel state;
  private final ServerView server;
  /** Normalized digest text -> {executions, parse ns x executions, compile ns x executions}. */
  private Map<String, double[]> optimizer;
  /** Recommendations whose gain is server time not estimated, in the order they were priced. */
  private final java.util.Set<String> serverSideIds = new java.util.LinkedHashSet<>();
  /** True once the text-protocol saving counted TiDB's parse and compile time (the plan cache's gain). */
  private boolean optimizerCounted;

  Estimates(TrafficProfile profile) {
    this(profile, null);
  }

  /** @param server the inspected server, or null: then no server time is estimated */
  Estimates(TrafficProfile profile, ServerView server) {
    this.profile = profile;
    this.w = Workload.of(profile);
    this.jdbc = JdbcSettings.of(profile);
    this.state = new StateModel(profile, jdbc);
    this.server = server;
  }

  /**
   * TiDB's average parse and compile nanoseconds per execution of this shape that misses the plan
   * cache, from the summary rows of its statement (weighted across schemas); null when TiDB does
   * not say. A row's averages are over all its executions, and TiDB keeps text and prepared
   * executions of one digest in one row: the plan-cache hits among them parse nothing and compile
   * next to nothing, so the row's totals are spread over its misses ({@code EXEC_COUNT -
   * PLAN_CACHE_HITS}). Without that, a statement also run prepared and cached (another
   * application, an earlier configuration) priced a text execution at a fraction of its cost: on
   * the bank S1 profile 3.6 s instead of 8.3 s after prove had run the cached configuration.
   */
  double[] optimizerNanos(ShapeStats s) {
    if (optimizer == null) {
      optimizer = new java.util.HashMap<>();
      if (server != null && server.isTiDB()) {
        for (io.wireadvisor.server.StatementSummary row : server.statements()) {
          if (row.avgParseNanos() < 0 || row.avgCompileNanos() < 0 || row.execCount() <= 0) {
            continue;
          }
          long misses = row.execCount() - Math.max(0, row.planCacheHits());
          if (misses <= 0) {
            continue; // every execution a plan-cache hit: nothing said about a miss's cost
          }
          double[] t = optimizer.computeIfAbsent(SummaryMatch.normalize(row.digestText()), k -> new double[3]);
          t[0] += misses;
          t[1] += (double) row.avgParseNanos() * row.execCount();
          t[2] += (double) row.avgCompileNanos() * row.execCount();
        }
      }
    }
    double[] t = optimizer.get(SummaryMatch.normalize(s.digestText()));
    return t == null || t[0] == 0 ? null : new double[] {t[1] / t[0], t[2] / t[0]};
  }

  /**
   * {@link #optimizerNanos} for {@code s}'s text executions, at most the mean latency the collector
   * measured for them: TiDB parses and compiles a statement inside its round trip. A row whose
   * executions were nearly all plan-cache hits (the summary refilled by another configuration's
   * traffic) puts its whole parse and compile time on a few misses: BenchBase's TPC-C analysed so
   * read 0.36 s per text execution, 58,102 s for a 62 s window.
   */
  double[] textOptimizerNanos(ShapeStats s) {
    double[] o = optimizerNanos(s);
    io.wireadvisor.profile.Histogram latency = s.latency();
    if (o == null || latency == null || latency.count() == 0) {
      return o;
    }
    double bound = latency.mean();
    double sum = o[0] + o[1];
    return sum <= bound || sum <= 0 ? o : new double[] {o[0] * bound / sum, o[1] * bound / sum};
  }

  /** The kind of server, from the inspected view or else from the profile's sources. */
  static Outlook.ServerKind serverKind(TrafficProfile profile, ServerView server) {
    String version = server != null ? server.version().toString() : null;
    if (server != null && server.isTiDB()) {
      return Outlook.ServerKind.TIDB;
    }
    if (version == null) {
      for (Source s : profile.sources()) {
        if (s.serverVersion() != null) {
          version = s.serverVersion();
          break;
        }
      }
    }
    if (version == null) {
      return Outlook.ServerKind.UNKNOWN;
    }
    String v = version.toLowerCase(Locale.ROOT);
    if (v.contains("tidb")) {
      return Outlook.ServerKind.TIDB;
    }
    return v.contains("mariadb") ? Outlook.ServerKind.MARIADB : Outlook.ServerKind.MYSQL;
  }

  /** The server line: the inspected server, else the version the profile recorded. */
  static String serverLine(TrafficProfile profile, ServerView server) {
    if (server != null) {
      return server.describe();
    }
    for (Source s : profile.sources()) {
      if (s.serverVersion() != null) {
        return s.serverVersion() + " (as the collector saw it; no server inspected)";
      }
    }
    return null;
  }

  /** The recommendation with its estimated saving, or as it was when none can be estimated. */
  Recommendation withSaving(Recommendation r) {
    Saving s = saving(r);
    return s == null ? r : r.withSaving(s);
  }

  /** {@code r}'s saving as its rule estimates it ({@link Rule#saving}); server-side when no rule has its id. */
  private Saving saving(Recommendation r) {
    Rule rule = Advisor.rule(r.id());
    return rule == null ? serverSide(r) : rule.saving(r, this);
  }

  /**
   * The compile time TiDB's plan cache will skip for server-prepared executions that miss it now
   * (the cache off or too small, or the statements it refuses): each such execution of the
   * profile at its statement's average compile time, scaled by the share of executions that miss
   * the cache in TiDB's summary. Server-side otherwise.
   */
  Saving compileTime(Recommendation r, boolean refusedOnly) {
    if (server == null || !server.isTiDB()) {
      return serverSide(r);
    }
    Map<String, double[]> missShare = new java.util.HashMap<>();
    for (io.wireadvisor.server.StatementSummary row : server.statements()) {
      long misses = refusedOnly ? Math.max(0, row.planCacheUnqualified()) : row.execCount() - row.planCacheHits();
      double[] m = missShare.computeIfAbsent(SummaryMatch.normalize(row.digestText()), k -> new double[2]);
      m[0] += Math.max(0, misses);
      m[1] += row.execCount();
    }
    double nanos = 0;
    long executions = 0;
    for (ShapeStats s : profile.shapes().values()) {
      long n = s.count(Via.EXECUTES);
      double[] o = n > 0 && Workload.isBusiness(s) ? optimizerNanos(s) : null;
      double[] m = o == null ? null : missShare.get(SummaryMatch.normalize(s.digestText()));
      if (m == null || m[1] == 0 || m[0] == 0) {
        continue;
      }
      long missed = Math.round(n * Math.min(1.0, m[0] / m[1]));
      nanos += missed * o[1];
      executions += missed;
    }
    if (executions == 0) {
      return serverSide(r);
    }
    return new Saving(0, 0, nanos / NANOS,
        "no round trips: " + Fmt.count(executions) + " server-prepared executions in the window miss"
            + " TiDB's plan cache (the share STATEMENTS_SUMMARY shows"
            + (refusedOnly ? " refused" : " without a plan-cache hit") + "), each compiled again at"
            + " its statement's AVG_COMPILE_LATENCY: " + String.format(Locale.ROOT, "%.3f s", nanos / NANOS)
            + " of time the client waits and TiDB computes");
  }

  /** Repeated text statements made server-prepared: COM_QUERY round trips become COM_STMT_EXECUTE (and TiDB's parse and optimize time). */
  Saving textProtocol() {
    long r = w.repeatedTextExecutions;
    long connections = Math.max(1, profile.connections().connections());
    long prepares = Math.min(r, (long) w.repeatedTextShapes * connections);
    // A connection prepares only the shapes it uses: the sum over connections of the shapes each
    // used (probes and one-off statements included, so still an upper bound) is closer than
    // every shape on every connection when a pool's connections are unevenly busy.
    io.wireadvisor.profile.Histogram used =
        profile.connections().distribution(io.wireadvisor.profile.ConnectionMetric.DISTINCT_SHAPES);
    if (used != null && used.count() > 0) {
      prepares = Math.min(prepares, used.sum());
    }
    Map<String, Long> delta = new LinkedHashMap<>();
    delta.put(CommandType.QUERY.wireName(), -r);
    delta.put(CommandType.STMT_EXECUTE.wireName(), r);
    delta.put(CommandType.STMT_PREPARE.wireName(), prepares);
    double q = median(CommandType.QUERY);
    double e = median(CommandType.STMT_EXECUTE);
    double seconds = q > 0 && e > 0 ? Math.max(0, r * (q - e)) / NANOS : 0;
    // What TiDB spends parsing and optimizing the repeated text statements, which the plan cache
    // serves once they are prepared.
    double optimizerNanos = 0;
    long timedExecutions = 0;
    for (ShapeStats s : profile.shapes().values()) {
      long t = s.count(Via.TEXT_EXECUTES);
      double[] o = Workload.isBusiness(s) && t >= Workload.REPEATED_MIN_EXECUTIONS ? textOptimizerNanos(s) : null;
      if (o != null) {
        optimizerNanos += t * (o[0] + o[1]);
        timedExecutions += t;
      }
    }
    double serverSeconds = optimizerNanos / NANOS;
    optimizerCounted |= timedExecutions > 0;
    String serverWords =
        timedExecutions == 0
            ? " On TiDB the plan cache also saves parse and optimize time, not estimated here (no"
                + " STATEMENTS_SUMMARY optimizer times for these statements)."
            : " TiDB's STATEMENTS_SUMMARY: parsing and optimizing " + Fmt.count(timedExecutions)
                + " of them took " + String.format(Locale.ROOT, "%.3f s", serverSeconds)
                + " (AVG_PARSE_LATENCY + AVG_COMPILE_LATENCY), which plan-cache hits skip;"
                + " the estimate takes the larger of the two.";
    String assumption =
        "each of "
            + Fmt.count(r)
            + " repeated text statements becomes one COM_STMT_EXECUTE (with the statement cache),"
            + " plus one PREPARE per statement on each connection that used it ("
            + Fmt.count(prepares)
            + ")"
            + (q > 0 && e > 0
                ? "; time: the measured median COM_QUERY ("
                    + ms(q)
                    + ") minus the median COM_STMT_EXECUTE ("
                    + ms(e)
                    + ") per statement"
                : "; the profile has no COM_STMT_EXECUTE latency to compare")
            + "."
            + serverWords;
    return new Saving(r, r + prepares, Math.max(seconds, serverSeconds), assumption, delta);
  }

  /** A client-side statement cache: the prepares (and closes) it saves, at their measured time. */
  Saving statementCache() {
    if (w.prepares == 0) {
      long r = w.repeatedTextExecutions;
      return new Saving(0, 0, 0,
          "no round trips now: it keeps the server-side prepares from costing a PREPARE and a"
              + " CLOSE per statement (" + Fmt.count(2 * r) + " more commands in this window)");
    }
    long connections = Math.max(1, profile.connections().connections());
    long keep = Math.min(w.prepares, (long) w.preparedShapes * connections);
    long removedPrepares = Math.max(0, w.prepares - keep);
    long removedCloses = w.closes;
    Map<String, Long> delta = new LinkedHashMap<>();
    delta.put(CommandType.STMT_PREPARE.wireName(), -removedPrepares);
    delta.put(CommandType.STMT_CLOSE.wireName(), -removedCloses);
    double seconds = removedPrepares * Math.max(0, median(CommandType.STMT_PREPARE)) / NANOS;
    return new Saving(
        w.prepares + w.closes,
        keep,
        seconds,
        "PREPARE once per statement and connection ("
            + Fmt.count(keep)
            + ") instead of "
            + Fmt.count(w.prepares)
            + ", no CLOSE; each removed PREPARE at the measured median ("
            + ms(median(CommandType.STMT_PREPARE))
            + "); a CLOSE has no reply and costs the client no wait",
        delta);
  }

  /**
   * What {@code r}'s change alone removes of the session-state statements ({@link StateModel}):
   * each removed execution at its shape's measured time per execution.
   */
  Saving stateSaving(Recommendation r, String what) {
    long[] removed = state.removed(state.now().with(r));
    if (removed[0] == 0) {
      return null;
    }
    Map<String, Long> delta = new LinkedHashMap<>();
    delta.put(PROBES, -removed[0]);
    long rollbacks = state.addedRollbacks(state.now().with(r));
    if (rollbacks > 0) {
      return stateSavingWithRollbacks(removed, rollbacks, what, delta);
    }
    return new Saving(removed[0], 0, removed[1] / NANOS,
        what + ": " + Fmt.count(removed[0]) + " round trips at the time measured for them", delta);
  }

  /** As {@link #stateSaving}, less the ROLLBACKs the pool's autoCommit=false adds ({@link StateModel#addedRollbacks}). */
  private Saving stateSavingWithRollbacks(
      long[] removed, long rollbacks, String what, Map<String, Long> delta) {
    delta.put(CommandType.QUERY.wireName(), rollbacks);
    double nanos = removed[1] - rollbacks * state.rollbackNanos();
    return new Saving(removed[0], rollbacks, nanos / NANOS,
        what + ": " + Fmt.count(removed[0]) + " round trips at the time measured for them; "
            + Fmt.count(rollbacks) + " ROLLBACKs added, one per " + StateModel.borrowUnit(profile)
            + " that ran statements outside a transaction (HikariCP rolls back such a borrow's"
            + " transaction when the connection is returned), each at the measured time of a"
            + " COMMIT or ROLLBACK", delta);
  }

  /** Batches rewritten into multi-row statements: one round trip per batch instead of per row. */
  Saving batches() {
    long statements = 0;
    long batches = 0;
    double nanos = 0;
    Map<String, Long> delta = new LinkedHashMap<>();
    for (ShapeStats s : profile.shapes().values()) {
      long b = s.count(Via.BATCHES);
      long n = s.count(Via.BATCHED_STATEMENTS);
      if (b == 0 || n <= b) {
        continue;
      }
      statements += n;
      batches += b;
      long removed = n - b;
      String type =
          s.count(Via.EXECUTES) > 0 ? CommandType.STMT_EXECUTE.wireName() : CommandType.QUERY.wireName();
      Long d = delta.get(type);
      delta.put(type, (d == null ? 0 : d) - removed);
      long executions = s.executions();
      nanos += executions == 0 ? 0 : timeOf(s) * removed / (double) executions;
    }
    if (statements == 0) {
      return null;
    }
    return new Saving(statements, batches, nanos / NANOS,
        "one multi-row statement per executeBatch() instead of one round trip per row; each"
            + " removed round trip at its shape's measured time (the multi-row statement's own"
            + " extra server time is not estimated)", delta);
  }

  /**
   * What the mapping changes remove ({@link ShapesAfter}, this change alone): with batch fetching
   * a transaction's K one-value loads of a shape become ceil(K / {@value
   * StatementPatternRule#ADVISED_BATCH_SIZE}) statements and a pair becomes one (join fetch
   * leaves none), UPDATEs after INSERTs all go; each removed execution with the commands it is
   * sent with now, at the pattern's own measured time per execution.
   */
  Saving patterns(Recommendation r) {
    ShapesAfter after = ShapesAfter.of(profile, jdbc,
        java.util.Collections.singleton(StatementPatternRule.ID), ShapesAfter.batchFetch(r));
    if (after.commandsConcerned == 0) {
      return null;
    }
    long removedCommands = 0;
    for (long d : after.commandDelta.values()) {
      removedCommands -= d;
    }
    List<String> what = new ArrayList<>();
    if (after.loopsRemoved + after.pairsRemoved > 0) {
      what.add("N+1 loads become one statement per " + StatementPatternRule.ADVISED_BATCH_SIZE
          + " rows and transaction (batch fetching; join fetch leaves none): "
          + Fmt.count(after.loopsRemoved + after.pairsRemoved) + " fewer statements"
          + (after.pairsRemoved == 0 ? "" : ", " + Fmt.count(after.pairsRemoved) + " of them the"
              + " second of a shape's two loads in a transaction (below N+1's minimum, batched"
              + " alike)"));
    }
    if (after.updatesRemoved > 0) {
      what.add("the " + Fmt.count(after.updatesRemoved) + " UPDATEs after INSERTs go");
    }
    return new Saving(after.commandsConcerned, after.commandsConcerned - removedCommands,
        after.nanosRemoved / NANOS,
        String.join("; ", what) + "; each removed statement with the commands it is sent with, at"
            + " its pattern's measured time per execution (the larger join or IN (...) statement's"
            + " own extra server time is not estimated)",
        after.commandDelta);
  }

  /** A driver upgrade: the COM_STMT_RESET before each cached statement's execution goes. */
  Saving resets() {
    if (w.resets == 0) {
      return new Saving(0, 0, 0,
          "no round trips now: it keeps the advised statement cache from adding a COM_STMT_RESET"
              + " per statement taken from the cache");
    }
    Map<String, Long> delta = new LinkedHashMap<>();
    delta.put(CommandType.STMT_RESET.wireName(), -w.resets);
    double median = Math.max(0, median(CommandType.STMT_RESET));
    return new Saving(w.resets, 0, w.resets * median / NANOS,
        "no COM_STMT_RESET before executions of cached statements: " + Fmt.count(w.resets)
            + " round trips at the measured median (" + ms(median) + ")", delta);
  }

  /** A change on the server: its gain is in server time, which the profile does not measure. */
  Saving serverSide(Recommendation r) {
    if (serverSideIds.size() < 16) {
      serverSideIds.add(r.id());
    }
    return new Saving(0, 0, 0,
        "a server-side change: its gain is in server time (parse, plan, TSO waits or reads),"
            + " which the profile does not measure; verify it as the recommendation says");
  }

  /**
   * Recommendations with savings, most time saved first, then in rule order (the study's path).
   * A statement cache that goes with server-side prepares not made yet stands right after them:
   * one without the other costs more round trips than before.
   */
  List<Recommendation> ranked(List<Recommendation> recommendations) {
    final List<Recommendation> inRuleOrder = new ArrayList<>();
    for (Recommendation r : recommendations) {
      inRuleOrder.add(withSaving(r));
    }
    List<Recommendation> ranked = new ArrayList<>(inRuleOrder);
    Collections.sort(
        ranked,
        new Comparator<Recommendation>() {
          @Override
          public int compare(Recommendation a, Recommendation b) {
            int c = Double.compare(seconds(b), seconds(a));
            return c != 0 ? c : Integer.compare(inRuleOrder.indexOf(a), inRuleOrder.indexOf(b));
          }
        });
    // The driver upgrade comes before everything: other changes are advised (or withheld) for it.
    Recommendation upgrade = find(ranked, DriverUpgradeRule.ID);
    if (upgrade != null) {
      ranked.remove(upgrade);
      ranked.add(0, upgrade);
    }
    Recommendation text = find(ranked, TextProtocolRule.ID);
    Recommendation cache = find(ranked, StatementCacheRule.ID);
    if (text != null && cache != null && w.prepares == 0) {
      ranked.remove(cache);
      ranked.add(ranked.indexOf(text) + 1, cache);
    }
    return ranked;
  }

  private static Recommendation find(List<Recommendation> list, String id) {
    for (Recommendation r : list) {
      if (r.id().equals(id)) {
        return r;
      }
    }
    return null;
  }

  private static double seconds(Recommendation r) {
    return r.saving() == null ? 0 : r.saving().secondsSaved();
  }

  /** The first screen: round trips per statement now and after, time saved, server, window. */
  Outlook outlook(List<Recommendation> ranked, ServerView server) {
    Map<String, Long> now = commandsNow();
    Map<String, Long> after = new LinkedHashMap<>(now);
    double saved = 0;
    for (Recommendation r : ranked) {
      Saving s = r.saving();
      if (s == null) {
        continue;
      }
      if (s.commandDelta().containsKey(PROBES)) {
        continue; // session-state statements: modelled for every change together, below
      }
      saved += s.secondsSaved();
      if (!removesStatements(r)) {
        addAll(after, s.commandDelta());
      }
    }
    // The changes that remove business statements, shape by shape, under the protocol each shape
    // has after every change (a load the text-protocol change made a COM_STMT_EXECUTE is removed
    // as one).
    ShapesAfter shapes = shapesAfter(ranked);
    addAll(after, shapes.commandDelta);
    // Changes that remove the same statement (maxPerformance and readOnlyPropagatesToServer both
    // remove a READ WRITE reset) remove it once.
    long[] probesRemoved = state.removed(state.now().with(ranked));
    if (probesRemoved[0] > 0) {
      Long v = after.get(PROBES);
      after.put(PROBES, (v == null ? 0 : v) - probesRemoved[0]);
      saved += probesRemoved[1] / NANOS;
    }
    saved -= addRollbacks(after, state.now().with(ranked));
    for (Map.Entry<String, Long> e : after.entrySet()) {
      e.setValue(Math.max(0, e.getValue()));
    }
    after.values().removeIf(v -> v == 0);
    double measured = 0;
    for (CommandStats c : profile.commands().values()) {
      if (c.latency() != null) {
        measured += c.latency().sum() / NANOS;
      }
    }
    CpuModel.Result cpu = cpuModel(ranked, now, after, measured);
    return new Outlook(
        profile.windowSeconds(),
        serverLine(profile, server),
        serverKind(profile, server),
        w.businessExecutions,
        now,
        after,
        measured,
        Math.min(Math.max(saved, cpu.secondsSaved), measured),
        jdbcUrls(),
        notEstimated(ranked, cpu),
        w.businessExecutions - shapes.statementsRemoved,
        cpu.line);
  }

  /** True for the changes whose commands {@link ShapesAfter} models (they remove statements). */
  private static boolean removesStatements(Recommendation r) {
    return r.id().equals(StatementPatternRule.ID) || r.id().equals(BatchRewriteRule.ID);
  }

  /** What the statement-removing changes among {@code applied} leave, every change together. */
  ShapesAfter shapesAfter(List<Recommendation> applied) {
    java.util.Set<String> ids = new java.util.HashSet<>();
    boolean batchFetch = false;
    for (Recommendation r : applied) {
      ids.add(r.id());
      batchFetch |= ShapesAfter.batchFetch(r);
    }
    return ShapesAfter.of(profile, jdbc, ids, batchFetch);
  }

  private static void addAll(Map<String, Long> into, Map<String, Long> delta) {
    for (Map.Entry<String, Long> d : delta.entrySet()) {
      Long v = into.get(d.getKey());
      into.put(d.getKey(), (v == null ? 0 : v) + d.getValue());
    }
  }

  /**
   * The CPU-bound model ({@link CpuModel}) for these recommendations: the server time they save
   * that the estimates counted (TiDB's parse and compile for the text statements, compile for the
   * plan-cache rules) and the wire commands the first screen removes.
   */
  private CpuModel.Result cpuModel(List<Recommendation> ranked, Map<String, Long> now, Map<String, Long> after,
      double measured) {
    double serverLatency = 0;
    for (Recommendation r : ranked) {
      if (r.id().equals(TextProtocolRule.ID)) {
        serverLatency += textOptimizerSeconds();
      } else if ((r.id().equals(PlanCacheRule.ID) || r.id().equals(PlanCacheRefusedRule.ID)) && r.saving() != null) {
        serverLatency += r.saving().secondsSaved(); // compile time only (compileTime)
      }
    }
    long removed = 0;
    for (long v : now.values()) {
      removed += v;
    }
    for (long v : after.values()) {
      removed -= v;
    }
    return CpuModel.estimate(profile, server, w.businessExecutions, serverLatency, removed, measured,
        driverTextCached(ranked) ? w.repeatedTextExecutions : 0);
  }

  /** TiDB's parse and compile seconds of the repeated text executions (what textProtocol counts). */
  private double textOptimizerSeconds() {
    double nanos = 0;
    for (ShapeStats s : profile.shapes().values()) {
      long t = s.count(Via.TEXT_EXECUTES);
      double[] o = Workload.isBusiness(s) && t >= Workload.REPEATED_MIN_EXECUTIONS ? textOptimizerNanos(s) : null;
      if (o != null) {
        nanos += t * (o[0] + o[1]);
      }
    }
    return nanos / NANOS;
  }

  /**
   * What the advised changes gain that the saving does not count, one phrase each (at most
   * three): the driver's own CPU per text statement, the server time of server-side changes, and
   * CPU freed for other statements on a host whose cores are busy. Found on the bank sample's
   * scenario 1 on TiDB (issue 25): estimated 13% of the time on the wire, measured 54% less time
   * per statement; Connector/J's client-side prepares re-parsed every statement and TiDB's
   * execution time per statement halved, of which parse and compile were a third.
   */
  List<String> notEstimated(List<Recommendation> ranked) {
    return notEstimated(ranked, CpuModel.Result.NOT_MEASURED);
  }

  /**
   * Whether the changes move repeated text statements into the JDBC driver's statement cache, so
   * its own CPU per text statement goes (server-side prepares advised, no cache now, a JDBC client).
   */
  private boolean driverTextCached(List<Recommendation> ranked) {
    return find(ranked, TextProtocolRule.ID) != null && w.repeatedTextExecutions > 0
        && !jdbc.isTrue(JdbcProperty.CACHE_PREP_STMTS) && Clients.of(profile).speaksJdbc();
  }

  /** As {@link #notEstimated(List)}, the CPU phrase as the CPU-bound model found the host. */
  List<String> notEstimated(List<Recommendation> ranked, CpuModel.Result cpu) {
    List<String> out = new ArrayList<>();
    if (driverTextCached(ranked) && !cpu.driverPriced) {
      out.add("the JDBC driver's own CPU per text statement (" + Fmt.count(w.repeatedTextExecutions)
          + " repeated: without cachePrepStmts a client-side prepared statement's SQL is parsed"
          + " again at every prepareStatement, and every execution builds the full SQL text; not"
          + " timed by the agent)");
    }
    List<String> ids = new ArrayList<>();
    for (Recommendation r : ranked) {
      boolean counted = optimizerCounted
          && (r.id().equals(PlanCacheRule.ID) || r.id().equals(PlanCacheRefusedRule.ID));
      if (serverSideIds.contains(r.id()) && !counted && ids.size() < 4) {
        ids.add(r.id());
      }
    }
    if (!ids.isEmpty()) {
      out.add("the server time of " + String.join(", ", ids));
    }
    if (!out.isEmpty()) {
      if (cpu.missing != null) {
        out.add(cpu.missing);
      } else if (!cpu.measured) {
        out.add("CPU freed for other statements where client and server share busy cores");
      }
      // A host below the busy share: nothing waits for CPU, freeing it saves no time. A CPU-bound
      // host the model priced: its line says what it counts.
    }
    return out;
  }

  private List<String> jdbcUrls() {
    Map<String, String> urls = new java.util.LinkedHashMap<>();
    for (Source s : profile.sources()) {
      if (s.jdbcUrl() != null && urls.size() < 8 && !urls.containsKey(s.jdbcUrl())) {
        urls.put(s.jdbcUrl(), JdbcUrlSettings.withSettings(s.jdbcUrl(), s.properties()));
      }
    }
    return new ArrayList<>(urls.values());
  }

  /**
   * Adds to {@code after} the ROLLBACKs {@code settings} add ({@link StateModel#addedRollbacks});
   * returns the seconds they cost.
   */
  private double addRollbacks(Map<String, Long> after, StateModel.Settings settings) {
    long rollbacks = state.addedRollbacks(settings);
    if (rollbacks == 0) {
      return 0;
    }
    Long v = after.get(CommandType.QUERY.wireName());
    after.put(CommandType.QUERY.wireName(), (v == null ? 0 : v) + rollbacks);
    return rollbacks * state.rollbackNanos() / NANOS;
  }

  /** Wire commands by type, with the probes taken out of the type they were sent as. */
  Map<String, Long> commandsNow() {
    long probeText = 0;
    long probeExec = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() != null) {
        probeText += s.count(Via.TEXT_EXECUTES);
        probeExec += s.count(Via.EXECUTES);
      }
    }
    Map<String, Long> m = new LinkedHashMap<>();
    for (Map.Entry<CommandType, CommandStats> e : profile.commands().entrySet()) {
      long n = e.getValue().count();
      if (e.getKey() == CommandType.QUERY) {
        n -= probeText;
      } else if (e.getKey() == CommandType.STMT_EXECUTE) {
        n -= probeExec;
      }
      if (n > 0) {
        m.put(e.getKey().wireName(), n);
      }
    }
    if (probeText + probeExec > 0) {
      m.put(PROBES, probeText + probeExec);
    }
    return m;
  }

  /** Statement shapes by the time the application spent on them, at most {@link #TOP_STATEMENTS}. */
  List<StatementTime> topStatements(ServerView server) {
    Map<String, List<io.wireadvisor.server.StatementSummary>> byText = new java.util.HashMap<>();
    if (server != null) {
      for (io.wireadvisor.server.StatementSummary row : server.statements()) {
        List<io.wireadvisor.server.StatementSummary> l = byText.get(SummaryMatch.normalize(row.digestText()));
        if (l == null) {
          l = new ArrayList<>();
          byText.put(SummaryMatch.normalize(row.digestText()), l);
        }
        l.add(row);
      }
    }
    List<ShapeStats> shapes = new ArrayList<>();
    double total = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (!s.isOverflow() && s.wireCommands() > 0) {
        shapes.add(s);
        total += timeOf(s);
      }
    }
    final boolean timed = total > 0;
    Collections.sort(
        shapes,
        new Comparator<ShapeStats>() {
          @Override
          public int compare(ShapeStats a, ShapeStats b) {
            int c =
                timed
                    ? Double.compare(timeOf(b), timeOf(a))
                    : Long.compare(b.wireCommands(), a.wireCommands());
            return c != 0 ? c : a.digest().compareTo(b.digest());
          }
        });
    int limit = (int) jdbc.minLong(JdbcProperty.PREP_STMT_CACHE_SQL_LIMIT);
    List<StatementTime> top = new ArrayList<>();
    for (ShapeStats s : shapes.subList(0, Math.min(TOP_STATEMENTS, shapes.size()))) {
      Map<String, Long> commands = new LinkedHashMap<>();
      commands.put(CommandType.QUERY.wireName(), s.count(Via.TEXT_EXECUTES));
      commands.put(CommandType.STMT_PREPARE.wireName(), s.count(Via.PREPARES));
      commands.put(CommandType.STMT_EXECUTE.wireName(), s.count(Via.EXECUTES));
      commands.put(CommandType.STMT_CLOSE.wireName(), s.count(Via.CLOSES));
      commands.put(CommandType.STMT_FETCH.wireName(), s.count(Via.FETCHES));
      double seconds = timeOf(s) / NANOS;
      List<io.wireadvisor.server.StatementSummary> rows = byText.get(SummaryMatch.normalize(s.digestText()));
      String tidbDigest = null;
      StatementTime.ServerSide side = null;
      if (rows != null) {
        long exec = 0;
        long hits = 0;
        long latency = 0;
        double keys = 0;
        boolean keysKnown = true;
        for (io.wireadvisor.server.StatementSummary row : rows) {
          exec += row.execCount();
          hits += row.planCacheHits();
          latency += row.sumLatencyNanos();
          keysKnown &= row.avgProcessedKeys() >= 0;
          keys += Math.max(0, row.avgProcessedKeys()) * row.execCount();
          if (tidbDigest == null) {
            tidbDigest = row.digest();
          }
        }
        side = new StatementTime.ServerSide(exec, hits, latency / NANOS,
            keysKnown && exec > 0 ? keys / exec : -1);
      }
      top.add(
          new StatementTime(
              s.digest(),
              tidbDigest,
              s.digestText(),
              s.kind() == null ? "OTHER" : s.kind().name(),
              s.executions(),
              commands,
              s.probe() != null ? s.executions() : 0,
              seconds,
              timed ? timeOf(s) / total : 0,
              s.maxSqlLength(),
              Clients.of(profile).sentByJdbc(s) ? limit : StatementTime.NO_SQL_LIMIT,
              side));
    }
    return top;
  }

  /** Latency distribution per command type, as recorded. */
  Map<String, Histogram> commandLatency() {
    Map<String, Histogram> m = new LinkedHashMap<>();
    for (Map.Entry<CommandType, CommandStats> e : profile.commands().entrySet()) {
      if (e.getValue().latency() != null && e.getValue().latency().count() > 0) {
        m.put(e.getKey().wireName(), e.getValue().latency());
      }
    }
    return m;
  }

  /** Nanoseconds the application waited on this shape's commands (0 when not timed). */
  static double timeOf(ShapeStats s) {
    Histogram h = s.latency();
    return h == null ? 0 : h.sum();
  }

  private double median(CommandType type) {
    CommandStats c = profile.commands().get(type);
    return c == null || c.latency() == null || c.latency().count() == 0 ? -1 : c.latency().quantile(0.5);
  }

  private static String ms(double nanos) {
    return nanos < 0 ? "unmeasured" : String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
  }
}
