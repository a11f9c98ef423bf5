package io.wireadvisor.report;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.ClientGroup;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.ErrorLine;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Fmt;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.Saving;
import io.wireadvisor.advisor.StatementTime;
import io.wireadvisor.advisor.Withheld;
import io.wireadvisor.advisor.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders an {@link Analysis} (or a {@link Comparison}) as terminal text, Markdown, JSON ({@link
 * AnalysisJson}) or a self-contained HTML page ({@link HtmlReport}).
 */
public final class Reports {
  private Reports() {}

  /** The text report's width: everything but SQL fits; SQL wraps, never cut. */
  static final int WIDTH = 100;

  /** Plain text for a terminal: the answer first, then the statements, the advice, the changes. */
  public static String text(Analysis a) {
    StringBuilder sb = new StringBuilder("wire-advisor report\n===================\n");
    firstScreen(sb, a, "", "");
    if (a.isEmpty()) {
      sb.append("\nNothing to do: no rule found a change to recommend.\n");
    }
    topStatementsText(sb, a);
    errorsText(sb, a);
    if (!a.groups().isEmpty()) {
      sb.append("\nRecommendations by client, most time saved first\n"
          + "------------------------------------------------\n");
      for (ClientGroup g : a.groups()) {
        sb.append('\n');
        wrap(sb, "Client: " + groupLine(g), "  ");
        if (g.analysis().isEmpty()) {
          sb.append("  Nothing to do for this client.\n");
        }
        recommendationsText(sb, g.analysis().recommendations());
        allChanges(sb, g.analysis(), "\n  All changes together, for this client:\n", "  ", "    ",
            "");
        if (!g.analysis().withheld().isEmpty()) {
          sb.append("\n  Withheld for this client:\n");
          withheldText(sb, g.analysis(), null, "    - ");
        }
      }
    } else if (!a.isEmpty()) {
      sb.append("\nRecommendations, most time saved first\n--------------------------------------\n");
      recommendationsText(sb, a.recommendations());
    }
    if (a.groups().isEmpty()) {
      withheldText(sb, a, "", "  - ");
      allChanges(sb, a, "\nAll changes together\n--------------------\n", "  ", "");
    }
    sb.append("\nProfile\n-------\n");
    StringBuilder profile = new StringBuilder();
    summary(profile, a, "", "");
    for (String line : profile.toString().split("\n")) {
      wrap(sb, line, "  ");
    }
    return sb.toString();
  }

  private static void recommendationsText(StringBuilder sb, List<Recommendation> recommendations) {
    int n = 1;
    for (Recommendation r : recommendations) {
      sb.append('\n');
      wrap(sb, n++ + ". [" + r.severity() + "] " + r.title() + "  (" + r.id() + ")", "   ");
      if (r.saving() != null) {
        wrap(sb, "   Saving: " + saving(r.saving()) + " (" + r.saving().assumption() + ")", "           ");
      }
      sb.append("   Evidence:\n");
      for (String e : r.evidence()) {
        wrap(sb, "     " + e, "       ");
      }
      change(sb, r.change(), "   ", "     ", "");
      wrap(sb, "   Expected effect: " + r.expectedEffect(), "     ");
      wrap(sb, "   Risk: " + r.risk(), "     ");
      wrap(sb, "   Verify: " + r.verify(), "     ");
      for (Expectation e : r.expectations()) {
        wrap(sb, "   Expect: " + e.description(), "     ");
      }
    }
  }

  /**
   * "PyMySQL (pymysql 1.1.1): 4,003 wire commands (50.0%); 2.10 -> 1.00 round trips per statement;
   * estimated saving 0.41 s of 0.80 s": a client group's heading, its own estimate.
   */
  static String groupLine(ClientGroup g) {
    StringBuilder sb = new StringBuilder(g.label()).append(": ")
        .append(Fmt.count(g.wireCommands())).append(" wire commands (")
        .append(Fmt.percent(g.share())).append(')');
    Outlook o = g.analysis().outlook();
    if (o != null) {
      sb.append("; ").append(Fmt.ratio(o.roundTripsPerStatementNow())).append(" -> ")
          .append(Fmt.ratio(o.roundTripsPerStatementAfter()))
          .append(" round trips per business statement");
      if (o.measuredSeconds() > 0) {
        sb.append("; estimated saving ").append(duration(o.secondsSaved())).append(" of ")
            .append(duration(o.measuredSeconds())).append(" waited");
      }
    }
    return sb.toString();
  }

