package io.wireadvisor.report;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.ClientGroup;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Regression;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Fmt;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.StatementTime;
import io.wireadvisor.advisor.Withheld;
import io.wireadvisor.profile.Histogram;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A self-contained HTML report: inline CSS and SVG charts, no scripts, no external assets;
 * readable at 1400 px and on a phone (charts scale with their viewBox, SQL and code wrap, wide
 * tables scroll inside their own box). Sections, in order: {@code summary} (the answer),
 * {@code charts}, {@code top-statements}, {@code changes} (copy-ready), {@code recommendations},
 * {@code withheld}, {@code details}; a comparison adds {@code diff} after the summary.
 */
final class HtmlReport {
  static final String BEFORE_COLOR = "#c0504d";
  static final String AFTER_COLOR = "#4f81bd";
  private static final Map<String, String> COMMAND_COLORS = new LinkedHashMap<>();

  static {
    COMMAND_COLORS.put("COM_QUERY", "#4f81bd");
    COMMAND_COLORS.put("probes", "#f2a93b");
    COMMAND_COLORS.put("COM_STMT_PREPARE", "#9bbb59");
    COMMAND_COLORS.put("COM_STMT_EXECUTE", "#2e7d32");
    COMMAND_COLORS.put("COM_STMT_CLOSE", "#8064a2");
    COMMAND_COLORS.put("COM_STMT_FETCH", "#4bacc6");
    COMMAND_COLORS.put("COM_PING", "#c0504d");
  }

  private static final String CSS =
      "*{box-sizing:border-box}"
          + "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1240px;margin:0 auto;"
          + "padding:1em;color:#222;line-height:1.4;overflow-wrap:anywhere}"
          + "h1{font-size:1.6em;margin:.2em 0}h2{margin-top:1.6em;border-bottom:1px solid #ddd}"
          + "pre,code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}"
          + "pre{background:#f4f4f4;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word}"
          + ".cards{display:flex;flex-wrap:wrap;gap:.8em}"
          + ".card{flex:1 1 200px;border:1px solid #ddd;border-radius:8px;padding:.6em .9em;background:#fafbfd}"
          + ".card .big{font-size:2em;font-weight:600}.card .label{color:#555;font-size:.9em}"
          + ".rec{border:1px solid #ccc;border-radius:6px;padding:0 1em 1em;margin:1em 0}"
          + ".HIGH{color:#b00}.MEDIUM{color:#b60}.LOW{color:#555}"
          + ".MET{background:#dff0d8}.NOT_MET{background:#f2dede}.UNKNOWN,.SERVER_SIDE,.NOT_MEASURABLE{background:#eee}"
          + ".table-wrap{overflow-x:auto;max-width:100%}"
          + "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:3px 8px;vertical-align:top;text-align:left}"
          + "td.num{text-align:right;white-space:nowrap}"
          // A wire pattern ("PREPARE/EXECUTE/CLOSE") on one line: the page's overflow-wrap:anywhere
          // let the long SQL beside it squeeze the column to a character or three (issue 24).
          + "td.pattern,th.pattern{white-space:nowrap;overflow-wrap:normal;word-break:normal}"
          + "td.sql{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere;word-break:break-word;min-width:16em}"
          + "svg.chart{display:block;width:100%;height:auto;max-width:900px;margin:.6em 0}"
          + ".legend span{display:inline-block;margin-right:1em;white-space:nowrap}"
          + ".legend i{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em}"
          + "@media (max-width:600px){body{padding:.5em}h1{font-size:1.3em}.card .big{font-size:1.5em}}";

  private HtmlReport() {}

