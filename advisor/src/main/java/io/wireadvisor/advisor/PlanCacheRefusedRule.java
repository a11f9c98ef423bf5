package io.wireadvisor.advisor;

import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Statements of the profile that TiDB's plan cache refuses, named with TiDB's own reason in words
 * ({@code STATEMENTS_SUMMARY.PLAN_CACHE_UNQUALIFIED} and {@code PLAN_CACHE_UNQUALIFIED_LAST_REASON},
 * present from TiDB v7.x) and the fix where one exists: a TiDB variable this server has and has off,
 * or what the application or its ORM can change. A prepared statement whose plan is refused is
 * optimized at every execution, as a text statement is.
 */
public final class PlanCacheRefusedRule implements Rule {
  public static final String ID = "tidb-plan-cache-refused";

  /** Refusals of one statement in the summary before it is named: fewer are one-off statements. */
  static final long MIN_REFUSALS = 10;

  /**
   * Prepared executions of one statement, none from the plan cache, before it is named although TiDB
   * recorded no refusal: TiDB refuses some plans only at EXECUTE (a plan rebuilt for new parameters
   * with an unsafe range) and leaves {@code PLAN_CACHE_UNQUALIFIED} at 0 for them.
   */
  static final long MIN_SILENT_EXECUTIONS = 10;

  /** Statements named in one recommendation; the rest are counted. */
  static final int MAX_NAMED = 10;

  @Override
  public String id() {
    return ID;
  }

  /** One refused statement of the profile: its summary rows (one per schema) added up. */
  static final class Refused {
    final String shape;
    final String reason;
    final PlanCacheRefusal why;
    long refusals;
    long executions;
    long compileNanos;
    boolean compileKnown = true;
    /** Sum of PLAN_CACHE_HITS of its rows (the silent case needs 0). */
    long hits;
    /** This profile's executions of the statement (text and prepared), in the profile's window. */
    long profileExecutions;
    /** This profile's prepared executions that could have reused a cached plan ({@link #reusable}). */
    long prepared;

    Refused(String shape, String reason, PlanCacheRefusal why) {
      this.shape = shape;
      this.reason = reason;
      this.why = why;
    }

    void add(StatementSummary st) {
      long refused = silent() ? st.execCount() - st.planCacheHits() : st.planCacheUnqualified();
      refusals += refused;
      executions += st.execCount();
      hits += st.planCacheHits();
      compileKnown &= st.avgCompileNanos() >= 0;
      compileNanos += Math.max(0, st.avgCompileNanos()) * refused;
    }

    /** TiDB refused it without a reason in the summary (only SHOW WARNINGS after EXECUTE says why). */
    boolean silent() {
      return reason == null && why == PlanCacheRefusal.SILENT;
    }

    /**
     * At least {@code minRefusals} refusals TiDB recorded or, without a reason, never from the cache
     * in at least {@code minSilent} executions, in the summary and in this profile's prepared ones.
     */
    boolean atLeast(long minRefusals, long minSilent) {
      return silent() ? hits == 0 && executions >= minSilent && prepared >= minSilent : refusals >= minRefusals;
    }
  }

  /** The profile's statements TiDB refused at least {@code minRefusals} times, most refused first. */
  static List<Refused> refused(TrafficProfile profile, ServerView server, long minRefusals) {
    return refused(profile, server, minRefusals, MIN_SILENT_EXECUTIONS);
  }

