package io.wireadvisor.replay;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Replays one capture under several configurations in interleaved rounds (A B A B …, so that a
 * noisy machine's drift lands on every configuration alike) and compares medians. The
 * {@code advised} configuration is the current one with the advisor's JDBC and pool changes
 * applied, judged on the profile of the first replay under the current configuration.
 */
public final class ReplayComparison {
  /** The runs of one configuration. */
  public record Series(ReplayConfig config, List<RunResult> runs) {
    public double medianThroughput() {
      return median(runs.stream().mapToDouble(RunResult::throughput).toArray());
    }

    /** Median over rounds of the latency quantile {@code q}, in microseconds. */
    public double medianLatency(double q) {
      return median(runs.stream().mapToDouble(r -> r.latencyMicros().quantile(q)).toArray());
    }

    public double medianCommandsPerStatement() {
      return median(runs.stream().mapToDouble(RunResult::commandsPerStatement).toArray());
    }

    /** Spread of the throughput over rounds: (max - min) / median. */
    public double throughputSpread() {
      double[] v = runs.stream().mapToDouble(RunResult::throughput).toArray();
      double m = median(v);
      return m == 0 ? 0 : (Arrays.stream(v).max().orElse(0) - Arrays.stream(v).min().orElse(0)) / m;
    }

    public long newErrors() {
      return runs.stream().mapToLong(RunResult::newErrorCount).max().orElse(0);
    }

    public RunResult first() {
      return runs.get(0);
    }
  }

  private final List<Series> series;
  private final Analysis advice;
  private final Capture capture;
  private final String driverLine;

  private ReplayComparison(Capture capture, List<Series> series, Analysis advice, String driverLine) {
    this.capture = capture;
    this.series = series;
    this.advice = advice;
    this.driverLine = driverLine;
  }

  /** Which Connector/J replay ran, and how it stands to the one the capture names. */
  public String driverLine() {
    return driverLine;
  }

  /**
   * The commands the capture holds, by wire command type (what the application sent in the
   * window; a prepare the capture restated for a statement prepared before it began is not one).
   */
  public static Map<CommandType, Long> capturedCommands(Capture capture) {
    Map<CommandType, Long> m = new java.util.EnumMap<>(CommandType.class);
    for (io.wireadvisor.capture.CaptureEvent e : capture.events()) {
      CommandType t;
      switch (e.kind()) {
        case QUERY: t = CommandType.QUERY; break;
        case PREPARE: t = e.latencyMicros() < 0 ? null : CommandType.STMT_PREPARE; break;
        case EXECUTE: t = CommandType.STMT_EXECUTE; break;
        case RESET: t = CommandType.STMT_RESET; break;
        case CLOSE: t = CommandType.STMT_CLOSE; break;
        case INIT_DB: t = CommandType.INIT_DB; break;
        case QUIT: t = CommandType.QUIT; break;
        case SET_OPTION: t = CommandType.SET_OPTION; break;
        case RESET_CONNECTION: t = CommandType.RESET_CONNECTION; break;
        case CHANGE_USER: t = CommandType.CHANGE_USER; break;
        default: t = null;
      }
      if (t != null) {
        m.merge(t, 1L, Long::sum);
      }
    }
    return m;
  }

  public List<Series> series() {
    return series;
  }

  /** The advisor's analysis the {@code advised} configuration came from, or null. */
  public Analysis advice() {
    return advice;
  }

  public Capture capture() {
    return capture;
  }

  /** The series of the configuration named {@code name}, or null. */
  public Series series(String name) {
    for (Series s : series) {
      if (s.config().name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /**
   * Runs the comparison.
   *
   * @param configs {@code current}, {@code advised}, or paths of configuration files
   * @param rounds rounds per configuration, interleaved
   */
  public static ReplayComparison run(Capture capture, List<String> configs, ReplayTarget target,
      Replayer.Options options, int rounds) throws Exception {
    return run(capture, configs, target, options, rounds, ServerSide.APPLY, line -> {});
  }

  /**
   * What replay does on the server: whether the advice is judged with the server's view (version,
   * globals, table statistics; the TiDB rules need it) and whether the advised configuration's
   * server-side changes (TiDB globals, table cache) are applied for its runs and undone after each.
   *
   * @param statusUrl TiDB's status port for the server view, or null
   */
  public record ServerSide(boolean apply, String statusUrl) {
    /** Judge with the server's view and apply the server-side changes (the default). */
    public static final ServerSide APPLY = new ServerSide(true, null);
    /** JDBC and pool changes only; the advice still sees the server. */
    public static final ServerSide JDBC_ONLY = new ServerSide(false, null);
  }

  /**
   * Runs the comparison.
   *
   * @param configs {@code current}, {@code advised}, {@code stepwise}, or configuration files
   * @param rounds rounds per configuration, interleaved
   * @param log progress and server changes, one line each
   */
  public static ReplayComparison run(Capture capture, List<String> configs, ReplayTarget target,
      Replayer.Options options, int rounds, ServerSide server, java.util.function.Consumer<String> log)
      throws Exception {
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
    }
    Replayer.checkTarget(capture, target, options);
    String driverLine = options.driverOrBundled().describe(capture);
    log.accept(driverLine);
    ReplayConfig current = ReplayConfig.current(capture);
    Map<String, ReplayConfig> resolved = new LinkedHashMap<>();
    Map<String, List<RunResult>> runs = new LinkedHashMap<>();
    Analysis advice = null;
    for (String spec : configs) {
      if (spec.equals("current")) {
        resolved.put(spec, current);
      } else if (!spec.equals("advised") && !spec.equals("stepwise")) {
        resolved.put(spec, ReplayConfig.fromFile(Path.of(spec)));
      }
    }
    if (configs.contains("advised") || configs.contains("stepwise")) {
      // The advice is judged on the current configuration's replayed traffic.
      // The advice is judged on the traffic at its captured pace, as the application sent it: a
      // fast replay compresses the window, and some rules need a window of a given length (the
      // table cache: 10 s). Counted as current's first round when the rounds are paced too.
      Replayer.Options pacedOptions = new Replayer.Options(true, options.commitTo(), options.maxSessions(),
          options.allowSameDatabase(), options.driver());
      RunResult basis = Replayer.run(capture, current, target, pacedOptions);
      advice = Advisor.analyze(basis.wire(), view(target, options, server, log));
      Change change = advice.combinedChange();
      ReplayConfig advised =
          current.with("advised",
              server.apply()
                  ? "current + the advisor's JDBC, pool and server changes"
                  : "current + the advisor's JDBC and pool changes",
              change.jdbcProperties(), change.poolSettings());
      if (server.apply()) {
        advised = advised.withServerSql(change.sql());
      }
      Map<String, ReplayConfig> ordered = new LinkedHashMap<>();
      for (String spec : configs) {
        if (spec.equals("stepwise")) {
          ordered.putAll(stepwise(current, advice, server.apply()));
        } else {
          ordered.put(spec, spec.equals("advised") ? advised : resolved.get(spec));
        }
      }
      resolved = ordered;
      if (resolved.containsKey("current") && options.paced()) {
        runs.computeIfAbsent("current", k -> new ArrayList<>()).add(basis);
      }
    }
    for (int round = 0; round < rounds; round++) {
      for (Map.Entry<String, ReplayConfig> e : resolved.entrySet()) {
        List<RunResult> list = runs.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
        if (list.size() > round) {
          continue; // the basis run counts as current's first round
        }
        list.add(runWithServerChanges(capture, e.getValue(), target, options, log));
      }
    }
    List<Series> series = new ArrayList<>();
    for (Map.Entry<String, ReplayConfig> e : resolved.entrySet()) {
      series.add(new Series(e.getValue(), runs.get(e.getKey())));
    }
    return new ReplayComparison(capture, series, advice, driverLine);
  }

  /**
   * {@code current}, then the advisor's changes one recommendation at a time, cumulatively: each
   * configuration differs from the one before by one recommendation, so the difference between
   * neighbours is that recommendation's effect on this traffic.
   */
  static Map<String, ReplayConfig> stepwise(ReplayConfig current, Analysis advice, boolean serverChanges) {
    Map<String, ReplayConfig> steps = new LinkedHashMap<>();
    ReplayConfig at = current;
    int n = 0;
    for (Recommendation r : advice.recommendations()) {
      Change c = r.change();
      boolean server = serverChanges && !c.sql().isEmpty();
      if (c.jdbcProperties().isEmpty() && c.poolSettings().isEmpty() && !server) {
        continue; // server-side only, and server changes are off
      }
      n++;
      at = at.with("+" + r.id(), "the step before + " + r.id(), c.jdbcProperties(), c.poolSettings());
      if (server) {
        at = at.withServerSql(c.sql());
      }
      steps.put("step " + n, at);
    }
    return steps;
  }

  /** One run with its configuration's server changes applied, and undone afterwards. */
  private static RunResult runWithServerChanges(Capture capture, ReplayConfig config, ReplayTarget target,
      Replayer.Options options, java.util.function.Consumer<String> log) throws Exception {
    String database = options.commitTo() != null ? options.commitTo() : target.database();
    try (ServerChanges changes = ServerChanges.apply(config.serverSql(), target, database, log)) {
      changes.applied().forEach(a -> log.accept(config.name() + ": " + a));
      changes.notApplied().forEach(a -> log.accept(config.name() + ": not applied (not a global or table cache of "
          + database + "): " + a));
      return Replayer.run(capture, config, target, options);
    }
  }

  /** The server's view for the advice (read-only), or null when it cannot be read (said in the log). */
  private static io.wireadvisor.server.ServerView view(ReplayTarget target, Replayer.Options options,
      ServerSide server, java.util.function.Consumer<String> log) {
    String database = options.commitTo() != null ? options.commitTo() : target.database();
    String url = "jdbc:mysql://" + target.host() + ":" + target.port() + "/" + (database == null ? "" : database);
    try {
      return io.wireadvisor.server.ServerInspector.inspect(url, target.user(), target.password(), server.statusUrl());
    } catch (Exception e) {
      log.accept("the server could not be inspected (" + e.getMessage() + "): the advice judges the traffic alone");
      return null;
    }
  }

  /** The report in text. */
  public String text() {
    StringBuilder b = new StringBuilder();
    b.append("wire-advisor replay: ").append(capture.events().size()).append(" captured events, ")
        .append(capture.byConnection().size()).append(" connections")
        .append(capture.complete() ? "" : " (capture incomplete: no last line)").append('\n');
    if (capture.header().server() != null) {
      b.append("captured against: ").append(capture.header().server())
          .append(capture.header().upstream() == null ? "" : " at " + capture.header().upstream()).append('\n');
    }
    if (driverLine != null) {
      b.append(driverLine).append('\n');
    }
    b.append('\n');
    b.append(String.format(Locale.ROOT, "%-30s %6s %10s %8s %8s %8s %10s %7s%n",
        "configuration", "rounds", "stmts/s", "p50 ms", "p95 ms", "p99 ms", "cmds/stmt", "errors"));
    for (Series s : series) {
      b.append(String.format(Locale.ROOT, "%-30s %6d %10.1f %8.2f %8.2f %8.2f %10.2f %7d%n",
          s.config().name(), s.runs().size(), s.medianThroughput(), s.medianLatency(0.5) / 1000.0,
          s.medianLatency(0.95) / 1000.0, s.medianLatency(0.99) / 1000.0, s.medianCommandsPerStatement(),
          s.newErrors()));
    }
    b.append("(medians over rounds; throughput spread: ");
    for (int i = 0; i < series.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(series.get(i).config().name()).append(' ')
          .append(String.format(Locale.ROOT, "%.0f%%", series.get(i).throughputSpread() * 100));
    }
    b.append(")\n");
    for (int i = 1; i < series.size(); i++) {
      Series s = series.get(i);
      // A step is compared with the step before it; anything else with the first configuration.
      Series a = s.config().name().startsWith("+") ? series.get(i - 1) : series.get(0);
      b.append(String.format(Locale.ROOT, "%s vs %s: throughput x%.2f, wire commands per statement %.2f -> %.2f%n",
          s.config().name(), a.config().name(),
          a.medianThroughput() == 0 ? 0 : s.medianThroughput() / a.medianThroughput(),
          a.medianCommandsPerStatement(), s.medianCommandsPerStatement()));
    }
    b.append('\n');
    for (Series s : series) {
      b.append("configuration ").append(s.config().name()).append(" (").append(s.config().origin()).append("): ");
      b.append(s.config().jdbcProperties().isEmpty() ? "(driver defaults)" : s.config().jdbcProperties().toString());
      if (!s.config().poolSettings().isEmpty()) {
        b.append(" pool ").append(s.config().poolSettings());
      }
      if (!s.config().serverSql().isEmpty()) {
        long cached = s.config().serverSql().stream().filter(q -> io.wireadvisor.advisor.ServerChangeSql.cachedTable(q) != null).count();
        b.append(" server: ").append(s.config().serverSql().size() - cached).append(" globals");
        if (cached > 0) {
          b.append(", ").append(cached).append(" tables cached");
        }
      }
      b.append('\n');
    }
    if (advice != null) {
      boolean serverApplied = series.stream().anyMatch(x -> !x.config().serverSql().isEmpty());
      b.append(serverApplied
          ? "\nadvice applied (JDBC, pool, and on the server for the advised runs only, undone after each):\n"
          : "\nadvice applied (JDBC and pool):\n");
      for (Recommendation r : advice.recommendations()) {
        b.append("  - ").append(r.id()).append(": ").append(r.title());
        if (!r.change().sql().isEmpty()) {
          List<String> sql = r.change().sql();
          String shown = sql.size() <= 3
              ? String.join(" ", sql)
              : String.join(" ", sql.subList(0, 2)) + " ... (" + sql.size() + " statements)";
          b.append(serverApplied ? " [server: " : " [server-side, not applied: ").append(shown).append(']');
        }
        b.append('\n');
      }
    }
    b.append("\nwire commands by type, capture vs replay (first round; the capture holds the window's"
        + " commands, replay adds its pool's connect-time ones):\n");
    for (String line : commandLines()) {
      b.append(line).append('\n');
    }
    b.append("\nwire commands per execution, top statements (first round):\n");
    for (String line : shapeLines()) {
      b.append(line).append('\n');
    }
    for (Series s : series) {
      RunResult r = s.first();
      if (!r.newErrors().isEmpty()) {
        b.append("\nerrors replay got under ").append(s.config().name()).append(" where the capture had none:\n");
        r.newErrors().forEach((k, v) -> {
          b.append("  ").append(v).append(" x ").append(k).append('\n');
          String example = r.errorExamples().get(k);
          if (example != null) {
            b.append("      e.g. ").append(example).append('\n');
          }
        });
      }
      if (!r.skipped().isEmpty()) {
        b.append("not replayed under ").append(s.config().name()).append(": ").append(r.skipped()).append('\n');
      }
      if (r.wrappedWrites() > 0) {
        b.append(s.config().name()).append(": ").append(r.wrappedWrites())
            .append(" autocommitted writes ran in a transaction that was rolled back (3 extra commands each, in every configuration)\n");
      }
    }
    return b.toString();
  }

  private List<String> commandLines() {
    List<String> lines = new ArrayList<>();
    Map<CommandType, Long> captured = capturedCommands(capture);
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %-22s %10s", "command", "capture"));
    for (Series s : series) {
      String name = s.config().name();
      head.append(String.format(Locale.ROOT, " %12s", name.length() > 12 ? name.substring(0, 12) : name));
    }
    lines.add(head.toString());
    for (CommandType t : CommandType.values()) {
      long c = captured.getOrDefault(t, 0L);
      boolean any = c > 0;
      for (Series s : series) {
        any |= s.first().wire().count(t) > 0;
      }
      if (!any) {
        continue;
      }
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-22s %10d", t.wireName(), c));
      for (Series s : series) {
        line.append(String.format(Locale.ROOT, " %12d", s.first().wire().count(t)));
      }
      lines.add(line.toString());
    }
    return lines;
  }

  private List<String> shapeLines() {
    List<String> lines = new ArrayList<>();
    if (series.isEmpty()) {
      return lines;
    }
    TrafficProfile base = series.get(0).first().wire();
    List<ShapeStats> shapes = new ArrayList<>(base.shapes().values());
    shapes.removeIf(s -> s.probe() != null || s.executions() == 0);
    shapes.sort(Comparator.comparingLong(ShapeStats::wireCommands).reversed());
    for (ShapeStats s : shapes.subList(0, Math.min(10, shapes.size()))) {
      StringBuilder line = new StringBuilder("  ");
      for (Series x : series) {
        ShapeStats t = x.first().wire().shape(s.digest());
        double per = t == null || t.executions() == 0 ? 0 : (double) t.wireCommands() / t.executions();
        line.append(String.format(Locale.ROOT, "%6.2f ", per));
      }
      String text = s.digestText();
      line.append(text.length() > 100 ? text.substring(0, 97) + "..." : text);
      lines.add(line.toString());
    }
    return lines;
  }

  static double median(double[] v) {
    if (v.length == 0) {
      return 0;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