  static String render(Analysis a, Comparison c) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
        .append("<title>wire-advisor report</title><style>").append(CSS).append("</style></head><body>\n");
    sb.append("<h1>wire-advisor report</h1>\n");
    summary(sb, a);
    if (c != null) {
      diff(sb, c);
    }
    charts(sb, a);
    topStatements(sb, a);
    errors(sb, a);
    changes(sb, a);
    recommendations(sb, a);
    withheld(sb, a);
    details(sb, a);
    sb.append("</body></html>\n");
    return sb.toString();
  }

  private static void summary(StringBuilder sb, Analysis a) {
    sb.append("<section id=\"summary\">\n");
    Outlook o = a.outlook();
    if (o == null) {
      sb.append("<p>No estimates in this analysis.</p></section>\n");
      return;
    }
    sb.append("<div class=\"cards\">");
    card(sb, Fmt.ratio(o.roundTripsPerStatementNow()), "wire round trips per business statement now");
    card(sb, Fmt.ratio(o.roundTripsPerStatementAfter()), "after the advice (estimated)");
    if (o.measuredSeconds() > 0) {
      card(sb, String.format(Locale.ROOT, "%.1f s", o.secondsSaved()),
          "estimated time saved of " + String.format(Locale.ROOT, "%.1f s", o.measuredSeconds())
              + " waited on the wire");
    } else {
      card(sb, "not timed", "the collector recorded no latencies: savings in round trips only");
    }
    card(sb, Fmt.count(o.businessStatements()), "business statements in " + Fmt.rate(o.windowSeconds()) + " s");
    sb.append("</div>\n");
    if (o.measuredSeconds() > 0 && o.cpuLine() != null) {
      sb.append("<p id=\"cpu-bound\">CPU-bound: ").append(esc(o.cpuLine())).append(".</p>\n");
    }
    if (o.measuredSeconds() > 0 && !o.notEstimated().isEmpty()) {
      sb.append("<p id=\"not-estimated\">Not counted in the estimated saving: ")
          .append(esc(String.join("; ", o.notEstimated()))).append(".</p>\n");
    }
    sb.append("<p>Server: <b>").append(esc(o.server() == null ? "unknown" : o.server()))
        .append("</b> (").append(o.serverKind()).append(")</p>\n");
    if (a.errorsOnFirstScreen()) {
      sb.append("<p id=\"errors-headline\"><b>Errors</b>: <a href=\"#errors\">")
          .append(esc(Reports.errorHeadline(a))).append("</a></p>\n");
    }
    if (a.isEmpty()) {
      sb.append("<p><b>Nothing to do</b>: no rule found a change to recommend.</p>\n");
    } else if (!a.groups().isEmpty()) {
      for (ClientGroup g : a.groups()) {
        sb.append("<h2>Top changes for ").append(esc(g.kind().label())).append("</h2>\n<ol>");
        int n = 0;
        for (Recommendation r : g.analysis().recommendations()) {
          if (n++ == 3) {
            break;
          }
          sb.append("<li><a href=\"#").append(esc(anchor(g, r))).append("\">")
              .append(esc(r.title())).append("</a> <span class=\"").append(r.severity())
              .append("\">").append(r.severity()).append("</span>");
          if (r.saving() != null) {
            sb.append(" &mdash; ").append(esc(Reports.saving(r.saving())));
          }
          sb.append("</li>");
        }
        sb.append("</ol>\n");
      }
    } else {
      sb.append("<h2>Top changes</h2>\n<ol id=\"top-changes\">");
      int n = 0;
      for (Recommendation r : a.recommendations()) {
        if (n++ == 3) {
          break;
        }
        sb.append("<li><a href=\"#").append(esc(r.id())).append("\">").append(esc(r.title()))
            .append("</a> <span class=\"").append(r.severity()).append("\">").append(r.severity())
            .append("</span>");
        if (r.saving() != null) {
          sb.append(" &mdash; ").append(esc(Reports.saving(r.saving())));
        }
        sb.append("</li>");
      }
      sb.append("</ol>\n");
    }
    sb.append("</section>\n");
  }

  private static void card(StringBuilder sb, String big, String label) {
    sb.append("<div class=\"card\"><div class=\"big\">").append(esc(big)).append("</div><div class=\"label\">")
        .append(esc(label)).append("</div></div>");
  }

  private static void diff(StringBuilder sb, Comparison c) {
    ProfileSummary before = c.before().profile();
    ProfileSummary after = c.after();
    sb.append("<section id=\"diff\"><h2>Before / after</h2>\n");
    Set<String> all = new LinkedHashSet<>(before.commands().keySet());
    all.addAll(after.commands().keySet());
    Map<String, Double> b = perStatement(before.commands(), before.statements());
    Map<String, Double> f = perStatement(after.commands(), after.statements());
    sb.append(stacked("before-after", new String[] {"before", "after"}, new List[] {toList(b), toList(f)},
        new ArrayList<>(all)));
    sb.append("<div class=\"table-wrap\"><table><tr><th>rule</th><th>expectation</th><th>after</th><th>status</th></tr>\n");
    for (Comparison.Item i : c.items()) {
      Expectation.Outcome o = i.outcome();
      sb.append("<tr class=\"").append(o.status()).append("\"><td>").append(esc(i.recommendation().id()))
          .append("</td><td>").append(esc(o.expectation().description())).append("</td><td class=\"num\">")
          .append(esc(Metric.format(o.after()))).append("</td><td>").append(o.status()).append("</td></tr>\n");
    }
    sb.append("</table></div>\n");
    for (Regression r : c.regressions()) {
      sb.append("<p class=\"NOT_MET\"><b>Regressed:</b> ").append(esc(r.message())).append("</p>\n<ul>");
      for (String d : r.details()) {
        sb.append("<li>").append(esc(d)).append("</li>");
      }
      sb.append("</ul>\n");
    }
    for (Comparison.ClientDiff d : c.clients()) {
      sb.append("<p><b>Client ").append(esc(d.label())).append(":</b> ")
          .append(d.comparison() == null
              ? "in the " + d.onlyIn() + " profile only: nothing of it to compare with."
              : d.comparison().passed() ? "passed." : "<b>not passed</b>.")
          .append("</p>\n");
    }
    sb.append("<p>").append(c.allMet()
        ? "Every measurable expectation is met." : "<b>Some expectations are not met.</b>")
        .append(c.regressions().isEmpty() ? "" : " <b>The whole regressed.</b>").append("</p></section>\n");
  }

  private static List<Map.Entry<String, Double>> toList(Map<String, Double> m) {
    return new ArrayList<>(m.entrySet());
  }

  private static Map<String, Double> perStatement(Map<String, Long> counts, long statements) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      m.put(e.getKey(), statements == 0 ? 0 : (double) e.getValue() / statements);
    }
    return m;
  }

  private static void charts(StringBuilder sb, Analysis a) {
    Outlook o = a.outlook();
    sb.append("<section id=\"charts\"><h2>Wire commands per business statement</h2>\n");
    if (o != null) {
      Set<String> types = new LinkedHashSet<>(o.commandsNow().keySet());
      types.addAll(o.commandsAfter().keySet());
      Map<String, Double> now = per(o.commandsNow(), o.businessStatements());
      Map<String, Double> after = per(o.commandsAfter(), o.businessStatements());
      sb.append("<p>Each bar is one business statement's round trips, by command; session-variable")
          .append(" probes are split out of COM_QUERY.</p>\n");
      sb.append(stacked("per-statement", new String[] {"now", "after (est.)"},
          new List[] {toList(now), toList(after)}, new ArrayList<>(types)));
    }
    if (!a.commandLatency().isEmpty()) {
      sb.append("<h2>Latency per command</h2>\n");
      sb.append(latencyChart(a.commandLatency()));
    }
    sb.append("</section>\n");
  }

  private static Map<String, Double> per(Map<String, Long> counts, long statements) {
    return perStatement(counts, statements);
  }

  private static void topStatements(StringBuilder sb, Analysis a) {
    boolean timed = a.outlook() != null && a.outlook().measuredSeconds() > 0;
    sb.append("<section id=\"top-statements\"><h2>Top statements by ")
        .append(timed ? "time" : "wire commands (no latencies recorded)").append("</h2>\n");
    if (a.topStatements().isEmpty()) {
      sb.append("<p>No statements recorded.</p></section>\n");
      return;
    }
    List<String> labels = new ArrayList<>();
    double[] values = new double[Math.min(10, a.topStatements().size())];
    for (int i = 0; i < values.length; i++) {
      labels.add("#" + (i + 1));
      StatementTime t = a.topStatements().get(i);
      values[i] = timed ? t.seconds() : wireCommands(t);
    }
    sb.append(barChart("top-statements-chart", labels,
        new String[] {timed ? "seconds waited" : "wire commands"},
        new double[][] {values}, new String[] {AFTER_COLOR}, timed ? "%.2f s" : "%,.0f"));
    if (a.serverWindows() != null) {
      sb.append("<p class=\"note\" id=\"server-windows\"><b>Note</b>: ").append(esc(a.serverWindows()))
          .append("</p>\n");
    }
    sb.append("<div class=\"table-wrap\"><table><tr><th>#</th><th>share</th><th>time</th><th>executions</th>")
        .append("<th class=\"pattern\">wire pattern</th><th>")
        .append(Reports.sqlLimits(a) ? "length / limit" : "length").append("</th><th>statement</th></tr>\n");
    int i = 1;
    for (StatementTime t : a.topStatements()) {
      sb.append("<tr><td class=\"num\">").append(i++).append("</td><td class=\"num\">")
          .append(esc(Fmt.percent(t.share()))).append("</td><td class=\"num\">")
          .append(String.format(Locale.ROOT, "%.2f s", t.seconds())).append("</td><td class=\"num\">")
          .append(esc(Fmt.count(t.executions()))).append("</td><td class=\"pattern\">").append(esc(Reports.pattern(t)))
          .append("</td><td class=\"num\">").append(t.maxSqlLength())
          .append(t.hasSqlLimit() ? " / " + t.sqlLimit() : "")
          .append(t.aboveSqlLimit() ? " <b>never cached</b>" : "").append("</td><td class=\"sql\">")
          .append(esc(t.text()));
      if (t.tidbDigest() != null) {
        sb.append("<br><small>TiDB digest ").append(esc(t.tidbDigest())).append("</small>");
      }
      if (t.server() != null) {
        sb.append("<br><small>TiDB: ").append(esc(Reports.serverSide(t.server()))).append("</small>");
      }
      sb.append("</td></tr>\n");
    }
    sb.append("</table></div></section>\n");
  }

  private static void errors(StringBuilder sb, Analysis a) {
    if (a.errors().isEmpty()) {
      return;
    }
    sb.append("<section id=\"errors\"><h2>Errors by statement and code</h2>\n")
        .append("<div class=\"table-wrap\"><table><tr><th>ERR replies</th><th>of executions</th>")
        .append("<th>code</th><th>time waited</th><th>statement</th></tr>\n");
    for (io.wireadvisor.advisor.ErrorLine e : a.errors()) {
      sb.append("<tr><td class=\"num\">").append(esc(Fmt.count(e.count()))).append("</td><td class=\"num\">")
          .append(esc(Fmt.count(e.executions()))).append("</td><td class=\"num\">").append(esc(e.codeText()))
          .append("</td><td class=\"num\">").append(esc(Reports.errorTime(e))).append("</td><td class=\"sql\">")
          .append(esc(e.text()))
          .append(e.sessionState() ? "<br><small>session state, sent by the driver or framework</small>" : "")
          .append("</td></tr>\n");
    }
    sb.append("</table></div></section>\n");
  }

  private static double wireCommands(StatementTime t) {
    long n = 0;
    for (long v : t.commands().values()) {
      n += v;
    }
    return n;
  }

  /** One block per client: "For <client>" and its lines. */
  private static void clients(StringBuilder sb, Map<String, List<String>> clients) {
    for (Map.Entry<String, List<String>> e : clients.entrySet()) {
      sb.append("<p class=\"client\">For ").append(esc(e.getKey())).append("</p><ul>");
      for (String line : e.getValue()) {
        sb.append("<li>").append(esc(line)).append("</li>");
      }
      sb.append("</ul>\n");
    }
  }

  private static void changes(StringBuilder sb, Analysis a) {
    if (!a.groups().isEmpty()) {
      sb.append("<section id=\"changes\"><h2>All changes together, by client</h2>\n");
      for (ClientGroup g : a.groups()) {
        sb.append("<h3>").append(esc(g.label())).append("</h3>\n");
        changeBlocks(sb, CopyReady.of(g.analysis()));
      }
      sb.append("</section>\n");
      return;
    }
    CopyReady c = CopyReady.of(a);
    sb.append("<section id=\"changes\"><h2>All changes together</h2>\n");
    if (c.isEmpty()) {
      sb.append("<p>None.</p></section>\n");
      return;
    }
    changeBlocks(sb, c);
    sb.append("</section>\n");
  }

  private static void changeBlocks(StringBuilder sb, CopyReady c) {
    if (c.isEmpty()) {
      sb.append("<p>None.</p>\n");
      return;
    }
    clients(sb, c.clients);
    block(sb, "JDBC URL", c.urls);
    block(sb, "HikariCP (properties file or HikariConfig)", c.hikari);
    block(sb, "Hibernate (hibernate.properties or persistence.xml)", c.hibernate);
    block(sb, "Spring Boot (application.properties)", c.spring);
    block(sb, "SQL for the DBA (run once, as an administrator)", c.sql);
    for (String n : c.notes) {
      sb.append("<p>Note: ").append(esc(n)).append("</p>\n");
    }
  }

  private static void block(StringBuilder sb, String title, List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    sb.append("<h3>").append(esc(title)).append("</h3><pre>");
    for (String l : lines) {
      sb.append(esc(l)).append('\n');
    }
    sb.append("</pre>\n");
  }

  private static void recommendations(StringBuilder sb, Analysis a) {
    if (!a.groups().isEmpty()) {
      sb.append("<section id=\"recommendations\"><h2>Recommendations by client, most time saved"
          + " first</h2>\n");
      for (ClientGroup g : a.groups()) {
        sb.append("<div class=\"client\"><h3>Client: ").append(esc(Reports.groupLine(g)))
            .append("</h3>\n");
        if (g.analysis().isEmpty()) {
          sb.append("<p>Nothing to do for this client.</p>\n");
        }
        recommendationList(sb, g.analysis().recommendations(), g);
        sb.append("</div>\n");
      }
      sb.append("</section>\n");
      return;
    }
    sb.append("<section id=\"recommendations\"><h2>Recommendations, most time saved first</h2>\n");
    if (a.isEmpty()) {
      sb.append("<p><b>Nothing to do</b>: no rule found a change to recommend.</p>\n");
    }
    recommendationList(sb, a.recommendations(), null);
    sb.append("</section>\n");
  }

  /** A recommendation's element id: its rule id, after its client's kind in a grouped report. */
  private static String anchor(ClientGroup g, Recommendation r) {
    return g == null ? r.id() : g.kind().name().toLowerCase(java.util.Locale.ROOT) + "-" + r.id();
  }

  private static void recommendationList(
      StringBuilder sb, List<Recommendation> recommendations, ClientGroup g) {
    for (Recommendation r : recommendations) {
      sb.append("<div class=\"rec\" id=\"").append(esc(anchor(g, r))).append("\"><h3>")
          .append(esc(r.title())).append("</h3><p><code>").append(esc(r.id()))
          .append("</code> &middot; <span class=\"").append(r.severity()).append("\">")
          .append(r.severity()).append("</span></p>\n");
      if (r.saving() != null) {
        sb.append("<p><b>Saving:</b> ").append(esc(Reports.saving(r.saving()))).append(" <small>(")
            .append(esc(r.saving().assumption())).append(")</small></p>\n");
      }
      sb.append("<h4>Evidence</h4><pre>");
      for (String e : r.evidence()) {
        sb.append(esc(e)).append('\n');
      }
      sb.append("</pre>\n<h4>Change</h4>\n");
      Change ch = r.change();
      clients(sb, ch.clients());
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
      if (!ch.hibernateProperties().isEmpty()) {
        sb.append("<p>Hibernate properties</p><pre>");
        for (Map.Entry<String, String> e : ch.hibernateProperties().entrySet()) {
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
  }

  private static void withheld(StringBuilder sb, Analysis a) {
    sb.append("<section id=\"withheld\"><h2>Withheld</h2>\n");
    if (a.withheld().isEmpty()) {
      sb.append("<p>Nothing withheld: every rule had the traffic it needs.</p>");
    } else {
      sb.append("<ul>");
      for (Withheld w : a.withheld()) {
        sb.append("<li>").append(esc(w.message())).append("</li>");
      }
      sb.append("</ul>");
    }
    sb.append("</section>\n");
  }

  private static void details(StringBuilder sb, Analysis a) {
    ProfileSummary p = a.profile();
    sb.append("<section id=\"details\"><h2>Profile</h2>\n<p>").append(esc(Fmt.count(p.statements())))
        .append(" statements in ").append(esc(Fmt.rate(p.windowSeconds()))).append(" s (")
        .append(esc(Fmt.rate(p.statementsPerSecond()))).append("/s), ")
        .append(esc(Fmt.count(p.wireCommands()))).append(" wire commands (")
        .append(esc(Fmt.ratio(p.wireCommands() == 0 ? Double.NaN : (double) p.wireCommands() / Math.max(1, p.statements()))))
        .append(" per statement), ").append(p.shapes()).append(" shapes, ").append(esc(Fmt.count(p.probes())))
        .append(" probes, ").append(esc(Fmt.count(p.connections()))).append(" connections.</p>\n<ul>");
    for (String s : p.sources()) {
      sb.append("<li>").append(esc(s)).append("</li>");
    }
    sb.append("</ul></section>\n");
  }

  /**
   * One stacked horizontal bar per series (now / after), segments by command type, scaled to the
   * longest bar; values are per business statement.
   */
  static String stacked(String id, String[] series, List<Map.Entry<String, Double>>[] values, List<String> types) {
    int labelWidth = 110;
    int barArea = 620;
    int rowHeight = 34;
    int height = 20 + rowHeight * series.length + 8;
    double max = 0;
    for (List<Map.Entry<String, Double>> s : values) {
      double sum = 0;
      for (Map.Entry<String, Double> e : s) {
        sum += e.getValue();
      }
      max = Math.max(max, sum);
    }
    StringBuilder sb = new StringBuilder();
    sb.append("<svg class=\"chart\" id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        .append(labelWidth + barArea + 70).append(' ').append(height).append("\" role=\"img\">\n");
    for (int s = 0; s < series.length; s++) {
      int y = 10 + s * rowHeight;
      sb.append("<text x=\"").append(labelWidth - 6).append("\" y=\"").append(y + 18)
          .append("\" font-size=\"13\" text-anchor=\"end\">").append(esc(series[s])).append("</text>\n");
      double x = labelWidth;
      double total = 0;
      for (String t : types) {
        Double v = find(values[s], t);
        if (v == null || v <= 0) {
          continue;
        }
        total += v;
        double w = max <= 0 ? 0 : v / max * barArea;
        sb.append("<rect class=\"bar\" x=\"").append(fmt(x)).append("\" y=\"").append(y).append("\" width=\"")
            .append(fmt(Math.max(1, w))).append("\" height=\"24\" fill=\"").append(color(t)).append("\"><title>")
            .append(esc(t)).append(' ').append(String.format(Locale.ROOT, "%.3f", v)).append("</title></rect>\n");
        x += w;
      }
      sb.append("<text x=\"").append(fmt(x + 4)).append("\" y=\"").append(y + 17).append("\" font-size=\"12\">")
          .append(String.format(Locale.ROOT, "%.2f", total)).append("</text>\n");
    }
    sb.append("</svg>\n<p class=\"legend\">");
    for (String t : types) {
      sb.append("<span><i style=\"background:").append(color(t)).append("\"></i>").append(esc(t)).append("</span> ");
    }
    sb.append("</p>\n");
    return sb.toString();
  }

  private static Double find(List<Map.Entry<String, Double>> values, String key) {
    for (Map.Entry<String, Double> e : values) {
      if (e.getKey().equals(key)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String color(String type) {
    String c = COMMAND_COLORS.get(type);
    if (c != null) {
      return c;
    }
    int h = Math.abs(type.hashCode()) % 360;
    return "hsl(" + h + ",45%,55%)";
  }

  /** p50, p95 and p99 per command type, in milliseconds. */
  private static String latencyChart(Map<String, Histogram> latency) {
    List<String> labels = new ArrayList<>(latency.keySet());
    double[][] v = new double[3][labels.size()];
    for (int i = 0; i < labels.size(); i++) {
      Histogram h = latency.get(labels.get(i));
      v[0][i] = h.quantile(0.5) / 1e6;
      v[1][i] = h.quantile(0.95) / 1e6;
      v[2][i] = h.quantile(0.99) / 1e6;
    }
    return barChart("latency", labels, new String[] {"p50", "p95", "p99"}, v,
        new String[] {"#9bbb59", "#f2a93b", "#c0504d"}, "%.3f ms");
  }

  /** A horizontal bar chart: one row per label, one bar per series; scales with its viewBox. */
  static String barChart(String id, List<String> labels, String[] series, double[][] values,
      String[] colors, String valueFormat) {
    int labelWidth = 170;
    int barArea = 560;
    int barHeight = 14;
    int rowHeight = barHeight * series.length + 8;
    int height = 30 + rowHeight * Math.max(1, labels.size());
    double max = 0;
    for (double[] s : values) {
      for (double x : s) {
        max = Math.max(max, x);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("<svg class=\"chart\" id=\"").append(id).append("\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        .append(labelWidth + barArea + 110).append(' ').append(height).append("\" role=\"img\">\n");
    for (int s = 0; s < series.length; s++) {
      sb.append("<rect x=\"").append(labelWidth + s * 110).append("\" y=\"4\" width=\"12\" height=\"12\" fill=\"")
          .append(colors[s]).append("\"/><text x=\"").append(labelWidth + s * 110 + 16)
          .append("\" y=\"15\" font-size=\"12\">").append(esc(series[s])).append("</text>\n");
    }
    for (int i = 0; i < labels.size(); i++) {
      int y = 26 + i * rowHeight;
      sb.append("<text x=\"").append(labelWidth - 6).append("\" y=\"").append(y + rowHeight / 2 + 2)
          .append("\" font-size=\"12\" text-anchor=\"end\">").append(esc(labels.get(i))).append("</text>\n");
      for (int s = 0; s < series.length; s++) {
        double x = values[s][i];
        int w = max <= 0 ? 0 : (int) Math.round(x / max * barArea);
        int by = y + s * barHeight;
        sb.append("<rect class=\"bar\" x=\"").append(labelWidth).append("\" y=\"").append(by)
            .append("\" width=\"").append(Math.max(w, x > 0 ? 1 : 0)).append("\" height=\"")
            .append(barHeight - 2).append("\" fill=\"").append(colors[s]).append("\"/>")
            .append("<text x=\"").append(labelWidth + w + 4).append("\" y=\"").append(by + barHeight - 4)
            .append("\" font-size=\"11\">").append(esc(String.format(Locale.ROOT, valueFormat, x)))
            .append("</text>\n");
      }
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
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
        case '\'':
          sb.append("&#39;");
          break;
        default:
          // Control characters (but tab and newline) have no place in a page: shown as U+FFFD.
          sb.append(ch < 0x20 && ch != '\t' && ch != '\n' ? '\ufffd' : ch);
      }
    }
    return sb.toString();
  }
}