  /** GitHub-flavoured Markdown, the same sections as the text. */
  public static String markdown(Analysis a) {
    StringBuilder sb = new StringBuilder("# wire-advisor report\n\n");
    firstScreen(sb, a, "- ", "");
    if (a.isEmpty()) {
      sb.append("\n**Nothing to do**: no rule found a change to recommend.\n");
    }
    if (!a.topStatements().isEmpty()) {
      sb.append("\n## Top statements by time\n\n")
          .append(a.serverWindows() == null ? "" : "> **Note**: " + a.serverWindows() + "\n\n")
          .append("| # | share | time (s) | executions | wire pattern | ")
          .append(sqlLimits(a) ? "length / limit" : "length").append(" | statement |\n")
          .append("|---|---|---|---|---|---|---|\n");
      int i = 1;
      for (StatementTime t : a.topStatements()) {
        sb.append("| ").append(i++).append(" | ").append(Fmt.percent(t.share())).append(" | ")
            .append(String.format(Locale.ROOT, "%.2f", t.seconds())).append(" | ")
            .append(Fmt.count(t.executions())).append(" | ").append(pattern(t)).append(" | ")
            .append(t.maxSqlLength()).append(t.hasSqlLimit() ? " / " + t.sqlLimit() : "")
            .append(t.aboveSqlLimit() ? " (never cached)" : "").append(" | `")
            .append(t.text().replace("|", "\\|").replace("`", "'")).append("`")
            .append(t.tidbDigest() == null ? "" : " (TiDB digest " + t.tidbDigest() + ")")
            .append(t.server() == null ? "" : "; TiDB: " + serverSide(t.server())).append(" |\n");
      }
    }
    if (!a.errors().isEmpty()) {
      sb.append("\n## Errors by statement and code\n\n")
          .append("| ERR replies | of executions | code | time waited | statement |\n")
          .append("|---|---|---|---|---|\n");
      for (ErrorLine e : a.errors()) {
        sb.append("| ").append(Fmt.count(e.count())).append(" | ").append(Fmt.count(e.executions()))
            .append(" | ").append(e.codeText()).append(" | ").append(errorTime(e)).append(" | `")
            .append(e.text().replace("|", "\\|").replace("`", "'")).append("`")
            .append(e.sessionState() ? " (session state, sent by the driver or framework)" : "")
            .append(" |\n");
      }
    }
    if (!a.groups().isEmpty()) {
      for (ClientGroup g : a.groups()) {
        sb.append("\n## Client: ").append(groupLine(g)).append("\n");
        if (g.analysis().isEmpty()) {
          sb.append("\nNothing to do for this client.\n");
        }
        recommendationsMarkdown(sb, g.analysis().recommendations(), "###");
        allChanges(sb, g.analysis(), "\n### All changes together, for this client\n\n", "", "```\n");
        if (!g.analysis().withheld().isEmpty()) {
          sb.append("\n### Withheld for this client\n\n");
          withheldText(sb, g.analysis(), null, "- ");
        }
      }
    } else {
      recommendationsMarkdown(sb, a.recommendations(), "##");
    }
    if (!a.withheld().isEmpty() && a.groups().isEmpty()) {
      sb.append("\n## Withheld (not enough traffic, or not for this driver or workload)\n\n");
      withheldText(sb, a, null, "- ");
    }
    if (a.groups().isEmpty()) {
      allChanges(sb, a, "\n## All changes together\n\n", "", "```\n");
    }
    sb.append("\n## Profile\n\n");
    summary(sb, a, "- ", "");
    return sb.toString();
  }

