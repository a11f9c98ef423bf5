package io.wireadvisor.report;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Fmt;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Recommendation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** A self-contained HTML report: inline CSS and SVG charts, no scripts, no external assets. */
final class HtmlReport {
  private static final String BEFORE_COLOR = "#c0504d";
  private static final String AFTER_COLOR = "#4f81bd";

  private HtmlReport() {}

  static String render(Analysis a, Comparison c) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>wire-advisor report</title><style>")
        .append("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}")
        .append("pre{background:#f4f4f4;padding:.6em;overflow-x:auto}")
        .append(".rec{border:1px solid #ccc;border-radius:6px;padding:0 1em 1em;margin:1em 0}")
        .append(".HIGH{color:#b00}.MEDIUM{color:#b60}.LOW{color:#555}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}")
        .append(".chart{margin:1em 0}</style></head><body>\n");
    sb.append("<h1>wire-advisor report</h1>\n");
    ProfileSummary p = a.profile();
    sb.append("<p>").append(esc(Fmt.count(p.statements()))).append(" statements in ")
        .append(esc(Fmt.rate(p.windowSeconds()))).append(" s (")
        .append(esc(Fmt.rate(p.statementsPerSecond()))).append("/s), ")
        .append(esc(Fmt.count(p.wireCommands()))).append(" wire commands, ")
        .append(p.shapes()).append(" shapes, ").append(esc(Fmt.count(p.probes())))
        .append(" probes, ").append(esc(Fmt.count(p.connections()))).append(" connections.<br>")
        .append("Server: ").append(esc(a.server() == null ? "not inspected" : a.server())).append("</p>\n");

    sb.append("<h2>Command mix</h2>\n");
    List<String> labels = new ArrayList<>(p.commands().keySet());
    sb.append(barChart("command-mix", labels, new String[] {"commands"},
        new double[][] {values(p.commands(), labels, 1)}, new String[] {AFTER_COLOR}, false));

    sb.append("<h2>Wire commands per statement</h2>\n<p>Statements per wire command: <b>")
        .append(esc(Fmt.ratio(p.statementsPerCommand()))).append("</b> (1.00 means one round trip per statement).</p>\n");
    sb.append(barChart("per-statement", labels, new String[] {"per statement"},
        new double[][] {values(p.commands(), labels, p.statements())}, new String[] {AFTER_COLOR}, true));

    if (c != null) {
      ProfileSummary after = c.after();
      Set<String> all = new LinkedHashSet<>(p.commands().keySet());
      all.addAll(after.commands().keySet());
      List<String> both = new ArrayList<>(all);
      sb.append("<h2>Before / after: wire commands per statement</h2>\n");
      sb.append(barChart("before-after", both, new String[] {"before", "after"},
          new double[][] {values(p.commands(), both, p.statements()),
              values(after.commands(), both, after.statements())},
          new String[] {BEFORE_COLOR, AFTER_COLOR}, true));
      sb.append("<table><tr><th>rule</th><th>expectation</th><th>after</th><th>status</th></tr>\n");
      for (Comparison.Item i : c.items()) {
        Expectation.Outcome o = i.outcome();
        sb.append("<tr><td>").append(esc(i.recommendation().id())).append("</td><td>")
            .append(esc(o.expectation().description())).append("</td><td>")
            .append(esc(Metric.format(o.after()))).append("</td><td>").append(o.status())
            .append("</td></tr>\n");
      }
      sb.append("</table>\n");
    }

