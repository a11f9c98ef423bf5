package io.wireadvisor.samples.bank;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.testkit.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The path {@code prove} took: per step the recommendations applied, measured business
 * statements/s and its change against the previous step and the baseline (a negative change is
 * printed as negative and marked), the wire commands per statement from the agent next to the
 * server's counters, and at the end the configuration reached: JDBC URL, HikariCP
 * {@code dataSource.*} lines, pool settings, globals and cached tables. Terminal, Markdown, JSON.
 */
public final class ProveReport {
  private static final String[] WIRE = {
    Commands.COM_QUERY, Commands.COM_STMT_PREPARE, Commands.COM_STMT_EXECUTE, Commands.COM_STMT_CLOSE
  };

  private final String server;
  private final String finalUrl;
  private final Workload.Settings settings;
  private final String agentSource;
  private final Prover.Result result;
  private final ProveSession.Comparison comparison;
  private final String generatedAt = Instant.now().toString();

  /**
   * @param server one line naming the server
   * @param finalUrl the JDBC URL of the final configuration (no credentials)
   */
  public ProveReport(String server, String finalUrl, Workload.Settings settings, String agentSource, Prover.Result result) {
    this(server, finalUrl, settings, agentSource, result, null);
  }

  /** @param comparison the final configuration against the study's best scenarios, or null when not measured */
  public ProveReport(String server, String finalUrl, Workload.Settings settings, String agentSource, Prover.Result result,
      ProveSession.Comparison comparison) {
    this.server = server;
    this.finalUrl = finalUrl;
    this.settings = settings;
    this.agentSource = agentSource;
    this.result = result;
    this.comparison = comparison;
  }

  /** Lines comparing the final configuration with the best scenario measured in the same run; empty without. */
  List<String> comparisonLines() {
    if (comparison == null) {
      return List.of();
    }
    List<String> l = new ArrayList<>();
    int windows = comparison.finalConfig().runs().size();
    StringBuilder sb = new StringBuilder("Same run, ").append(windows).append(windows == 1 ? " window" : " interleaved windows (medians)")
        .append(" each: prove's final configuration ").append(f0(comparison.finalConfig().medianStatementsPerSecond())).append(" stmt/s");
    for (ScenarioRuns r : comparison.scenarios()) {
      sb.append("; S").append(r.representative().scenario().id()).append(' ')
          .append(Double.isNaN(r.medianStatementsPerSecond()) ? "FAILED" : f0(r.medianStatementsPerSecond()));
    }
    l.add(sb.toString());
    ScenarioRuns best = comparison.best();
    if (best != null && !Double.isNaN(comparison.ratioToBest())) {
      Double spread = best.spread();
      l.add(String.format(Locale.ROOT, "prove reached %.0f%% of the best scenario (S%d %s)%s",
          100 * comparison.ratioToBest(), best.representative().scenario().id(), best.representative().scenario().name(),
          spread == null ? "" : String.format(Locale.ROOT, "; that scenario's windows spread %.0f%%", 100 * spread)));
    }
    return l;
  }

  List<String> header() {
    return List.of("step", "applied", "stmt/s", "vs previous", "vs baseline", "QUERY/stmt", "PREPARE/stmt",
        "EXECUTE/stmt", "CLOSE/stmt", "probe reads/stmt", "SETs/stmt", "agent = server", "errors", "advisor next");
  }

  List<List<String>> rows() {
    List<List<String>> rows = new ArrayList<>();
    Prover.Step previous = null;
    Prover.Step base = result.baseline();
    for (Prover.Step s : result.steps()) {
      List<String> r = new ArrayList<>();
      r.add(String.valueOf(s.index()));
      r.add(s.index() == 0 ? "baseline" : String.join(" + ", s.appliedIds()));
      ScenarioOutcome o = s.outcome();
      if (o == null || !o.ok()) {
        r.add("FAILED" + (o == null ? "" : ": " + o.failure()));
        while (r.size() < header().size() - 1) {
          r.add("");
        }
      } else {
        r.add(f0(o.statementsPerSecond()));
        r.add(previous == null ? "" : change(s.statementsPerSecond(), previous.statementsPerSecond()));
        r.add(s == base ? "" : change(s.statementsPerSecond(), base.statementsPerSecond()));
        for (String c : WIRE) {
          Double v = o.agentPerStatement(c);
          r.add(v == null ? f2(o.perStatement(c)) + " (server)" : f2(v));
        }
        Double reads = o.agentProbeReadsPerStatement();
        r.add(reads == null ? "N/A" : f2(reads));
        Double sets = o.agentSessionSetsPerStatement();
        r.add(sets == null ? "N/A" : f2(sets));
        r.add(!o.wireCrossChecked() ? "N/A" : o.wireMismatches().isEmpty() ? "yes" : "NO");
        r.add(String.valueOf(o.result().errors()));
      }
      r.add(next(s));
      rows.add(r);
      previous = s;
    }
    return rows;
  }