  private static void recommendationsMarkdown(
      StringBuilder sb, List<Recommendation> recommendations, String h) {
    int n = 1;
    for (Recommendation r : recommendations) {
      sb.append("\n").append(h).append(" ").append(n++).append(". ").append(r.title()).append("\n\n");
      sb.append("`").append(r.id()).append("` · severity **").append(r.severity()).append("**\n\n");
      if (r.saving() != null) {
        sb.append("**Saving**: ").append(saving(r.saving())).append(" (").append(r.saving().assumption())
            .append(")\n\n");
      }
      sb.append("**Evidence**\n\n```\n");
      for (String e : r.evidence()) {
        sb.append(e).append('\n');
      }
      sb.append("```\n\n**Change**\n\n");
      change(sb, r.change(), "", "", "```\n");
      sb.append("\n**Expected effect**: ").append(r.expectedEffect()).append("\n\n");
      sb.append("**Risk**: ").append(r.risk()).append("\n\n");
      sb.append("**Verify**: ").append(r.verify()).append("\n\n");
      for (Expectation e : r.expectations()) {
        sb.append("- Expect: ").append(e.description()).append('\n');
      }
    }
  }

  /** True when Connector/J's statement-cache limit applies to some top statement. */
  static boolean sqlLimits(Analysis a) {
    for (StatementTime t : a.topStatements()) {
      if (t.hasSqlLimit()) {
        return true;
      }
    }
    return false;
  }

  /** Round trips now and after, time saved, server and window, the top three changes. */
  static void firstScreen(StringBuilder sb, Analysis a, String bullet, String end) {
    Outlook o = a.outlook();
    if (o == null) {
      sb.append(bullet).append("(no outlook: this analysis was built without the estimates)").append('\n');
      return;
    }
    sb.append(bullet).append("Now:    ").append(Fmt.ratio(o.roundTripsPerStatementNow()))
        .append(" wire round trips per business statement (").append(Fmt.count(o.businessStatements()))
        .append(" statements in ").append(Fmt.rate(o.windowSeconds())).append(" s)").append(end).append('\n');
    sb.append(bullet).append("After:  ").append(Fmt.ratio(o.roundTripsPerStatementAfter()))
        .append(" (estimated, with every recommendation applied)").append(end).append('\n');
    if (o.measuredSeconds() <= 0) {
      sb.append(bullet).append("Time:   not timed (the collector recorded no latencies): savings in"
          + " round trips only").append(end).append('\n');
    } else {
    sb.append(bullet).append("Time:   ").append(duration(o.measuredSeconds()))
        .append(" waited on the wire in the window; estimated saving ")
        .append(duration(o.secondsSaved())).append(" (")
        .append(Fmt.percent(o.measuredSeconds() == 0 ? Double.NaN : o.secondsSaved() / o.measuredSeconds()))
        .append(")").append(end).append('\n');
      if (o.cpuLine() != null) {
        wrap(sb, bullet + "        CPU-bound: " + o.cpuLine() + end, "          ");
      }
      if (!o.notEstimated().isEmpty()) {
        wrap(sb, bullet + "        not counted: " + String.join("; ", o.notEstimated()) + end,
            "          ");
      }
    }
    sb.append(bullet).append("Server: ").append(o.server() == null ? "unknown" : o.server())
        .append(" [").append(o.serverKind()).append("]").append(end).append('\n');
    if (a.errorsOnFirstScreen()) {
      wrap(sb, bullet + "Errors: " + errorHeadline(a) + end, "        ");
    }
    if (!a.groups().isEmpty()) {
      // Each client's own top changes: never one client's setting under another's name.
      for (ClientGroup g : a.groups()) {
        sb.append(bullet).append("Top changes for ").append(g.kind().label()).append(':')
            .append(g.analysis().isEmpty() ? " none" : "").append('\n');
        int n = 0;
        for (Recommendation r : g.analysis().recommendations()) {
          if (n == 3) {
            break;
          }
          n++;
          String line = (bullet.isEmpty() ? "  " : "  " + bullet) + n + ". [" + r.severity() + "] "
              + r.title() + (r.saving() == null ? "" : " (" + saving(r.saving()) + ")");
          wrap(sb, line, "       ");
        }
      }
    } else if (!a.recommendations().isEmpty()) {
      sb.append(bullet).append("Top changes:").append('\n');
      int n = 0;
      for (Recommendation r : a.recommendations()) {
        if (n == 3) {
          break;
        }
        n++;
        String line = (bullet.isEmpty() ? "  " : "  " + bullet) + n + ". [" + r.severity() + "] "
            + r.title() + (r.saving() == null ? "" : " (" + saving(r.saving()) + ")");
        wrap(sb, line, "       ");
      }
    }
    sb.append(bullet).append("Wire commands per business statement, now -> after:").append('\n');
    java.util.Set<String> types = new java.util.LinkedHashSet<>(o.commandsNow().keySet());
    types.addAll(o.commandsAfter().keySet());
    for (String t : types) {
      sb.append(bullet.isEmpty() ? "  " : "  " + bullet)
          .append(String.format(Locale.ROOT, "%-24s %6s -> %6s", t,
              Fmt.ratio(per(o.commandsNow().get(t), o.businessStatements())),
              Fmt.ratio(per(o.commandsAfter().get(t), o.businessStatements()))))
          .append('\n');
    }
  }