    sb.append("<h2>Recommendations</h2>\n");
    if (a.isEmpty()) {
      sb.append("<p><b>Nothing to do</b>: no rule found a change to recommend.</p>\n");
    }
    for (Recommendation r : a.recommendations()) {
      sb.append("<div class=\"rec\" id=\"").append(esc(r.id())).append("\"><h3>")
          .append(esc(r.title())).append("</h3><p><code>").append(esc(r.id()))
          .append("</code> &middot; <span class=\"").append(r.severity()).append("\">")
          .append(r.severity()).append("</span></p>\n<h4>Evidence</h4><pre>");
      for (String e : r.evidence()) {
        sb.append(esc(e)).append('\n');
      }
      sb.append("</pre>\n<h4>Change</h4>\n");
      Change ch = r.change();
      if (!ch.jdbcProperties().isEmpty()) {
        sb.append("<p>JDBC URL parameters</p><pre>").append(esc(ch.urlParameters()))
            .append("</pre><p>HikariCP dataSourceProperties</p><pre>");
        for (String l : ch.hikariDataSourceLines()) {
          sb.append(esc(l)).append('\n');
        }
        sb.append("</pre>\n");
      }
      if (!ch.poolSettings().isEmpty()) {
        sb.append("<p>HikariCP settings</p><pre>");
        for (Map.Entry<String, String> e : ch.poolSettings().entrySet()) {
          sb.append(esc(e.getKey() + "=" + e.getValue())).append('\n');
        }
        sb.append("</pre>\n");
      }
      if (!ch.sql().isEmpty()) {
        sb.append("<p>SQL</p><pre>");
        for (String s : ch.sql()) {
          sb.append(esc(s)).append('\n');
        }
        sb.append("</pre>\n");
      }
      for (String n : ch.notes()) {
        sb.append("<p>Note: ").append(esc(n)).append("</p>\n");
      }
      sb.append("<p><b>Expected effect:</b> ").append(esc(r.expectedEffect())).append("</p>\n")
          .append("<p><b>Risk:</b> ").append(esc(r.risk())).append("</p>\n")
          .append("<p><b>Verify:</b> ").append(esc(r.verify())).append("</p>\n<ul>");
      for (Expectation e : r.expectations()) {
        sb.append("<li>").append(esc(e.description())).append("</li>");
      }
      sb.append("</ul></div>\n");
    }
    sb.append("</body></html>\n");
    return sb.toString();
  }

  private static double[] values(Map<String, Long> counts, List<String> labels, long per) {
    double[] v = new double[labels.size()];
    for (int i = 0; i < v.length; i++) {
      Long n = counts.get(labels.get(i));
      v[i] = n == null || per == 0 ? 0 : (double) n / per;
    }
    return v;
  }

  /** A horizontal bar chart: one row per label, one bar per series. */
  static String barChart(String id, List<String> labels, String[] series, double[][] values,
      String[] colors, boolean ratio) {
    int labelWidth = 190;
    int barArea = 700;
    int barHeight = 14;
    int rowHeight = barHeight * series.length + 8;
    int height = 30 + rowHeight * Math.max(1, labels.size());
    double max = 0;
    for (double[] s : values) {
      for (double v : s) {
        max = Math.max(max, v);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("<svg class=\"chart\" id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(labelWidth + barArea + 120).append("\" height=\"").append(height)
        .append("\" role=\"img\">\n");
    // Legend.
    for (int s = 0; s < series.length; s++) {
      sb.append("<rect x=\"").append(labelWidth + s * 120).append("\" y=\"4\" width=\"12\" height=\"12\" fill=\"")
          .append(colors[s]).append("\"/><text x=\"").append(labelWidth + s * 120 + 16)
          .append("\" y=\"15\" font-size=\"12\">").append(esc(series[s])).append("</text>\n");
    }
    for (int i = 0; i < labels.size(); i++) {
      int y = 26 + i * rowHeight;
      sb.append("<text x=\"").append(labelWidth - 6).append("\" y=\"").append(y + rowHeight / 2 + 2)
          .append("\" font-size=\"12\" text-anchor=\"end\">").append(esc(labels.get(i))).append("</text>\n");
      for (int s = 0; s < series.length; s++) {
        double v = values[s][i];
        int w = max <= 0 ? 0 : (int) Math.round(v / max * barArea);
        int by = y + s * barHeight;
        sb.append("<rect class=\"bar\" x=\"").append(labelWidth).append("\" y=\"").append(by)
            .append("\" width=\"").append(Math.max(w, v > 0 ? 1 : 0)).append("\" height=\"")
            .append(barHeight - 2).append("\" fill=\"").append(colors[s]).append("\"/>")
            .append("<text x=\"").append(labelWidth + w + 4).append("\" y=\"").append(by + barHeight - 4)
            .append("\" font-size=\"11\">")
            .append(esc(ratio ? String.format(Locale.ROOT, "%.3f", v) : Fmt.count((long) v)))
            .append("</text>\n");
      }
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  static String esc(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '<':
          sb.append("&lt;");
          break;
        case '>':
          sb.append("&gt;");
          break;
        case '&':
          sb.append("&amp;");
          break;
        case '"':
          sb.append("&quot;");
          break;
        default:
          sb.append(ch);
      }
    }
    return sb.toString();
  }
}
