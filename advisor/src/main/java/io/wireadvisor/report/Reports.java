package io.wireadvisor.report;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Fmt;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Recommendation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders an {@link Analysis} (or a {@link Comparison}) as terminal text, Markdown, JSON ({@link
 * AnalysisJson}) or a self-contained HTML page ({@link HtmlReport}).
 */
public final class Reports {
  private Reports() {}

  /** Plain text for a terminal. */
  public static String text(Analysis a) {
    StringBuilder sb = new StringBuilder();
    summary(sb, a, "", "");
    if (a.isEmpty()) {
      sb.append("\nNothing to do: no rule found a change to recommend.\n");
      return sb.toString();
    }
    sb.append('\n').append(a.recommendations().size()).append(" recommendation(s):\n");
    int n = 1;
    for (Recommendation r : a.recommendations()) {
      sb.append("\n").append(n++).append(". [").append(r.severity()).append("] ").append(r.title())
          .append("  (").append(r.id()).append(")\n");
      sb.append("   Evidence:\n");
      for (String e : r.evidence()) {
        sb.append("     ").append(e).append('\n');
      }
      change(sb, r.change(), "   ", "     ", "");
      sb.append("   Expected effect: ").append(r.expectedEffect()).append('\n');
      sb.append("   Risk: ").append(r.risk()).append('\n');
      sb.append("   Verify: ").append(r.verify()).append('\n');
      for (Expectation e : r.expectations()) {
        sb.append("   Expect: ").append(e.description()).append('\n');
      }
    }
    allChanges(sb, a, "", "  ", "");
    return sb.toString();
  }

  /** GitHub-flavoured Markdown. */
  public static String markdown(Analysis a) {
    StringBuilder sb = new StringBuilder("# wire-advisor report\n\n");
    summary(sb, a, "- ", "");
    if (a.isEmpty()) {
      sb.append("\n**Nothing to do**: no rule found a change to recommend.\n");
      return sb.toString();
    }
    int n = 1;
    for (Recommendation r : a.recommendations()) {
      sb.append("\n## ").append(n++).append(". ").append(r.title()).append("\n\n");
      sb.append("`").append(r.id()).append("` · severity **").append(r.severity()).append("**\n\n");
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
    sb.append('\n');
    allChanges(sb, a, "## ", "", "```\n");
    return sb.toString();
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
    StringBuilder sb = new StringBuilder("Before: ");
    line(sb, c.before().profile());
    sb.append("After:  ");
    line(sb, c.after());
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
    sb.append(c.allMet() ? "\nEvery measurable expectation is met.\n" : "\nSome expectations are not met.\n");
    return sb.toString();
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
    if (!c.sql().isEmpty()) {
      sb.append(indent).append("SQL (run once, as an administrator):\n").append(fence);
      for (String s : c.sql()) {
        sb.append(item).append(s).append('\n');
      }
      sb.append(fence);
    }
    for (String note : c.notes()) {
      sb.append(indent).append("Note: ").append(note).append('\n');
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
    Map<String, String> all = allJdbcProperties(a.recommendations());
    if (all.isEmpty()) {
      return;
    }
    sb.append('\n').append(heading).append("All JDBC changes together\n").append(fence);
    StringBuilder url = new StringBuilder();
    for (Map.Entry<String, String> e : all.entrySet()) {
      url.append(url.length() == 0 ? "" : "&").append(e.getKey()).append('=').append(e.getValue());
    }
    sb.append(item).append(url).append('\n').append(fence);
  }
}
