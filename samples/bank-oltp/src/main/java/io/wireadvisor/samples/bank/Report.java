package io.wireadvisor.samples.bank;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.wireadvisor.samples.bank.Scenarios.Headline;
import io.wireadvisor.samples.bank.Scenarios.Study;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.DatabaseServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison of measured scenarios with the study: a terminal table, Markdown, JSON and a
 * self-contained HTML page with inline-SVG charts.
 */
public final class Report {
  private static final String[] WIRE = {
    Commands.COM_QUERY, Commands.COM_STMT_PREPARE, Commands.COM_STMT_EXECUTE, Commands.COM_STMT_CLOSE
  };

  private final String server;
  private final Workload.Settings settings;
  private final Study study;
  /** Each scenario's representative window (its median one when it ran more than once). */
  private final List<ScenarioOutcome> outcomes;
  private final Map<ScenarioOutcome, ScenarioRuns> runs = new java.util.IdentityHashMap<>();
  private final String generatedAt = Instant.now().toString();

  public Report(DatabaseServer db, Workload.Settings settings, Study study, List<ScenarioOutcome> outcomes) {
    this(db.kind() + " " + db.version() + " (" + db.source() + ")", settings, study, outcomes);
  }

  Report(String server, Workload.Settings settings, Study study, List<ScenarioOutcome> outcomes) {
    this(server, settings, study, outcomes.stream().map(o -> new ScenarioRuns(List.of(o))).toList(), true);
  }

  /** Scenarios measured in several interleaved windows each ({@code scenarios --repeat N}). */
  public static Report ofRuns(DatabaseServer db, Workload.Settings settings, Study study, List<ScenarioRuns> runs) {
    return new Report(db.kind() + " " + db.version() + " (" + db.source() + ")", settings, study, runs, true);
  }

  private Report(String server, Workload.Settings settings, Study study, List<ScenarioRuns> runs, boolean unused) {
    this.server = server;
    this.settings = settings;
    this.study = study;
    List<ScenarioOutcome> representatives = new ArrayList<>();
    for (ScenarioRuns r : runs) {
      representatives.add(r.representative());
      this.runs.put(r.representative(), r);
    }
    this.outcomes = List.copyOf(representatives);
  }

  /** How many windows each scenario ran. */
  private int repeats() {
    return runs.values().stream().mapToInt(r -> r.runs().size()).max().orElse(1);
  }

  /** Median business statements/s over the scenario's windows. */
  private double statementsPerSecond(ScenarioOutcome o) {
    ScenarioRuns r = runs.get(o);
    return r == null ? o.statementsPerSecond() : r.medianStatementsPerSecond();
  }

  private Double spread(ScenarioOutcome o) {
    ScenarioRuns r = runs.get(o);
    return r == null ? null : r.spread();
  }

  private String spreadCell(ScenarioOutcome o) {
    Double s = spread(o);
    return s == null ? "N/A" : String.format(Locale.ROOT, "%.0f%%", 100 * s);
  }

  // ---- figures shared by every format ------------------------------------------------------

  /** One row of the comparison table: formatted cells, "N/A" where the server cannot tell. */
  List<String> header() {
    return List.of("#", "scenario", "stmt/s", "spread", "tx/s", "server QPS", "avg µs", "TiDB exec µs", "protocol share", "p95 µs", "p99 µs",
        "QUERY/stmt", "PREPARE/stmt", "EXECUTE/stmt", "CLOSE/stmt", "probes/stmt", "SET/stmt",
        "agent probe reads/stmt", "agent SETs/stmt", "agent = server", "plan cache hits", "errors", "study QPS", "study avg µs");
  }

