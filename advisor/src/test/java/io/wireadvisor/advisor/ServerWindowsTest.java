package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.ServerViewJson;
import io.wireadvisor.server.StatementSummary;
import org.junit.jupiter.api.Test;

/**
 * Where a report shows TiDB's STATEMENTS_SUMMARY figures beside the profile's counts, every
 * format says once that the two cover different windows (issue 24, point 6: 10,120 server
 * executions shown beside 6,196 in the profile, no note).
 */
class ServerWindowsTest {
  static ServerView withSummary() {
    return BankLikeProfiles.tidb(3).toBuilder()
        .global("tidb_stmt_summary_refresh_interval", "1800")
        .summaryWindow("2026-11-26 11:30:00", "2026-11-26 11:41:07")
        .statement(new StatementSummary("bank", "select `bank` . `t12` /* shape 0 */", 10_120, 0, false, 1))
        .statement(new StatementSummary("bank", "update `bank` . `t00` /* shape 180 */", 5000, 10, false, 1))
        .build();
  }

  @Test
  void everyFormatNamesBothWindows() throws Exception {
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(3), withSummary());
    String note = a.serverWindows();
    System.out.println(note);
    assertThat(note).isNotNull()
        .contains("STATEMENTS_SUMMARY's current window, 2026-11-26 11:30:00 to 2026-11-26 11:41:07 server time")
        .contains("a new window every 1800 s, tidb_stmt_summary_refresh_interval")
        .contains("the profile counts this application's traffic over its own "
            + ServerWindows.duration(BankLikeProfiles.scenario(3).windowSeconds()));
    // The figures the note is about are in the report: the summary's rows in the evidence.
    assertThat(a.recommendations()).anyMatch(r -> r.evidence().stream()
        .anyMatch(e -> e.contains("plan-cache hits in 15,120 executions")));

    String text = Reports.text(a);
    assertThat(text).contains("Note: Two windows: the TiDB figures");
    assertThat(text.indexOf("Two windows")).as("once, before the figures")
        .isEqualTo(text.lastIndexOf("Two windows")).isLessThan(text.indexOf("STATEMENTS_SUMMARY for 2"));
    assertThat(Reports.markdown(a)).contains("> **Note**: " + note.replace("\"", "\""));
    assertThat(Reports.html(a)).contains("id=\"server-windows\"", "2026-11-26 11:30:00 to 2026-11-26 11:41:07");
    assertThat(Reports.json(a)).contains("\"serverWindows\"", "tidb_stmt_summary_refresh_interval");
  }

  @Test
  void noSummaryFiguresNoNote() {
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(3), BankLikeProfiles.tidb(3));
    assertThat(a.serverWindows()).isNull();
    assertThat(Reports.text(a) + Reports.markdown(a) + Reports.html(a) + Reports.json(a)).doesNotContain("Two windows");
    assertThat(Advisor.analyze(BankLikeProfiles.scenario(3), null).serverWindows()).isNull();
  }

  @Test
  void aViewWithoutTheWindowStillSaysThereAreTwo() {
    // A server view written before the window was recorded: the note without the times.
    ServerView old = withSummary().toBuilder().summaryWindow(null, null).build();
    String note = Advisor.analyze(BankLikeProfiles.scenario(3), old).serverWindows();
    assertThat(note).contains("current window (a new window every 1800 s").doesNotContain("server time");
  }

  @Test
  void historyIntervalsReadForTheProfilesWindowAreNamedAsSuchNotAsTheCurrentWindow() throws Exception {
    // analyze with the profile's window reads STATEMENTS_SUMMARY_HISTORY: its intervals overlapping
    // the window, added up.
    ServerView three = withSummary().toBuilder().summaryWindow("2026-11-26 10:30:00", "2026-11-26 11:41:07")
        .summaryIntervals(3).build();
    String note = Advisor.analyze(BankLikeProfiles.scenario(3), three).serverWindows();
    assertThat(note)
        .contains("every client's executions of schema bank (the profile's JDBC URL) in the 3 STATEMENTS_SUMMARY_HISTORY intervals that overlap the"
            + " profile's window, added up, 2026-11-26 10:30:00 to 2026-11-26 11:41:07 server time")
        .contains("a new interval every 1800 s")
        .doesNotContain("current window");
    String one = Advisor.analyze(BankLikeProfiles.scenario(3),
        withSummary().toBuilder().summaryIntervals(1).build()).serverWindows();
    assertThat(one).contains("in the STATEMENTS_SUMMARY_HISTORY interval that overlaps the profile's window,")
        .doesNotContain("current window");
    assertThat(ServerViewJson.fromJson(ServerViewJson.toJson(three)).summaryIntervals()).isEqualTo(3);
  }

  @Test
  void theServerViewKeepsTheWindow() throws Exception {
    ServerView back = ServerViewJson.fromJson(ServerViewJson.toJson(withSummary()));
    assertThat(back.summaryBegin()).isEqualTo("2026-11-26 11:30:00");
    assertThat(back.summaryRead()).isEqualTo("2026-11-26 11:41:07");
    assertThat(back.summaryIntervals()).isZero();
  }
}