  /**
   * "301 ERR replies (22.8% of business statements, 45 ms waited): ERROR 1235 (42000) x301 on set
   * session transaction read only; ..." (the three costliest shapes and codes).
   */
  static String errorHeadline(Analysis a) {
    double seconds = 0;
    boolean timed = false;
    for (ErrorLine e : a.errors()) {
      if (!Double.isNaN(e.seconds())) {
        seconds += e.seconds();
        timed = true;
      }
    }
    long business = a.outlook() == null ? a.profile().statements() : a.outlook().businessStatements();
    StringBuilder b = new StringBuilder().append(Fmt.count(a.errorTotal())).append(" ERR replies (")
        .append(Fmt.percent(Workload.ratio(a.errorTotal(), business))).append(" of business statements")
        .append(timed ? ", " + duration(seconds) + " waited" : "").append("): ");
    int n = 0;
    for (ErrorLine e : a.errors()) {
      if (n == 3) {
        b.append("; ...");
        break;
      }
      b.append(n++ == 0 ? "" : "; ").append(e.codeText()).append(" x").append(Fmt.count(e.count()))
          .append(" on ").append(Fmt.printable(Fmt.sql(e.text(), 60)));
    }
    return b.toString();
  }

  static String errorTime(ErrorLine e) {
    return Double.isNaN(e.seconds()) ? "not timed" : duration(e.seconds());
  }

  private static void errorsText(StringBuilder sb, Analysis a) {
    if (a.errors().isEmpty()) {
      return;
    }
    sb.append("\nErrors by statement and code\n----------------------------\n");
    sb.append(String.format(Locale.ROOT, "%11s %13s  %-22s %11s%n", "ERR replies", "of executions",
        "code", "time"));
    for (ErrorLine e : a.errors()) {
      sb.append(String.format(Locale.ROOT, "%11s %13s  %-22s %11s%n", Fmt.count(e.count()),
          Fmt.count(e.executions()), e.codeText(), errorTime(e)));
      wrap(sb, "      " + Fmt.printable(e.text())
          + (e.sessionState() ? "  (session state, sent by the driver or framework)" : ""), "      ");
    }
    if (a.errorTotal() > sumCounts(a)) {
      sb.append("      (").append(Fmt.count(a.errorTotal() - sumCounts(a)))
          .append(" more ERR replies of other statements)\n");
    }
  }

  private static long sumCounts(Analysis a) {
    long n = 0;
    for (ErrorLine e : a.errors()) {
      n += e.count();
    }
    return n;
  }

  private static double per(Long n, long statements) {
    return statements == 0 || n == null ? 0 : (double) n / statements;
  }

  static String saving(Saving s) {
    StringBuilder b = new StringBuilder();
    if (s.roundTripsSaved() > 0) {
      b.append(Fmt.count(s.roundTripsSaved())).append(" fewer wire commands");
    } else if (s.roundTripsAfter() > s.roundTripsBefore()) {
      b.append(Fmt.count(s.roundTripsAfter() - s.roundTripsBefore())).append(" more wire commands");
    } else {
      b.append("no wire commands removed");
    }
    if (s.secondsSaved() > 0) {
      b.append(", ~").append(duration(s.secondsSaved())).append(" saved");
    }
    return b.toString();
  }

  /** {@code 12.3 s}, or {@code 45 ms} below a second: a short window's savings still read. */
  static String duration(double seconds) {
    return seconds >= 1 ? String.format(Locale.ROOT, "%.1f s", seconds)
        : String.format(Locale.ROOT, "%.0f ms", seconds * 1000);
  }