  List<List<String>> rows() {
    List<List<String>> rows = new ArrayList<>();
    for (ScenarioOutcome o : outcomes) {
      List<String> r = new ArrayList<>();
      r.add(String.valueOf(o.scenario().id()));
      r.add(o.scenario().name());
      if (!o.ok()) {
        r.add("FAILED: " + o.failure());
        while (r.size() < header().size() - 2) {
          r.add("");
        }
      } else {
        r.add(f0(statementsPerSecond(o)));
        r.add(spreadCell(o));
        r.add(f0(o.transactionsPerSecond()));
        r.add(o.serverQps() == null ? "N/A" : f0(o.serverQps()));
        r.add(f0(o.avgMicros()));
        r.add(o.serverExecMicros() == null ? "N/A" : f0(o.serverExecMicros()));
        r.add(o.protocolShare() == null ? "N/A" : String.format(Locale.ROOT, "%.0f%%", 100 * o.protocolShare()));
        r.add(f0(o.p95Micros()));
        r.add(f0(o.p99Micros()));
        for (String c : WIRE) {
          r.add(o.wire().containsKey(c) ? f2(o.perStatement(c)) + (o.exactCommands().contains(c) ? "" : "~") : "N/A");
        }
        r.add(o.probesPerStatement() == null ? "N/A" : f2(o.probesPerStatement()));
        r.add(o.setsPerStatement() == null ? "N/A" : f2(o.setsPerStatement()));
        r.add(o.agentProbeReadsPerStatement() == null ? "N/A" : f2(o.agentProbeReadsPerStatement()));
        r.add(o.agentSessionSetsPerStatement() == null ? "N/A" : f2(o.agentSessionSetsPerStatement()));
        r.add(!o.wireCrossChecked() ? "N/A" : o.wireMismatches().isEmpty() ? "yes" : "NO");
        r.add(o.planCacheHitRatio() == null ? "N/A" : String.format(Locale.ROOT, "%.0f%%", 100 * o.planCacheHitRatio()));
        r.add(String.valueOf(o.result().errors()));
      }
      r.add(f0(o.scenario().published().qps()));
      r.add(f0(o.scenario().published().avgQueryMicros()));
      rows.add(r);
    }
    return rows;
  }

  /** Measured vs published ratios: each scenario against the previous one, then the headlines. */
  List<List<String>> ratios() {
    List<List<String>> rows = new ArrayList<>();
    for (int i = 1; i < outcomes.size(); i++) {
      ScenarioOutcome a = outcomes.get(i - 1);
      ScenarioOutcome b = outcomes.get(i);
      rows.add(ratio("S" + b.scenario().id() + " vs S" + a.scenario().id(), a, b));
    }
    for (Headline h : study.headlines()) {
      ScenarioOutcome a = find(h.baseline());
      ScenarioOutcome b = find(h.scenario());
      if (a != null && b != null) {
        List<String> r = ratio(h.name() + " (headline)", a, b);
        r.set(1, pct(h.publishedChange()));
        rows.add(r);
      }
    }
    return rows;
  }

  List<String> ratioHeader() {
    return List.of("comparison", "study QPS", "measured server QPS", "measured stmt/s", "measured avg latency");
  }

  private List<String> ratio(String name, ScenarioOutcome a, ScenarioOutcome b) {
    List<String> r = new ArrayList<>();
    r.add(name);
    r.add(pct(b.scenario().published().qps() / a.scenario().published().qps() - 1));
    if (a.ok() && b.ok()) {
      r.add(a.serverQps() == null || b.serverQps() == null ? "N/A" : pct(b.serverQps() / a.serverQps() - 1));
      double change = statementsPerSecond(b) / statementsPerSecond(a) - 1;
      Double sa = spread(a);
      Double sb = spread(b);
      // A difference the windows of either scenario disagree by more than is not a measurement.
      boolean noise = sa != null && sb != null && Math.abs(change) < Math.max(sa, sb);
      r.add(pct(change) + (noise ? " (noise)" : ""));
      r.add(pct(b.avgMicros() / a.avgMicros() - 1));
    } else {
      r.add("N/A");
      r.add("N/A");
      r.add("N/A");
    }
    return r;
  }

  private ScenarioOutcome find(int id) {
    for (ScenarioOutcome o : outcomes) {
      if (o.scenario().id() == id) {
        return o;
      }
    }
    return null;
  }

  private String settingsLine() {
    return String.format(Locale.ROOT,
        "%s; scale %s, %d threads, %d s warm-up + %d s measured per scenario%s, seed %d",
        server, trim(settings.scale()), settings.threads(), settings.warmup().toSeconds(),
        settings.measure().toSeconds(),
        repeats() > 1 ? ", " + repeats() + " interleaved windows each (medians)" : "", settings.seed());
  }

