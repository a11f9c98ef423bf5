package io.wireadvisor.advisor;

import io.wireadvisor.server.ServerView;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * TiDB's reason for not caching a statement's plan ({@code PLAN_CACHE_UNQUALIFIED_LAST_REASON}, the
 * text TiDB's planner gives {@code SetSkipPlanCache}) in words a developer can act on, with the fix
 * where one exists. TiDB's text may quote a parameter's value ({@code '42' may be converted to
 * INT}): {@link #redacted} removes it before any report shows the reason.
 */
final class PlanCacheRefusal {
  private static final Pattern QUOTED = Pattern.compile("'[^']*'");

  /**
   * A prepared statement never served from the plan cache while TiDB recorded no refusal: TiDB
   * decided at EXECUTE, and said so only in a warning. Seen on TiDB v8.4 for a LIKE on an indexed
   * column with a parameter in the pattern ({@code like ?}, Hibernate's {@code like replace(?,...)}):
   * {@code Warning 1105 skip plan-cache: plan rebuild failed, rebuild to get an unsafe range}.
   */
  static final PlanCacheRefusal SILENT =
      new PlanCacheRefusal(
          "TiDB decided at EXECUTE and said why only in a warning: SHOW WARNINGS right after an EXECUTE of it"
              + " shows it (for a LIKE with a parameter on an indexed column, TiDB v8.4 answers \"skip"
              + " plan-cache: plan rebuild failed, rebuild to get an unsafe range\": the index range built"
              + " from one pattern is not safe for another, so TiDB optimizes it at every execution)",
          null,
          null);

  /** What the reason means. */
  final String words;
  /** A TiDB global that makes the statement cacheable, or null. */
  final String variable;
  /** What the application or ORM can change, or null. */
  final String applicationFix;

  private PlanCacheRefusal(String words, String variable, String applicationFix) {
    this.words = words;
    this.variable = variable;
    this.applicationFix = applicationFix;
  }

  /**
   * TiDB's fixed texts that quote SQL, not values ({@code query has 'limit ?' is un-cacheable}), and
   * the form naming a function ({@code query has 'rand' is un-cacheable}).
   */
  private static final Pattern QUOTES_NO_VALUE =
      Pattern.compile("query has '(limit \\?|limit \\?, 10|order by \\?|group by \\?|[a-z_0-9]+)' is un-cacheable"
          + "|only support (group|order) by \\{columns}'");

  /**
   * TiDB's reason as a report may show it: where TiDB quotes something other than its own SQL
   * words, a value the application bound ({@code '42' may be converted to INT}), the quoted part is
   * replaced: {@code '<nil>'} reads NULL, anything else {@code '?'}.
   */
  static String redacted(String reason) {
    if (reason == null) {
      return null;
    }
    if (QUOTES_NO_VALUE.matcher(reason).matches()) {
      return reason;
    }
    String nil = reason.replace("'<nil>'", "NULL");
    return QUOTED.matcher(nil).replaceAll("'?'");
  }

  /**
   * @param reason TiDB's text, as the summary has it
   * @param server the server, for the variables this version has (a variable is named only when the
   *     server has it and it is off)
   */
  static PlanCacheRefusal explain(String reason, ServerView server) {
    String r = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
    if (r.contains("may be converted to int")) {
      boolean nil = r.contains("<nil>");
      return new PlanCacheRefusal(
          nil
              ? "a parameter compared with an integer column was bound as NULL; TiDB does not cache a plan"
                  + " whose parameter may change type. Hibernate 6 pads batch-fetch IN (...) lists with NULL"
                  + " up to the batch size"
              : "a parameter compared with an integer column was bound as a string or decimal; TiDB does not"
                  + " cache a plan whose parameter may be converted",
          null,
          nil
              ? "bind no NULL in comparisons: with Hibernate batch fetching, a batch size that fits the usual"
                  + " number of keys (hibernate.default_batch_fetch_size, @BatchSize) pads less, and JOIN FETCH"
                  + " or an @EntityGraph loads the association without an IN list"
              : "bind the parameter with the column's type (setLong/setInt, not setString/setBigDecimal)");
    }
    if (r.contains("'limit ?")) {
      return new PlanCacheRefusal(
          "the statement has LIMIT ? (a parameter in LIMIT)",
          offVariable(server, "tidb_enable_plan_cache_for_param_limit"),
          "where the variable is on and TiDB still refuses, the LIMIT parameter is above 10000");
    }
    if (r.contains("sub-queries")) {
      return new PlanCacheRefusal(
          "the statement has a subquery",
          offVariable(server, "tidb_enable_plan_cache_for_subquery"),
          "a correlated subquery, or EXISTS/IN with a subquery TiDB rewrites, is never cached: a join is");
    }
    if (r.contains("too many values in in-list") || r.contains("too many values in the insert")) {
      return new PlanCacheRefusal(
          "the statement has more values in an IN list or a multi-row INSERT than TiDB caches plans for",
          null,
          "smaller IN lists or INSERT batches; Hibernate: hibernate.query.in_clause_parameter_padding=true"
              + " keeps the number of distinct IN-list statements small");
    }
    if (r.contains("user-defined variables")) {
      return new PlanCacheRefusal("the statement reads a user variable (@x)", null, "pass the value as a parameter");
    }
    if (r.contains("ignore plan cache by hint")) {
      return new PlanCacheRefusal("the statement carries an ignore_plan_cache() hint", null, "remove the hint if it is not needed");
    }
    if (r.contains("partition")) {
      return new PlanCacheRefusal(
          "the statement reads a partitioned table in static prune mode",
          null,
          "tidb_partition_prune_mode = 'dynamic' (the default since v6.3) lets TiDB cache it");
    }
    if (r.contains("un-cacheable functions") || (r.startsWith("query has '") && r.endsWith("' is un-cacheable"))) {
      return new PlanCacheRefusal(
          "the statement calls a function whose result TiDB does not cache plans for (e.g. NOW(), RAND(), UUID())",
          null,
          "compute the value in the application and bind it");
    }
    return new PlanCacheRefusal("TiDB: " + redacted(reason), null, null);
  }

  private static String offVariable(ServerView server, String name) {
    if (server == null || server.global(name) == null || !server.globalOff(name)) {
      return null;
    }
    return name;
  }
}