  /** TiDB's figures for a statement in one line. */
  static String serverSide(StatementTime.ServerSide s) {
    return Fmt.count(s.executions()) + " executions, "
        + Fmt.percent(Workload.ratio(s.planCacheHits(), s.executions())) + " from the plan cache, "
        + (s.executions() == 0 ? "-" : duration(s.seconds() / s.executions())) + " each on the server"
        + (s.avgProcessedKeys() >= 0 ? String.format(Locale.ROOT, ", %.0f keys processed each", s.avgProcessedKeys()) : "");
  }

  static String pattern(StatementTime t) {
    String p = t.wirePattern();
    return t.probes() > 0 ? (p.isEmpty() ? "probe" : p + " (probe)") : p;
  }

  private static void topStatementsText(StringBuilder sb, Analysis a) {
    if (a.topStatements().isEmpty()) {
      return;
    }
    sb.append("\nTop statements by time\n----------------------\n");
    if (a.serverWindows() != null) {
      wrap(sb, "Note: " + a.serverWindows(), "  ");
      sb.append('\n');
    }
    boolean limits = false;
    for (StatementTime t : a.topStatements()) {
      limits |= t.hasSqlLimit();
    }
    sb.append(String.format(Locale.ROOT, "%3s %7s %9s %11s  %-34s %s%n", "#", "share", "time s",
        "executions", "wire pattern", limits ? "length/limit" : "length"));
    int i = 1;
    for (StatementTime t : a.topStatements()) {
      sb.append(String.format(Locale.ROOT, "%3d %7s %9.2f %11s  %-34s %s%s%n", i++,
          Fmt.percent(t.share()), t.seconds(), Fmt.count(t.executions()), pattern(t),
          t.maxSqlLength() + (t.hasSqlLimit() ? "/" + t.sqlLimit() : ""),
          t.aboveSqlLimit() ? " never cached" : ""));
      wrap(sb, "      " + t.text(), "      ");
      if (t.tidbDigest() != null) {
        sb.append("      TiDB digest ").append(t.tidbDigest()).append('\n');
      }
      if (t.server() != null) {
        wrap(sb, "      TiDB: " + serverSide(t.server()), "        ");
      }
    }
  }

  private static void withheldText(StringBuilder sb, Analysis a, String heading, String item) {
    if (a.withheld().isEmpty()) {
      return;
    }
    if (heading != null) {
      sb.append("\nWithheld (not enough traffic, or not for this driver or workload)\n"
          + "-----------------------------------------------------------------\n");
    }
    for (Withheld w : a.withheld()) {
      wrap(sb, item + w.message(), "    ");
    }
  }

  /** Appends {@code line} wrapped at {@link #WIDTH} columns; continuation lines get {@code indent}. */
  static void wrap(StringBuilder sb, String line, String indent) {
    String rest = line;
    boolean first = true;
    while (true) {
      String prefix = first ? "" : indent;
      int room = WIDTH - prefix.length();
      if (rest.length() <= room) {
        sb.append(prefix).append(rest).append('\n');
        return;
      }
      int cut = rest.lastIndexOf(' ', room);
      if (cut <= room / 3) {
        cut = room; // a long token (SQL without spaces): break it, never drop it
      }
      sb.append(prefix).append(rest, 0, cut).append('\n');
      rest = rest.substring(cut).replaceFirst("^ ", "");
      first = false;
    }
  }

  /** The analysis as JSON (schema in docs/advisor.md). */
  public static String json(Analysis a) {
    return AnalysisJson.toJson(a);
  }

  /** A self-contained HTML page with inline SVG charts. */
  public static String html(Analysis a) {
    return HtmlReport.render(a, null);
  }

  /** A self-contained HTML page of a comparison, with before/after charts. */
  public static String html(Comparison c) {
    return HtmlReport.render(c.before(), c);
  }