  /**
   * As {@link #refused(TrafficProfile, ServerView, long)}, with {@code minSilent} prepared executions
   * (and summary executions) for a statement never served from the cache without a reason.
   */
  static List<Refused> refused(TrafficProfile profile, ServerView server, long minRefusals, long minSilent) {
    if (server == null || !server.isTiDB()) {
      return Collections.emptyList();
    }
    Map<String, String> shapes = new HashMap<String, String>();
    Map<String, Long> prepared = new HashMap<String, Long>();
    Map<String, Long> ran = new HashMap<String, Long>();
    for (ShapeStats s : profile.shapes().values()) {
      if (Workload.isBusiness(s)) {
        shapes.put(SummaryMatch.normalize(s.digestText()), s.digestText());
        Long before = prepared.get(s.digestText());
        prepared.put(s.digestText(), (before == null ? 0 : before) + reusable(s, server));
        Long n = ran.get(s.digestText());
        ran.put(s.digestText(), (n == null ? 0 : n) + s.executions());
      }
    }
    boolean cacheOn = !server.globalOff(PlanCacheRule.ENABLE);
    Map<String, Refused> silent = new LinkedHashMap<String, Refused>();
    // The same statement in several schemas is one shape of the profile: its rows add up.
    Map<String, Refused> byShape = new LinkedHashMap<String, Refused>();
    for (StatementSummary st : server.statements()) {
      String shape = shapes.get(SummaryMatch.normalize(st.digestText()));
      if (shape != null && st.planCacheUnqualified() > 0) {
        Refused r = byShape.get(shape);
        if (r == null) {
          r = new Refused(shape, st.planCacheUnqualifiedReason(), PlanCacheRefusal.explain(st.planCacheUnqualifiedReason(), server));
          byShape.put(shape, r);
        }
        r.add(st);
      } else if (shape != null && st.planCacheUnqualified() == 0 && cacheOn) {
        Refused r = silent.get(shape);
        if (r == null) {
          r = new Refused(shape, null, PlanCacheRefusal.SILENT);
          silent.put(shape, r);
        }
        r.add(st);
      }
    }
    // Prepared, executed often enough, never from the plan cache, and no reason recorded: TiDB
    // refused it at EXECUTE. A statement also refused with a reason in another schema is named once.
    List<Refused> candidates = new ArrayList<Refused>(byShape.values());
    for (Refused r : silent.values()) {
      if (!byShape.containsKey(r.shape)) {
        candidates.add(r);
      }
    }
    List<Refused> out = new ArrayList<Refused>();
    for (Refused r : candidates) {
      r.prepared = prepared.get(r.shape);
      Long n = ran.get(r.shape);
      r.profileExecutions = n == null ? 0 : n;
      if (r.atLeast(minRefusals, minSilent)) {
        out.add(r);
      }
    }
    Collections.sort(out, (a, b) -> Long.compare(b.refusals, a.refusals));
    return out;
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    List<Refused> refused = refused(profile, server, MIN_REFUSALS);
    if (refused.isEmpty()) {
      return null;
    }
    long refusals = 0;
    long executions = 0;
    long profileExecutions = 0;
    long compileNanos = 0;
    boolean compileKnown = true;
    for (Refused r : refused) {
      refusals += r.refusals;
      executions += r.executions;
      profileExecutions += r.profileExecutions;
      compileKnown &= r.compileKnown;
      compileNanos += r.compileNanos;
    }
    Recommendation.Builder rec =
        Recommendation.builder(
            ID,
            refused.size() == 1
                ? "Make the statement TiDB's plan cache refuses cacheable"
                : "Make the " + refused.size() + " statements TiDB's plan cache refuses cacheable",
            Severity.MEDIUM);
    // The summary's counts are every client's in its window (another run of the same statements
    // counts too): said as such, with the profile's own executions beside them.
    rec.evidence(
        "STATEMENTS_SUMMARY (every client's executions in its window): TiDB refused to cache the plan of "
            + Fmt.count(refusals)
            + " of "
            + Fmt.count(executions)
            + " executions of "
            + refused.size()
            + (refused.size() == 1 ? " statement" : " statements")
            + " this profile ran ("
            + Fmt.count(profileExecutions)
            + " times in the profile's window), and optimized each of those again"
            + (compileKnown && compileNanos > 0 ? " (" + duration(compileNanos) + " of TiDB compile time)" : "")
            + ".");
    Set<String> variables = new LinkedHashSet<String>();
    Set<String> fixes = new LinkedHashSet<String>();
    int named = 0;
    for (Refused r : refused) {
      if (named++ == MAX_NAMED) {
        rec.evidence("... and " + (refused.size() - MAX_NAMED) + " more statements.");
        break;
      }
      if (r.silent()) {
        rec.evidence(
            Fmt.sql(r.shape, 120)
                + ": prepared, executed "
                + Fmt.count(r.executions)
                + " times in STATEMENTS_SUMMARY ("
                + Fmt.count(r.profileExecutions)
                + " in this profile) with TiDB's plan cache on, none from the plan cache; TiDB gave no reason in"
                + " STATEMENTS_SUMMARY (PLAN_CACHE_UNQUALIFIED = 0) - "
                + r.why.words
                + ".");
        continue;
      }
      rec.evidence(
          Fmt.sql(r.shape, 120)
              + ": refused "
              + Fmt.count(r.refusals)
              + " of "
              + Fmt.count(r.executions)
              + " times in STATEMENTS_SUMMARY ("
              + Fmt.count(r.profileExecutions)
              + " in this profile); TiDB's reason: \""
              + PlanCacheRefusal.redacted(r.reason)
              + "\" - "
              + r.why.words
              + ".");
      if (r.why.variable != null) {
        variables.add(r.why.variable);
      }
      if (r.why.applicationFix != null) {
        fixes.add(r.why.applicationFix);
      }
    }
    rec.evidence(
        "The summary covers TiDB's intervals (tidb_stmt_summary_refresh_interval) that overlap the profile's"
            + " window, which may be longer than it.");
    Change.Builder change = Change.builder();
    for (String v : variables) {
      change.sql("SET GLOBAL " + v + " = ON;");
    }
    for (String fix : fixes) {
      change.note("In the application: " + fix + ".");
    }
    boolean anySilent = false;
    for (Refused r : refused) {
      anySilent |= r.silent();
    }
    if (anySilent) {
      change.note(
          "For a statement TiDB gave no reason for: PREPARE it in a session, EXECUTE it twice with the"
              + " application's values, and SHOW WARNINGS - TiDB says there why it skipped the plan cache.");
    }
    if (variables.isEmpty() && fixes.isEmpty() && !anySilent) {
      change.note("No setting makes these cacheable; TiDB's reason above says what the statement does that it does not cache.");
    }
    return rec.change(change.build())
        .expectedEffect(
            "Each execution TiDB now optimizes again is served from the plan cache: TiDB's compile time"
                + " for these statements goes to near zero.")
        .risk(
            variables.isEmpty()
                ? "Application changes: each changes the SQL or its parameters; test the affected queries."
                : "A cached plan with a LIMIT or subquery parameter is reused for other values; TiDB re-checks"
                    + " the plan's validity, but a skewed value may run with the plan of another.")
        .verify(
            "SELECT DIGEST_TEXT, EXEC_COUNT, PLAN_CACHE_HITS, PLAN_CACHE_UNQUALIFIED,"
                + " PLAN_CACHE_UNQUALIFIED_LAST_REASON FROM information_schema.STATEMENTS_SUMMARY: for these"
                + " statements PLAN_CACHE_UNQUALIFIED stops growing and PLAN_CACHE_HITS grow with EXEC_COUNT.")
        .expect(Expectation.serverSide("TiDB stops refusing these statements' plans (server-side)"))
        .build();
  }