  private List<String> notes() {
    // The same note for several scenarios is printed once, naming them: "S1, S2, S3: ...".
    Map<String, List<String>> byText = new LinkedHashMap<>();
    for (ScenarioOutcome o : outcomes) {
      for (String s : o.notes()) {
        byText.computeIfAbsent(s, k -> new ArrayList<>()).add("S" + o.scenario().id());
      }
      if (o.ok() && !o.wireMismatches().isEmpty()) {
        byText.computeIfAbsent("agent and server counts differ: " + String.join("; ", o.wireMismatches()), k -> new ArrayList<>())
            .add("S" + o.scenario().id());
      }
      if (o.ok() && !o.result().errorSamples().isEmpty()) {
        byText.computeIfAbsent("errors, e.g.: " + o.result().errorSamples().get(0), k -> new ArrayList<>())
            .add("S" + o.scenario().id());
      }
    }
    List<String> n = new ArrayList<>();
    byText.forEach((text, ids) -> n.add(String.join(", ", ids) + ": " + text));
    String source = outcomes.isEmpty() ? "" : outcomes.get(0).wireSource();
    n.add("Wire commands per business statement from " + source + "; ~ marks approximate counts, N/A what the server does not count.");
    n.add("probes/stmt: SELECTs the server executed that the application did not send (SELECT @@session...), per business statement.");
    String agentSource = outcomes.stream().filter(o -> o.agent() != null).map(o -> "the wire-advisor agent").findFirst().orElse(null);
    if (agentSource == null) {
      n.add("agent columns N/A: run without the wire-advisor agent (it was not found or --no-agent).");
    } else {
      n.add("agent probe reads/stmt, agent SETs/stmt: session-state reads (SELECT @@session...) and session SETs (autocommit, ...) "
          + "the agent saw, per business statement; agent = server: the agent's "
          + "per-command counts equal the server's exact counters over the same window (N/A where the server counts nothing exactly).");
    }
    n.add("Latencies are per business statement as the application sees it (prepare + execute + read + close); "
        + "TiDB exec µs is TiDB's own time per executed statement (STATEMENTS_SUMMARY SUM_LATENCY / EXEC_COUNT), "
        + "protocol share the rest of the application's latency: round trips, driver, extra commands.");
    if (repeats() > 1) {
      n.add("stmt/s is the median of " + repeats() + " interleaved windows, spread (max - min) / median; "
          + "other columns are the median window's. A measured change smaller than either scenario's spread is marked (noise).");
    }
    return n;
  }

  // ---- terminal and Markdown ----------------------------------------------------------------

  public String terminal() {
    StringBuilder sb = new StringBuilder();
    sb.append("Seven scenarios of TiDB's OLTP tuning study, replayed\n").append(settingsLine()).append("\n\n");
    sb.append(table(header(), rows(), 2));
    sb.append('\n');
    sb.append(table(ratioHeader(), ratios(), 1));
    sb.append('\n');
    for (String n : notes()) {
      sb.append("* ").append(n).append('\n');
    }
    return sb.toString();
  }