  /** Plain text of a comparison. */
  public static String text(Comparison c) {
    if (!c.clients().isEmpty()) {
      StringBuilder sb = new StringBuilder("Compared client by client (each client's part of the"
          + " before profile with its part of the after profile).\n");
      for (Comparison.ClientDiff d : c.clients()) {
        sb.append("\nClient: ").append(d.label()).append('\n');
        if (d.comparison() == null) {
          wrap(sb, "  In the " + d.onlyIn() + " profile only: nothing of it to compare with.", "  ");
          continue;
        }
        for (String line : text(d.comparison()).split("\n")) {
          sb.append(line.isEmpty() ? "" : "  " + line).append('\n');
        }
      }
      sb.append(c.allMet() ? "\nEvery measurable expectation is met" : "\nSome expectations are not met")
          .append(c.regressions().isEmpty() ? ".\n" : ", but some client's traffic regressed (above).\n");
      return sb.toString();
    }
    StringBuilder sb = new StringBuilder("Before: ");
    line(sb, c.before().profile());
    sb.append("After:  ");
    line(sb, c.after());
    if (c.wholeNote() != null) {
      wrap(sb, c.wholeNote(), "");
    }
    regressions(sb, c);
    if (c.items().isEmpty()) {
      sb.append("\nThe 'before' profile had nothing to recommend.\n");
      return sb.toString();
    }
    sb.append('\n');
    for (Comparison.Item i : c.items()) {
      Expectation.Outcome o = i.outcome();
      sb.append(String.format("%-15s %-28s %s", o.status(), i.recommendation().id(),
          o.expectation().description()));
      if (o.expectation().metric() != null) {
        sb.append("; after: ").append(Metric.format(o.after()));
      } else {
        sb.append("; verify on the server: ").append(i.recommendation().verify());
      }
      sb.append('\n');
    }
    sb.append(c.allMet() ? "\nEvery measurable expectation is met" : "\nSome expectations are not met")
        .append(c.regressions().isEmpty() ? ".\n" : ", but the whole regressed (above).\n");
    return sb.toString();
  }

  private static void regressions(StringBuilder sb, Comparison c) {
    for (io.wireadvisor.advisor.Regression r : c.regressions()) {
      sb.append('\n');
      wrap(sb, "REGRESSED       " + r.message(), "                ");
      for (String d : r.details()) {
        wrap(sb, "  - " + d, "    ");
      }
    }
  }

  private static void line(StringBuilder sb, ProfileSummary p) {
    sb.append(Fmt.count(p.statements())).append(" statements, ").append(Fmt.count(p.wireCommands()))
        .append(" wire commands (").append(Fmt.ratio(p.statementsPerCommand()))
        .append(" statements per command)\n");
  }

  private static void summary(StringBuilder sb, Analysis a, String bullet, String end) {
    ProfileSummary p = a.profile();
    sb.append(bullet).append("Profile: ").append(Fmt.count(p.statements())).append(" statements (")
        .append(Fmt.percent(p.statements() == 0 ? Double.NaN : (double) p.selects() / p.statements()))
        .append(" SELECT) in ").append(Fmt.rate(p.windowSeconds())).append(" s = ")
        .append(Fmt.rate(p.statementsPerSecond())).append("/s; ").append(Fmt.count(p.wireCommands()))
        .append(" wire commands; ").append(p.shapes()).append(" shapes; ")
        .append(Fmt.count(p.probes())).append(" probes; ").append(Fmt.count(p.connections()))
        .append(" connections").append(end).append('\n');
    sb.append(bullet).append("Commands: ");
    boolean first = true;
    for (Map.Entry<String, Long> e : p.commands().entrySet()) {
      sb.append(first ? "" : ", ").append(e.getKey()).append(' ').append(Fmt.count(e.getValue()));
      first = false;
    }
    sb.append('\n');
    sb.append(bullet).append("Statements per wire command: ").append(Fmt.ratio(p.statementsPerCommand()))
        .append('\n');
    sb.append(bullet).append("Server: ")
        .append(a.server() == null ? "not inspected (server-side rules skipped)" : a.server()).append('\n');
    for (String s : p.sources()) {
      sb.append(bullet).append("Source: ").append(s).append('\n');
    }
  }

