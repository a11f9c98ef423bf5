package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * The note every report format carries where it sets TiDB's STATEMENTS_SUMMARY figures beside the
 * profile's counts: the two cover different windows (issue 24: 10,120 server executions shown
 * beside 6,196 in the profile). The summary counts every client of the server since its current
 * window began (a new one every {@code tidb_stmt_summary_refresh_interval}) until it was read, or,
 * when analyze read STATEMENTS_SUMMARY_HISTORY for the profile's window, over the intervals that
 * overlap it, added up (the note says which); the profile counts the application's own traffic
 * over its own window.
 */
public final class ServerWindows {
  private ServerWindows() {}

  /** The note, or null when the reports show no STATEMENTS_SUMMARY figure. */
  static String note(TrafficProfile profile, ServerView server, List<StatementTime> top,
      List<Recommendation> recommendations) {
    if (server == null || server.statements().isEmpty() || !shown(top, recommendations)) {
      return null;
    }
    // Say what was read: the history's intervals that overlap the profile (analyze with the
    // profile's window), or the current interval alone.
    int intervals = server.summaryIntervals();
    StringBuilder b = new StringBuilder("Two windows: the TiDB figures (\"TiDB:\" beside a statement,"
        + " evidence quoting STATEMENTS_SUMMARY) count every client's executions");
    if (!server.summarySchemas().isEmpty()) {
      // Only the profile's own schemas' rows (SummaryScope): the same SQL in other schemas is not
      // this traffic's.
      b.append(" of ").append(server.summarySchemas().size() == 1 ? "schema " : "schemas ")
          .append(String.join(", ", server.summarySchemas()))
          .append(" (the profile's JDBC URL");
      String aside = SummaryScope.setAside(server);
      if (!aside.isEmpty()) {
        b.append("; ").append(aside);
      }
      b.append(")");
    }
    b.append(" in ").append(intervals == 0 ? "STATEMENTS_SUMMARY's current window"
        : intervals == 1 ? "the STATEMENTS_SUMMARY_HISTORY interval that overlaps the profile's window"
        : "the " + intervals + " STATEMENTS_SUMMARY_HISTORY intervals that overlap the profile's"
            + " window, added up");
    if (server.summaryBegin() != null) {
      b.append(", ").append(server.summaryBegin()).append(" to ")
          .append(server.summaryRead() == null ? "when it was read" : server.summaryRead())
          .append(" server time");
    }
    String refresh = server.global("tidb_stmt_summary_refresh_interval");
    if (refresh != null) {
      b.append(intervals == 0 ? " (a new window every " : " (a new interval every ").append(refresh)
          .append(" s, tidb_stmt_summary_refresh_interval)");
    }
    b.append("; the profile counts this application's traffic over its own ")
        .append(duration(profile.windowSeconds()));
    if (profile.startMillis() > 0 && profile.endMillis() >= profile.startMillis()) {
      b.append(", ").append(utc(profile.startMillis())).append(" to ").append(utc(profile.endMillis()))
          .append(" UTC");
    }
    b.append(". Their counts differ; compare shares (plan-cache hits per execution), not counts.");
    return b.toString();
  }

  private static boolean shown(List<StatementTime> top, List<Recommendation> recommendations) {
    for (StatementTime t : top) {
      if (t.server() != null) {
        return true;
      }
    }
    for (Recommendation r : recommendations) {
      for (String e : r.evidence()) {
        if (e.contains("STATEMENTS_SUMMARY")) {
          return true;
        }
      }
    }
    return false;
  }

  static String duration(double seconds) {
    if (seconds < 120) {
      return String.format(Locale.ROOT, "%.0f s", seconds);
    }
    if (seconds < 7200) {
      return String.format(Locale.ROOT, "%.1f min", seconds / 60);
    }
    return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
  }

  private static String utc(long millis) {
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    return f.format(new Date(millis));
  }
}