  private static String duration(long nanos) {
    return nanos >= 10_000_000_000L
        ? String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9)
        : String.format(java.util.Locale.ROOT, "%.1f ms", nanos / 1e6);
  }

  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDB()) {
      return Collections.emptyList();
    }
    if (!server.summarySchemas().isEmpty() && SummaryMatch.of(profile, server).rows == 0
        && Workload.of(profile).businessExecutions() > 0) {
      // The summary was read, but holds none of this traffic in its own schema (SummaryScope): say
      // so rather than stay silent, which reads as "nothing refused".
      String schemas = String.join(", ", server.summarySchemas());
      return Collections.singletonList(Withheld.because(ID, "naming the statements TiDB's plan cache refuses",
          "STATEMENTS_SUMMARY held none of the profile's statements in schema " + schemas + " when read: read"
              + " before they ran, or gone since (it keeps "
              + server.globalLong("tidb_stmt_summary_max_stmt_count", 3000)
              + " statements, tidb_stmt_summary_max_stmt_count, evicting the least recently run, and begins a new"
              + " window every " + server.globalLong("tidb_stmt_summary_refresh_interval", 1800)
              + " s); inspect right after the run, or analyze with the profile's window",
          "the profile's statements in STATEMENTS_SUMMARY for schema " + schemas,
          "none" + (SummaryScope.setAside(server).isEmpty() ? "" : " (" + SummaryScope.setAside(server) + ")")));
    }
    boolean recorded = false;
    for (StatementSummary st : server.statements()) {
      recorded |= st.planCacheUnqualified() >= 0;
    }
    if (!recorded && !server.statements().isEmpty()) {
      return Collections.singletonList(
          new Withheld(ID, "which statements TiDB's plan cache refuses",
              "STATEMENTS_SUMMARY.PLAN_CACHE_UNQUALIFIED (TiDB v7.x or later)", "TiDB " + server.versionString() + " without it"));
    }
    // Below the minimums: refusals TiDB recorded, and prepared statements executed at least twice
    // (a first execution is never from the cache) that never were.
    List<Withheld> out = new ArrayList<Withheld>();
    long mostRefused = 0;
    int refusedCount = 0;
    long mostSilent = 0;
    int silentCount = 0;
    List<Refused> few = new ArrayList<Refused>();
    for (Refused r : refused(profile, server, 1, 2)) {
      // The rule may have fired for others: those it advised on are not withheld.
      if (r.atLeast(MIN_REFUSALS, MIN_SILENT_EXECUTIONS)) {
        continue;
      }
      if (r.silent()) {
        silentCount++;
        mostSilent = Math.max(mostSilent, Math.min(r.executions, r.prepared));
      } else {
        refusedCount++;
        mostRefused = Math.max(mostRefused, r.refusals);
        few.add(r);
      }
    }
    if (refusedCount > 0) {
      // Named with TiDB's reason: found on spring-petclinic, where a statement refused once was in
      // neither the recommendation nor this list.
      StringBuilder named = new StringBuilder();
      for (int i = 0; i < few.size() && i < 3; i++) {
        named.append(i == 0 ? ": " : "; ")
            .append(Fmt.sql(few.get(i).shape, 80))
            .append(" (")
            .append(Fmt.printable(PlanCacheRefusal.redacted(few.get(i).reason)))
            .append(")");
      }
      if (few.size() > 3) {
        named.append("; ... and ").append(few.size() - 3).append(" more");
      }
      out.add(new Withheld(ID, "the statements TiDB's plan cache refused (" + refusedCount + named + ")",
          MIN_REFUSALS + " refusals of one statement", "at most " + mostRefused));
    }
    if (silentCount > 0) {
      out.add(new Withheld(ID, "the prepared statements never served from TiDB's plan cache, for which TiDB gave no reason ("
              + silentCount + ")",
          MIN_SILENT_EXECUTIONS + " prepared executions of one statement", "at most " + mostSilent));
    }
    return out;
  }

  /**
   * Prepared executions that could have reused a cached plan. On TiDB the first EXECUTE after a
   * PREPARE optimizes, and closing a statement drops its plan unless {@code
   * tidb_ignore_prepared_cache_close_stmt} is ON (v8.4: DEALLOCATE, PREPARE again, EXECUTE ->
   * {@code @@last_plan_from_cache} 0): an application preparing per use misses for that, not for
   * a refusal, so the executions that follow a PREPARE are not counted.
   */
  static long reusable(ShapeStats s, ServerView server) {
    long executes = s.count(Via.EXECUTES);
    return server.globalOn("tidb_ignore_prepared_cache_close_stmt")
        ? executes
        : Math.max(0, executes - s.count(Via.PREPARES));
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.compileTime(r, true);
  }
}