  private static void change(StringBuilder sb, Change c, String indent, String item, String fence) {
    clients(sb, c.clients(), indent, fence);
    if (!c.jdbcProperties().isEmpty()) {
      sb.append(indent).append("JDBC URL parameters:\n").append(fence);
      sb.append(item).append(c.urlParameters()).append('\n').append(fence);
      sb.append(indent).append("HikariCP dataSourceProperties:\n").append(fence);
      for (String l : c.hikariDataSourceLines()) {
        sb.append(item).append(l).append('\n');
      }
      sb.append(fence);
    }
    if (!c.poolSettings().isEmpty()) {
      sb.append(indent).append("HikariCP settings:\n").append(fence);
      for (Map.Entry<String, String> e : c.poolSettings().entrySet()) {
        sb.append(item).append(e.getKey()).append('=').append(e.getValue()).append('\n');
      }
      sb.append(fence);
    }
    if (!c.hibernateProperties().isEmpty()) {
      sb.append(indent).append("Hibernate properties:\n").append(fence);
      for (Map.Entry<String, String> e : c.hibernateProperties().entrySet()) {
        sb.append(item).append(e.getKey()).append('=').append(e.getValue()).append('\n');
      }
      sb.append(fence);
    }
    if (!c.sql().isEmpty()) {
      sb.append(indent).append("SQL (run once, as an administrator):\n").append(fence);
      for (String s : c.sql()) {
        sb.append(item).append(s).append('\n');
      }
      sb.append(fence);
    }
    for (String note : c.notes()) {
      if (fence.isEmpty()) {
        wrap(sb, indent + "Note: " + note, indent + "  ");
      } else {
        sb.append(indent).append("Note: ").append(note).append('\n');
      }
    }
  }

  /** One block per client ({@link Change#clients()}): "For <client>:" and its lines. */
  private static void clients(
      StringBuilder sb, Map<String, List<String>> clients, String indent, String fence) {
    for (Map.Entry<String, List<String>> e : clients.entrySet()) {
      sb.append(indent).append(fence.isEmpty() ? "For " : "**For ").append(e.getKey())
          .append(fence.isEmpty() ? ":\n" : ":**\n");
      for (String line : e.getValue()) {
        if (fence.isEmpty()) {
          wrap(sb, indent + "  - " + line, indent + "    ");
        } else {
          sb.append(indent).append("- ").append(line).append('\n');
        }
      }
      if (!fence.isEmpty()) {
        sb.append('\n');
      }
    }
  }

  /** Every JDBC property of every recommendation, in order: one URL to paste. */
  public static Map<String, String> allJdbcProperties(List<Recommendation> recommendations) {
    Map<String, String> all = new LinkedHashMap<>();
    for (Recommendation r : recommendations) {
      all.putAll(r.change().jdbcProperties());
    }
    return all;
  }

  private static void allChanges(StringBuilder sb, Analysis a, String heading, String item, String fence) {
    allChanges(sb, a, heading, "", item, fence);
  }

  /** {@code indent} before each heading line (a client group's block in the text report). */
  private static void allChanges(
      StringBuilder sb, Analysis a, String heading, String indent, String item, String fence) {
    CopyReady c = CopyReady.of(a);
    if (c.isEmpty()) {
      return;
    }
    sb.append(heading);
    clients(sb, c.clients, indent, fence);
    if (!c.urls.isEmpty()) {
      sb.append(indent).append("JDBC URL:\n").append(fence);
      for (String u : c.urls) {
        sb.append(item).append(u).append('\n');
      }
      sb.append(fence);
    }
    if (!c.hikari.isEmpty() || !c.hibernate.isEmpty()) {
      if (!c.hikari.isEmpty()) {
        sb.append(indent).append("HikariCP (properties file or HikariConfig):\n").append(fence);
        for (String l : c.hikari) {
          sb.append(item).append(l).append('\n');
        }
        sb.append(fence);
      }
      if (!c.hibernate.isEmpty()) {
        sb.append(indent).append("Hibernate (hibernate.properties or persistence.xml):\n").append(fence);
        for (String l : c.hibernate) {
          sb.append(item).append(l).append('\n');
        }
        sb.append(fence);
      }
      sb.append(indent).append("Spring Boot (application.properties):\n").append(fence);
      for (String l : c.spring) {
        sb.append(item).append(l).append('\n');
      }
      sb.append(fence);
    }
    if (!c.sql.isEmpty()) {
      sb.append(indent).append("SQL for the DBA (run once, as an administrator):\n").append(fence);
      for (String l : c.sql) {
        sb.append(item).append(l).append('\n');
      }
      sb.append(fence);
    }
    for (String n : c.notes) {
      if (fence.isEmpty()) {
        wrap(sb, item + "Note: " + n, item + "  ");
      } else {
        sb.append(item).append("Note: ").append(n).append('\n');
      }
    }
  }
}