  /** The recommendations the advisor made on this step's profile, marking those with nothing to apply. */
  private static String next(Prover.Step s) {
    if (s.advice() == null) {
      return "";
    }
    if (s.planned().isEmpty()) {
      return "(none)";
    }
    List<String> ids = new ArrayList<>();
    for (ChangePlan.Planned p : s.planned()) {
      ids.add(p.applicable() ? p.id() : p.id() + " (in effect)");
    }
    return String.join(", ", ids);
  }

  /** {@code +12.3%}, or {@code -4.0% (slower)}: a step that costs throughput says so. */
  static String change(double now, double before) {
    if (Double.isNaN(now) || Double.isNaN(before) || before <= 0) {
      return "N/A";
    }
    double c = now / before - 1;
    return String.format(Locale.ROOT, "%+.1f%%", 100 * c) + (c < 0 ? " (slower)" : "");
  }

  private String settingsLine() {
    return String.format(Locale.ROOT,
        "%s; scale %s, %d threads, %d s warm-up + %d s measured per step%s, seed %d; wire counts from %s",
        server, settings.scale(), settings.threads(), settings.warmup().toSeconds(), settings.measure().toSeconds(),
        settings.minStatements() > 0 ? String.format(Locale.ROOT, " (or until %,d statements)", settings.minStatements()) : "",
        settings.seed(), agentSource);
  }

  /** Lines describing where the loop ended and the configuration reached. */
  List<String> outcome() {
    List<String> l = new ArrayList<>();
    l.add("Stopped: " + result.stop() + " — " + result.detail());
    Prover.Step last = result.last();
    Prover.Step base = result.baseline();
    if (result.steps().size() > 1) {
      l.add("Overall: " + change(last.statementsPerSecond(), base.statementsPerSecond())
          + " business statements/s, step 0 to step " + last.index());
      String first = firstScreenLine();
      if (first != null) {
        l.add(first);
      }
    }
    ProveConfig c = result.finalConfig();
    l.add("Final JDBC URL: " + finalUrl);
    l.add("HikariCP dataSourceProperties: " + (c.jdbcProperties().isEmpty() ? "(none)" : String.join(", ", dataSourceLines(c))));
    l.add("Pool settings: " + (c.poolSettings().isEmpty() ? "(defaults)" : c.poolSettings().toString()));
    l.add("Globals set: " + (c.globals().isEmpty() ? "(none)" : c.globals().toString()));
    l.add("Cached tables: " + (c.cachedTables().isEmpty() ? "(none)" : c.cachedTables().size() + " " + c.cachedTables()));
    l.addAll(comparisonLines());
    return l;
  }

  /**
   * The first screen's estimated saving on the baseline's profile (the share of the time waited on
   * the wire, the CPU-bound model's when it applied) beside the time per business statement the
   * path measured, step 0 to the last step: issue 25's comparison from one window. Null when
   * either is missing.
   */
  FirstScreen firstScreen() {
    Prover.Step base = result.baseline();
    Prover.Step last = result.last();
    if (result.steps().size() < 2 || base.advice() == null || base.advice().analysis().outlook() == null) {
      return null;
    }
    Outlook o = base.advice().analysis().outlook();
    double before = base.statementsPerSecond();
    double after = last.statementsPerSecond();
    if (!(o.measuredSeconds() > 0) || !(before > 0) || !(after > 0)) {
      return null;
    }
    return new FirstScreen(o.secondsSaved() / o.measuredSeconds(), o.cpuLine(), 1 - before / after, last.index());
  }

  /**
   * @param estimated the first screen's saving at step 0, a share of the time on the wire
   * @param cpuLine the CPU-bound model's line, or null when it did not apply
   * @param measured the time per business statement saved from step 0 to step {@code toStep}: 1 - stmt/s before / after
   */
  record FirstScreen(double estimated, String cpuLine, double measured, int toStep) {
    /** Estimated over measured: 1 is exact, below 1 an underestimate. */
    double ratio() {
      return measured == 0 ? Double.NaN : estimated / measured;
    }
  }

  private String firstScreenLine() {
    FirstScreen f = firstScreen();
    if (f == null) {
      return null;
    }
    return String.format(Locale.ROOT,
        "First screen at step 0: estimated saving %.1f%% of the time on the wire%s; measured, step 0 to step %d: %.1f%% %s"
            + " time per business statement (estimate / measured = %.2f)",
        f.estimated() * 100, f.cpuLine() == null ? "" : " (CPU-bound model)", f.toStep(), Math.abs(f.measured()) * 100,
        f.measured() >= 0 ? "less" : "more", f.ratio());
  }