  /** A plain-text table; the first {@code leftColumns} columns are names, the rest numbers. */
  static String table(List<String> header, List<List<String>> rows, int leftColumns) {
    int[] w = new int[header.size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = header.get(i).length();
      for (List<String> r : rows) {
        w[i] = Math.max(w[i], r.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, header, w, leftColumns);
    StringBuilder rule = new StringBuilder();
    for (int x : w) {
      rule.append("-".repeat(x)).append("  ");
    }
    sb.append(rule.toString().stripTrailing()).append('\n');
    for (List<String> r : rows) {
      line(sb, r, w, leftColumns);
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells, int[] w, int leftColumns) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      l.append(pad(c, w[i], i >= leftColumns)).append("  ");
    }
    sb.append(l.toString().stripTrailing()).append('\n');
  }

  private static String pad(String s, int w, boolean right) {
    String sp = " ".repeat(Math.max(0, w - s.length()));
    return right ? sp + s : s + sp;
  }

  public String markdown() {
    StringBuilder sb = new StringBuilder("# bank-oltp: the seven scenarios, measured\n\n");
    sb.append(settingsLine()).append(". Generated ").append(generatedAt).append(".\n\n");
    sb.append("Study: [").append(study.title()).append("](").append(study.url()).append(")\n\n");
    mdTable(sb, header(), rows());
    sb.append("\n## Measured vs published changes\n\n");
    mdTable(sb, ratioHeader(), ratios());
    sb.append("\n## Notes\n\n");
    for (String n : notes()) {
      sb.append("- ").append(n).append('\n');
    }
    sb.append("\n## Scenarios\n\n");
    for (ScenarioOutcome o : outcomes) {
      sb.append("- **S").append(o.scenario().id()).append("** ").append(o.scenario().change())
          .append(": `").append(o.scenario().jdbcProperties()).append('`');
      if (!o.scenario().tidbGlobals().isEmpty()) {
        sb.append("; TiDB ").append(o.scenario().tidbGlobals());
      }
      if (o.scenario().cacheReferenceTables()) {
        sb.append("; reference tables cached");
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  static void mdTable(StringBuilder sb, List<String> header, List<List<String>> rows) {
    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
    for (int i = 0; i < header.size(); i++) {
      sb.append(i <= 1 ? "---|" : "---:|");
    }
    sb.append('\n');
    for (List<String> r : rows) {
      sb.append("| ").append(String.join(" | ", r).replace("\n", " ")).append(" |\n");
    }
  }

  // ---- JSON ---------------------------------------------------------------------------------

  Map<String, Object> json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("generatedAt", generatedAt);
    root.put("server", server);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scale", settings.scale());
    s.put("threads", settings.threads());
    s.put("warmupSeconds", settings.warmup().toSeconds());
    s.put("measureSeconds", settings.measure().toSeconds());
    s.put("seed", settings.seed());
    root.put("settings", s);
    root.put("study", study);
    List<Object> list = new ArrayList<>();
    for (ScenarioOutcome o : outcomes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", o.scenario().id());
      m.put("name", o.scenario().name());
      m.put("change", o.scenario().change());
      m.put("jdbcProperties", o.scenario().jdbcProperties());
      m.put("tidbGlobals", o.scenario().tidbGlobals());
      m.put("cacheReferenceTables", o.scenario().cacheReferenceTables());
      m.put("published", o.scenario().published());
      m.put("notes", o.notes());
      if (!o.ok()) {
        m.put("failure", o.failure());
      } else {
        Workload.Result r = o.result();
        Map<String, Object> me = new LinkedHashMap<>();
        me.put("seconds", r.seconds());
        me.put("transactions", r.transactions());
        me.put("statements", r.statements());
        me.put("selects", r.selects());
        me.put("writes", r.writes());
        me.put("statementsAtLeast256Chars", r.statementsAtLeast256());
        me.put("errors", r.errors());
        me.put("errorSamples", r.errorSamples());
        me.put("statementsPerSecond", statementsPerSecond(o));
        me.put("windows", runs.get(o) == null ? 1 : runs.get(o).runs().size());
        me.put("statementsPerSecondSpread", spread(o));
        if (runs.get(o) != null && runs.get(o).runs().size() > 1) {
          me.put("statementsPerSecondByWindow",
              runs.get(o).runs().stream().map(w -> w.ok() ? w.statementsPerSecond() : null).toList());
        }
        me.put("transactionsPerSecond", o.transactionsPerSecond());
        me.put("serverQps", o.serverQps());
        me.put("latencyMicros", Map.of("avg", o.avgMicros(), "p95", o.p95Micros(), "p99", o.p99Micros()));
        me.put("serverExecMicrosAvg", o.serverExecMicros());
        me.put("protocolShare", o.protocolShare());
        me.put("transactionLatencyMicrosAvg", r.transactionLatencyNanos().mean() / 1000.0);
        me.put("wireSource", o.wireSource());
        me.put("wireCommands", o.wire());
        me.put("exactCommands", new java.util.TreeSet<>(o.exactCommands()));
        Map<String, Object> per = new LinkedHashMap<>();
        for (String c : o.wire().keySet()) {
          per.put(c, o.perStatement(c));
        }
        me.put("wireCommandsPerStatement", per);
        me.put("probesPerStatement", o.probesPerStatement());
        me.put("setsPerStatement", o.setsPerStatement());
        me.put("planCacheHitRatio", o.planCacheHitRatio());
        me.put("tableCacheReads", o.tableCacheReads());
        me.put("transactionsByType", r.transactionsByType());
        if (o.agent() != null) {
          Map<String, Object> ag = new LinkedHashMap<>();
          ag.put("wireCommands", o.agentWire());
          Map<String, Object> aper = new LinkedHashMap<>();
          for (String c : o.agentWire().keySet()) {
            aper.put(c, o.agentPerStatement(c));
          }
          ag.put("wireCommandsPerStatement", aper);
          ag.put("probes", o.agent().totalProbes());
          ag.put("probesPerStatement", o.agentProbesPerStatement());
          ag.put("probeReadsPerStatement", o.agentProbeReadsPerStatement());
          ag.put("sessionSetsPerStatement", o.agentSessionSetsPerStatement());
          Map<String, Object> kinds = new LinkedHashMap<>();
          o.agent().probes().forEach((k, v) -> kinds.put(k.name(), v.count()));
          ag.put("probesByKind", kinds);
          ag.put("crossChecked", o.wireCrossChecked());
          ag.put("mismatches", o.wireMismatches());
          me.put("agent", ag);
        }
        m.put("measured", me);
      }
      list.add(m);
    }
    root.put("scenarios", list);
    List<Object> ratios = new ArrayList<>();
    for (List<String> r : ratios()) {
      Map<String, Object> m = new LinkedHashMap<>();
      List<String> h = ratioHeader();
      for (int i = 0; i < h.size(); i++) {
        m.put(h.get(i), r.get(i));
      }
      ratios.add(m);
    }
    root.put("ratios", ratios);
    return root;
  }

  public String jsonText() throws IOException {
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json());
  }

  // ---- HTML ---------------------------------------------------------------------------------

  public String html() {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>bank-oltp scenarios</title><style>")
        .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:3px 7px;text-align:right;font-size:13px}td:nth-child(2),th:nth-child(2),td:first-child,th:first-child{text-align:left}")
        .append("th{background:#f3f3f3}.chart{margin:1em 0}.legend span{display:inline-block;margin-right:1.2em}")
        .append(".sw{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}</style></head><body>");
    sb.append("<h1>bank-oltp: the seven scenarios, measured</h1><p>").append(esc(settingsLine()))
        .append(". Generated ").append(esc(generatedAt)).append(".</p><p>Study: <a href=\"")
        .append(esc(study.url())).append("\">").append(esc(study.title())).append("</a></p>");
    htmlTable(sb, header(), rows());
    sb.append("<h2>Measured vs published changes</h2>");
    htmlTable(sb, ratioHeader(), ratios());

    List<String> labels = new ArrayList<>();
    List<Double> studyRel = new ArrayList<>();
    List<Double> qpsRel = new ArrayList<>();
    List<Double> stmtRel = new ArrayList<>();
    ScenarioOutcome base = find(3) != null && find(3).ok() ? find(3) : outcomes.stream().filter(ScenarioOutcome::ok).findFirst().orElse(null);
    for (ScenarioOutcome o : outcomes) {
      labels.add("S" + o.scenario().id());
      studyRel.add(base == null ? 0 : o.scenario().published().qps() / base.scenario().published().qps());
      qpsRel.add(base == null || !o.ok() || o.serverQps() == null || base.serverQps() == null ? 0 : o.serverQps() / base.serverQps());
      stmtRel.add(base == null || !o.ok() ? 0 : statementsPerSecond(o) / statementsPerSecond(base));
    }
    String baseName = base == null ? "" : "S" + base.scenario().id();
    sb.append("<h2>Throughput relative to ").append(baseName).append(" (= 1.0)</h2>");
    sb.append(bars(labels, List.of("study QPS", "measured server QPS", "measured statements/s"),
        List.of(studyRel, qpsRel, stmtRel), List.of("#9aa5b1", "#2b6cb0", "#38a169"), "%.2f"));

    List<List<Double>> wireSeries = new ArrayList<>();
    for (String c : WIRE) {
      List<Double> v = new ArrayList<>();
      for (ScenarioOutcome o : outcomes) {
        v.add(o.ok() ? o.perStatement(c) : 0);
      }
      wireSeries.add(v);
    }
    sb.append("<h2>Wire commands per business statement</h2>");
    sb.append(bars(labels, List.of("COM_QUERY", "COM_STMT_PREPARE", "COM_STMT_EXECUTE", "COM_STMT_CLOSE"),
        wireSeries, List.of("#dd6b20", "#d53f8c", "#2b6cb0", "#718096"), "%.2f"));

    List<Double> studyAvg = new ArrayList<>();
    List<Double> avg = new ArrayList<>();
    List<Double> p95 = new ArrayList<>();
    for (ScenarioOutcome o : outcomes) {
      studyAvg.add(o.scenario().published().avgQueryMicros());
      avg.add(o.ok() ? o.avgMicros() : 0);
      p95.add(o.ok() ? o.p95Micros() : 0);
    }
    sb.append("<h2>Statement latency (µs)</h2>");
    sb.append(bars(labels, List.of("study avg query duration", "measured avg", "measured p95"),
        List.of(studyAvg, avg, p95), List.of("#9aa5b1", "#2b6cb0", "#63b3ed"), "%.0f"));
    sb.append("<h2>Notes</h2><ul>");
    for (String n : notes()) {
      sb.append("<li>").append(esc(n)).append("</li>");
    }
    sb.append("</ul></body></html>\n");
    return sb.toString();
  }

  /** Grouped vertical bars, one group per label, one bar per series. */
  static String bars(List<String> labels, List<String> series, List<List<Double>> values, List<String> colors, String fmt) {
    int groupW = 40 + 26 * series.size();
    int left = 50;
    int top = 20;
    int h = 220;
    int width = left + groupW * labels.size() + 20;
    double max = 0;
    for (List<Double> v : values) {
      for (double d : v) {
        max = Math.max(max, d);
      }
    }
    if (max <= 0) {
      max = 1;
    }
    StringBuilder sb = new StringBuilder("<div class=\"chart\"><div class=\"legend\">");
    for (int i = 0; i < series.size(); i++) {
      sb.append("<span><i class=\"sw\" style=\"background:").append(colors.get(i)).append("\"></i>")
          .append(esc(series.get(i))).append("</span>");
    }
    sb.append("</div><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
        .append(top + h + 30).append("\" role=\"img\">");
    sb.append("<line x1=\"").append(left).append("\" y1=\"").append(top + h).append("\" x2=\"").append(width - 10)
        .append("\" y2=\"").append(top + h).append("\" stroke=\"#444\"/>");
    for (int g = 0; g < labels.size(); g++) {
      int x0 = left + g * groupW + 20;
      for (int s = 0; s < series.size(); s++) {
        double v = values.get(s).get(g);
        int bh = (int) Math.round(h * v / max);
        int x = x0 + s * 26;
        sb.append("<rect x=\"").append(x).append("\" y=\"").append(top + h - bh).append("\" width=\"22\" height=\"")
            .append(bh).append("\" fill=\"").append(colors.get(s)).append("\"><title>").append(esc(series.get(s)))
            .append(' ').append(esc(labels.get(g))).append(": ").append(String.format(Locale.ROOT, fmt, v))
            .append("</title></rect>");
        sb.append("<text x=\"").append(x + 11).append("\" y=\"").append(top + h - bh - 3)
            .append("\" font-size=\"9\" text-anchor=\"middle\">").append(String.format(Locale.ROOT, fmt, v)).append("</text>");
      }
      sb.append("<text x=\"").append(x0 + 13 * series.size()).append("\" y=\"").append(top + h + 18)
          .append("\" font-size=\"12\" text-anchor=\"middle\">").append(esc(labels.get(g))).append("</text>");
    }
    sb.append("</svg></div>");
    return sb.toString();
  }

  private static void htmlTable(StringBuilder sb, List<String> header, List<List<String>> rows) {
    sb.append("<table><tr>");
    for (String h : header) {
      sb.append("<th>").append(esc(h)).append("</th>");
    }
    sb.append("</tr>");
    for (List<String> r : rows) {
      sb.append("<tr>");
      for (String c : r) {
        sb.append("<td>").append(esc(c)).append("</td>");
      }
      sb.append("</tr>");
    }
    sb.append("</table>");
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** Writes report.md, report.json and report.html into {@code dir}, each atomically. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> out = new ArrayList<>();
    out.add(atomic(dir.resolve("report.md"), markdown()));
    out.add(atomic(dir.resolve("report.json"), jsonText()));
    out.add(atomic(dir.resolve("report.html"), html()));
    return out;
  }

  static Path atomic(Path target, String text) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    return Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static String f0(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String pct(double change) {
    return String.format(Locale.ROOT, "%+.0f%%", 100 * change);
  }

  private static String trim(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
  }
}
