package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.PatternStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The business statements the advised changes remove, shape by shape, and the wire commands that
 * go with them under the configuration after every change in {@code applied}:
 *
 * <ul>
 *   <li>batch fetching ({@code statement-patterns} with {@link
 *       StatementPatternRule#BATCH_FETCH_SIZE}): a loop of K one-value loads in a transaction
 *       ({@link PatternStats.Kind#N_PLUS_ONE}, with enough evidence or not: the setting is global)
 *       becomes ceil(K / {@value StatementPatternRule#ADVISED_BATCH_SIZE}) statements, K taken as
 *       the pattern's executions per transaction; a pair ({@link PatternStats.Kind#LOADED_TWICE})
 *       becomes one statement;
 *   <li>{@code statement-patterns}' {@code mappedBy}: the judged UPDATEs after INSERTs go;
 *   <li>{@code rewrite-batched-statements}: one statement per {@code executeBatch()}.
 * </ul>
 *
 * Each removed execution takes its own command: a COM_STMT_EXECUTE where the shape is
 * server-prepared or becomes so ({@code server-prepared-statements} turns the shapes repeated 10+
 * times over text into prepared ones), else its COM_QUERY; and, for a shape prepared now, its
 * share of the PREPAREs, CLOSEs and RESETs the shape sends per execution, unless the statement
 * cache (or the driver upgrade) is among the changes, whose own saving removes those. Each
 * statement a change adds (the batch fetch's {@code IN (...)}, the multi-row INSERT) costs one
 * PREPARE per connection that uses it, when it is prepared and cached after.
 *
 * <p>The first screen's "after" ({@link Estimates#outlook}) takes its business statements and
 * these commands from here for every change together; {@code statement-patterns}' own saving from
 * here for that change alone. Found on spring-shop (embedded MariaDB): adding each change's
 * command delta by type removed the N+1 loads from COM_QUERY after the text-protocol change had
 * moved them to COM_STMT_EXECUTE (COM_QUERY fell below zero and was cut there, taking the
 * COMMITs with it), and divided by the statements before: 1.10 round trips per statement
 * estimated, 1.51 measured. On spring-petclinic-rest (TiDB) the N+1 loops alone priced 878 removed
 * executions where 1,256 went: its owners' two pets' visits and types, loaded twice per
 * transaction, were merged too.
 */
final class ShapesAfter {
  /** Business executions the changes remove. */
  final long statementsRemoved;
  /** Executions of the shapes and patterns concerned now, and their PREPARE/CLOSE/RESET share. */
  final long commandsConcerned;
  /** Wire commands after, by type, minus now (negative: removed). */
  final Map<String, Long> commandDelta;
  /** Nanoseconds the removed executions took, each at its pattern's or shape's measured time. */
  final double nanosRemoved;
  /** Of {@link #statementsRemoved}: by batch fetching (loops, pairs), UPDATEs after INSERTs, batches. */
  final long loopsRemoved;
  final long pairsRemoved;
  final long updatesRemoved;
  final long batchedRemoved;

  private ShapesAfter(long[] n, Map<String, Long> delta, double nanos) {
    this.statementsRemoved = n[0];
    this.commandsConcerned = n[1];
    this.loopsRemoved = n[2];
    this.pairsRemoved = n[3];
    this.updatesRemoved = n[4];
    this.batchedRemoved = n[5];
    this.commandDelta = delta;
    this.nanosRemoved = nanos;
  }

  /** True when {@code r}'s change sets Hibernate's batch fetching. */
  static boolean batchFetch(Recommendation r) {
    return r != null && r.id().equals(StatementPatternRule.ID) && r.change() != null
        && r.change().hibernateProperties().containsKey(StatementPatternRule.BATCH_FETCH_SIZE);
  }

  /**
   * @param applied the ids of the recommendations applied together
   * @param batchFetch whether Hibernate's batch fetching is among them
   */
  static ShapesAfter of(TrafficProfile profile, JdbcSettings jdbc, Collection<String> applied,
      boolean batchFetch) {
    boolean patterns = applied.contains(StatementPatternRule.ID);
    boolean batches = applied.contains(BatchRewriteRule.ID);
    boolean toPrepared = applied.contains(TextProtocolRule.ID);
    boolean cache = applied.contains(StatementCacheRule.ID) || toPrepared;
    boolean upgrade = applied.contains(DriverUpgradeRule.ID);
    boolean cachedNow = jdbc.isTrue(io.wireadvisor.profile.JdbcProperty.CACHE_PREP_STMTS);
    long perConnection = connectionsPerShape(profile);
    long[] n = new long[6];
    double nanos = 0;
    Map<String, Long> delta = new LinkedHashMap<>();
    for (ShapeStats s : profile.shapes().values()) {
      if (!Workload.isBusiness(s)) {
        continue;
      }
      long executions = s.executions();
      long loops = 0;
      long pairs = 0;
      long updates = 0;
      long batched = 0;
      long concerned = 0;
      long added = 0; // statements the change adds in place of the removed ones (IN lists, multi-row)
      for (PatternStats p : s.patterns()) {
        long removed = 0;
        if (patterns && batchFetch && p.kind() == PatternStats.Kind.N_PLUS_ONE) {
          removed = p.executions() - StatementPatternRule.executionsAfter(p);
          loops += removed;
          added = Math.max(added, p.transactions());
        } else if (patterns && batchFetch && p.kind() == PatternStats.Kind.LOADED_TWICE) {
          removed = p.executions() - p.transactions();
          pairs += removed;
          added = Math.max(added, p.transactions());
        } else if (patterns && p.kind() == PatternStats.Kind.INSERT_THEN_UPDATE
            && StatementPatternRule.enough(p)) {
          removed = p.executions();
          updates += removed;
        } else {
          continue;
        }
        concerned += p.executions();
        nanos += p.timed() == 0 ? 0 : (double) p.nanos() / p.timed() * Math.max(0, removed);
      }
      if (batches && s.count(Via.BATCHES) > 0 && s.count(Via.BATCHED_STATEMENTS) > s.count(Via.BATCHES)) {
        batched = s.count(Via.BATCHED_STATEMENTS) - s.count(Via.BATCHES);
        concerned += s.count(Via.BATCHED_STATEMENTS);
        added = Math.max(added, s.count(Via.BATCHES));
        nanos += executions == 0 ? 0 : Estimates.timeOf(s) * batched / (double) executions;
      }
      long removed = Math.min(executions, Math.max(0, loops + pairs + updates + batched));
      if (removed == 0) {
        continue;
      }
      // What each removed execution sends, under the protocol the shape has after the changes.
      long text = s.count(Via.TEXT_EXECUTES);
      long exec = s.count(Via.EXECUTES);
      boolean converted = toPrepared && text >= Workload.REPEATED_MIN_EXECUTIONS;
      long removedText = converted ? 0 : Math.round((double) removed * text / Math.max(1, executions));
      long removedExec = removed - removedText;
      add(delta, CommandType.QUERY, -removedText);
      add(delta, CommandType.STMT_EXECUTE, -removedExec);
      if (!converted && exec > 0) {
        double share = (double) removedExec / exec;
        long prepares = cache ? 0 : Math.round(s.count(Via.PREPARES) * share);
        long closes = cache ? 0 : Math.round(s.count(Via.CLOSES) * share);
        long resets = upgrade ? 0 : Math.round(s.count(Via.RESETS) * share);
        add(delta, CommandType.STMT_PREPARE, -prepares);
        add(delta, CommandType.STMT_CLOSE, -closes);
        add(delta, CommandType.STMT_RESET, -resets);
        concerned += prepares + closes + resets;
      }
      if ((converted || exec > 0) && (cache || cachedNow)) {
        add(delta, CommandType.STMT_PREPARE, Math.min(added, perConnection));
      }
      n[0] += removed;
      n[1] += concerned;
      n[2] += loops;
      n[3] += pairs;
      n[4] += updates;
      n[5] += batched;
    }
    delta.values().removeIf(v -> v == 0);
    return new ShapesAfter(n, delta, nanos);
  }

  /**
   * Connections a statement is prepared on, for a statement the changes add: the profile's
   * distinct shapes per connection over its shapes (a pool's busy connections run most shapes,
   * its idle ones few), at least 1, at most the connections.
   */
  static long connectionsPerShape(TrafficProfile profile) {
    long connections = Math.max(1, profile.connections().connections());
    Histogram used = profile.connections().distribution(ConnectionMetric.DISTINCT_SHAPES);
    int shapes = profile.shapes().size();
    if (used == null || used.count() == 0 || shapes == 0) {
      return connections;
    }
    return Math.max(1, Math.min(connections, (long) Math.ceil((double) used.sum() / shapes)));
  }

  private static void add(Map<String, Long> delta, CommandType type, long n) {
    if (n != 0) {
      Long d = delta.get(type.wireName());
      delta.put(type.wireName(), (d == null ? 0 : d) + n);
    }
  }
}