  private static List<String> dataSourceLines(ProveConfig c) {
    List<String> lines = new ArrayList<>();
    c.jdbcProperties().forEach((k, v) -> lines.add("dataSource." + k + "=" + v));
    return lines;
  }

  /** Skipped SQL, agent/server mismatches, and how to read the table. */
  List<String> notes() {
    List<String> n = new ArrayList<>();
    for (Prover.Step s : result.steps()) {
      for (ChangePlan.Planned p : s.planned()) {
        for (String skipped : p.skipped()) {
          n.add("step " + s.index() + ", " + p.id() + ": not applied: " + skipped);
        }
      }
      if (s.outcome() != null && s.outcome().ok() && !s.outcome().wireMismatches().isEmpty()) {
        n.add("step " + s.index() + ": the agent's counts differ from the server's: " + s.outcome().wireMismatches());
      }
      if (s.outcome() != null && s.outcome().ok() && s.outcome().result().statements() < settings.minStatements()) {
        n.add(String.format(Locale.ROOT,
            "step %d: only %,d business statements in %.0f s (fewer than the %,d asked for): the advisor may have lacked "
                + "the traffic to judge, so its silence there is weak evidence", s.index(), s.outcome().result().statements(),
            s.outcome().result().seconds(), settings.minStatements()));
      }
      if (s.outcome() != null && s.outcome().ok() && !s.outcome().result().errorSamples().isEmpty()) {
        n.add("step " + s.index() + ": errors, e.g.: " + s.outcome().result().errorSamples().get(0));
      }
    }
    n.add("stmt/s: business statements per second counted by the application; a negative change is a real, measured loss.");
    n.add("Wire commands, session-state reads (SELECT @@session...) and session SETs per business statement from the agent's profile of the measured window; "
        + "'agent = server' compares its counts with the server's exact command counters over the same window.");
    n.add("advisor next: what the advisor recommended on that step's profile; '(in effect)' marks advice whose change is already applied.");
    return n;
  }

  public String terminal() {
    StringBuilder sb = new StringBuilder("prove: from the baseline to the advisor's fixpoint, measured\n");
    sb.append(settingsLine()).append("\n\n");
    sb.append(Report.table(header(), rows(), 2)).append('\n');
    for (String l : outcome()) {
      sb.append(l).append('\n');
    }
    sb.append('\n');
    for (String n : notes()) {
      sb.append("* ").append(n).append('\n');
    }
    return sb.toString();
  }

  public String markdown() {
    StringBuilder sb = new StringBuilder("# bank-oltp prove: the advisor's path, measured\n\n");
    sb.append(settingsLine()).append(". Generated ").append(generatedAt).append(".\n\n");
    Report.mdTable(sb, header(), rows());
    sb.append("\n## Result\n\n");
    for (String l : outcome()) {
      sb.append("- ").append(l).append('\n');
    }
    sb.append("\n## Steps\n\n");
    for (Prover.Step s : result.steps()) {
      sb.append("- **Step ").append(s.index()).append("** ")
          .append(s.index() == 0 ? "baseline" : "applied " + s.applied().describe())
          .append(": `").append(s.config().urlParameters()).append("`\n");
      if (s.advice() != null) {
        for (Recommendation r : s.advice().analysis().recommendations()) {
          sb.append("  - advisor: `").append(r.id()).append("` ").append(r.title()).append('\n');
        }
      }
    }
    sb.append("\n## Notes\n\n");
    for (String n : notes()) {
      sb.append("- ").append(n).append('\n');
    }
    return sb.toString();
  }

