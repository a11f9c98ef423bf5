package io.wireadvisor.advisor;

import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * TiDB STATEMENTS_SUMMARY rows of the profile's shapes. TiDB's digest text and the profile's differ
 * in quoting and spacing ({@code select `name` from `t` where `id` = ?} vs {@code select name from
 * t where id = ?}), so both are compared without backticks, spaces and case. They also differ in
 * which lists of values they collapse: the profile collapses IN lists (even of one value) and VALUES
 * rows to {@code ( ... )}; TiDB's digest collapses every comma-separated run of two or more values
 * anywhere ({@code replace ( ... )}, {@code limit ...}, {@code concat ( `a` , ... )}, {@code select
 * ... , `a`}), keeps a one-value IN list as {@code in ( ? )} and collapses rows of rows to one
 * ({@code in ( ( ... ) )}; all measured on TiDB v8.4). Both texts are brought to one form: every
 * such run, every one-value parenthesis and every run of collapsed rows become {@code ...},
 * {@code (...)}, {@code (...)}.
 */
final class SummaryMatch {
  final long executions;
  final long planCacheHits;
  final int rows;

  private SummaryMatch(long executions, long planCacheHits, int rows) {
    this.executions = executions;
    this.planCacheHits = planCacheHits;
    this.rows = rows;
  }

  /** Two or more values ({@code ?} or an already collapsed {@code ...}) separated by commas. */
  private static final Pattern VALUE_RUN = Pattern.compile("(?:\\?|\\.\\.\\.)(?:,(?:\\?|\\.\\.\\.))+");

  /** One value alone in parentheses: TiDB's {@code in ( ? )}, the profile's {@code in ( ... )}. */
  private static final Pattern ONE_VALUE = Pattern.compile("\\(\\?\\)");

  /** Collapsed rows separated by commas: {@code (...),(...)}. */
  private static final Pattern ROW_RUN = Pattern.compile("\\(\\.\\.\\.\\)(?:,\\(\\.\\.\\.\\))+");

  static String normalize(String digestText) {
    StringBuilder sb = new StringBuilder(digestText.length());
    String lower = digestText.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lower.length(); i++) {
      char c = lower.charAt(i);
      if (c != '`' && !Character.isWhitespace(c)) {
        sb.append(c);
      }
    }
    String s = sb.toString();
    if (s.indexOf('?') < 0 && s.indexOf("...") < 0) {
      return s;
    }
    // One pass of each, in this order, is a fixpoint: none creates what an earlier one matches.
    return ROW_RUN.matcher(ONE_VALUE.matcher(VALUE_RUN.matcher(s).replaceAll("...")).replaceAll("(...)"))
        .replaceAll("(...)");
  }

  /** Sums the rows whose digest text is one of the profile's business shapes. */
  static SummaryMatch of(TrafficProfile profile, ServerView server) {
    if (server == null || server.statements().isEmpty()) {
      return new SummaryMatch(0, 0, 0);
    }
    Set<String> shapes = new HashSet<>();
    for (ShapeStats s : profile.shapes().values()) {
      if (Workload.isBusiness(s)) {
        shapes.add(normalize(s.digestText()));
      }
    }
    long exec = 0;
    long hits = 0;
    int rows = 0;
    for (StatementSummary st : server.statements()) {
      if (shapes.contains(normalize(st.digestText()))) {
        exec += st.execCount();
        hits += st.planCacheHits();
        rows++;
      }
    }
    return new SummaryMatch(exec, hits, rows);
  }

  /** An evidence line, or null when no row matched. */
  String evidence() {
    if (rows == 0) {
      return null;
    }
    return "STATEMENTS_SUMMARY for "
        + rows
        + " of the profile's statements: "
        + Fmt.count(planCacheHits)
        + " plan-cache hits in "
        + Fmt.count(executions)
        + " executions ("
        + Fmt.percent(Workload.ratio(planCacheHits, executions))
        + ").";
  }
}