  Map<String, Object> json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("generatedAt", generatedAt);
    root.put("server", server);
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("scale", settings.scale());
    st.put("threads", settings.threads());
    st.put("warmupSeconds", settings.warmup().toSeconds());
    st.put("measureSeconds", settings.measure().toSeconds());
    st.put("minStatements", settings.minStatements());
    st.put("seed", settings.seed());
    root.put("settings", st);
    root.put("wireSource", agentSource);
    if (comparison != null) {
      Map<String, Object> cmp = new LinkedHashMap<>();
      cmp.put("windows", comparison.finalConfig().runs().size());
      cmp.put("finalStatementsPerSecond", comparison.finalConfig().medianStatementsPerSecond());
      Map<String, Object> sc = new LinkedHashMap<>();
      for (ScenarioRuns r : comparison.scenarios()) {
        sc.put("S" + r.representative().scenario().id(), r.medianStatementsPerSecond());
      }
      cmp.put("scenarioStatementsPerSecond", sc);
      ScenarioRuns best = comparison.best();
      cmp.put("best", best == null ? null : "S" + best.representative().scenario().id());
      cmp.put("ratioToBest", Double.isNaN(comparison.ratioToBest()) ? null : comparison.ratioToBest());
      root.put("comparison", cmp);
    }
    root.put("stop", result.stop().name());
    root.put("stopDetail", result.detail());
    List<Object> steps = new ArrayList<>();
    Prover.Step previous = null;
    for (Prover.Step s : result.steps()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("step", s.index());
      m.put("appliedRecommendations", s.appliedIds());
      m.put("applied", stepJson(s.applied()));
      m.put("config", configJson(s.config()));
      ScenarioOutcome o = s.outcome();
      if (o == null || !o.ok()) {
        m.put("failure", o == null ? result.detail() : o.failure());
      } else {
        Map<String, Object> me = new LinkedHashMap<>();
        me.put("seconds", o.result().seconds());
        me.put("statements", o.result().statements());
        me.put("statementsPerSecond", o.statementsPerSecond());
        me.put("transactionsPerSecond", o.transactionsPerSecond());
        me.put("changeVsPrevious", previous == null ? null : ratio(s, previous));
        me.put("changeVsBaseline", s.index() == 0 ? null : ratio(s, result.baseline()));
        me.put("latencyMicros", Map.of("avg", o.avgMicros(), "p95", o.p95Micros(), "p99", o.p99Micros()));
        me.put("errors", o.result().errors());
        me.put("agentWireCommands", o.agentWire());
        me.put("serverWireCommands", o.wire());
        Map<String, Object> per = new LinkedHashMap<>();
        for (String c : WIRE) {
          per.put(c, o.agentPerStatement(c));
        }
        me.put("agentWireCommandsPerStatement", per);
        me.put("agentProbesPerStatement", o.agentProbesPerStatement());
        me.put("agentProbeReadsPerStatement", o.agentProbeReadsPerStatement());
        me.put("agentSessionSetsPerStatement", o.agentSessionSetsPerStatement());
        me.put("wireCrossChecked", o.wireCrossChecked());
        me.put("wireMismatches", o.wireMismatches());
        me.put("planCacheHitRatio", o.planCacheHitRatio());
        m.put("measured", me);
      }
      if (s.advice() != null) {
        List<Object> recs = new ArrayList<>();
        for (int i = 0; i < s.planned().size(); i++) {
          ChangePlan.Planned p = s.planned().get(i);
          Recommendation r = s.advice().analysis().recommendations().get(i);
          Map<String, Object> rm = new LinkedHashMap<>();
          rm.put("id", r.id());
          rm.put("title", r.title());
          rm.put("severity", r.severity().name());
          rm.put("applicable", p.applicable());
          rm.put("changes", stepJson(p.step()));
          rm.put("skipped", p.skipped());
          recs.add(rm);
        }
        m.put("recommendations", recs);
      }
      steps.add(m);
      previous = s;
    }
    root.put("steps", steps);
    Map<String, Object> fin = new LinkedHashMap<>();
    fin.put("jdbcUrl", finalUrl);
    fin.put("hikariDataSourceProperties", dataSourceLines(result.finalConfig()));
    fin.putAll(configJson(result.finalConfig()));
    Prover.Step last = result.last();
    fin.put("changeVsBaseline", result.steps().size() > 1 ? ratio(last, result.baseline()) : null);
    root.put("final", fin);
    FirstScreen f = firstScreen();
    if (f != null) {
      Map<String, Object> fs = new LinkedHashMap<>();
      fs.put("estimatedSavingShare", f.estimated());
      fs.put("cpuBound", f.cpuLine());
      fs.put("measuredLessTimePerStatement", f.measured());
      fs.put("toStep", f.toStep());
      fs.put("estimatedOverMeasured", Double.isNaN(f.ratio()) ? null : f.ratio());
      root.put("firstScreen", fs);
    } else {
      root.put("firstScreen", null);
    }
    return root;
  }

  private static Double ratio(Prover.Step now, Prover.Step before) {
    double a = now.statementsPerSecond();
    double b = before.statementsPerSecond();
    return Double.isNaN(a) || Double.isNaN(b) || b <= 0 ? null : a / b - 1;
  }

  private static Map<String, Object> stepJson(ChangePlan.Step s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("jdbcProperties", s.jdbcProperties());
    m.put("poolSettings", s.poolSettings());
    m.put("globals", s.globals());
    m.put("cacheTables", s.tables());
    return m;
  }

  private static Map<String, Object> configJson(ProveConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("urlParameters", c.urlParameters());
    m.put("jdbcProperties", c.jdbcProperties());
    m.put("poolSettings", c.poolSettings());
    m.put("globals", c.globals());
    m.put("cachedTables", c.cachedTables());
    return m;
  }

  public String jsonText() throws IOException {
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json());
  }

  /** Writes prove.md and prove.json into {@code dir}, each atomically. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> out = new ArrayList<>();
    out.add(Report.atomic(dir.resolve("prove.md"), markdown()));
    out.add(Report.atomic(dir.resolve("prove.json"), jsonText()));
    return out;
  }

  private static String f0(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
