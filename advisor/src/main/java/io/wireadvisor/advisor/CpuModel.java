package io.wireadvisor.advisor;

import io.wireadvisor.profile.CpuUsage;
import io.wireadvisor.profile.ServerCpuProfile;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import java.util.Locale;
import java.util.Map;

/**
 * The saving on a CPU-bound host (docs/advisor.md, "CPU-bound hosts"): when the cores the
 * application runs on were busy for at least {@value #BUSY_SHARE} of the window (or {@value
 * #BUSY_SHARE_WITH_WAIT} with tasks waiting for a CPU {@value #WAIT_SHARE} of it), each statement
 * waits for CPU, and a closed-loop application's time per statement follows the CPU each statement
 * costs on those cores. Then the changes save the share of that CPU they remove:
 *
 * <ul>
 *   <li>CPU per statement {@code c = (P + S) / N}: P the application JVM's CPU over the window
 *       (the profile's {@code cpu}), S the server's when it runs on the same host (a loopback JDBC
 *       URL) and its CPU was measured (TiDB's {@code process_cpu_seconds_total}, the agent's
 *       {@code serverStatusUrl}), N the business statements;
 *   <li>the server time the estimates count (TiDB's parse and compile time the plan cache skips),
 *       as CPU. Measured where the profile has the server's CPU profiles ({@code cpu.serverProfile},
 *       the agent's {@code serverCpuProfile}): S times their parse, compile and digest share of the
 *       sampled CPU, times the share of the profile's parse and compile latency (STATEMENTS_SUMMARY)
 *       the changes remove. Otherwise converted from latency: that latency times {@code k = min(1,
 *       S / L)}, L the server's time on the profile's statements (STATEMENTS_SUMMARY's average
 *       latency times the profile's executions): under saturation every phase waits for CPU alike,
 *       so its CPU share is the server's (low for parse and compile, which are all CPU);
 *   <li>each wire command removed (net: commands added, e.g. PREPAREs, count against) at the
 *       window's CPU per command on both sides, {@code (P + S) / C}.
 * </ul>
 *
 * <p>Saved time = measured time × (CPU freed / (P + S)). The line also gives the upper end, parse and
 * compile at their full latency (all CPU, no wait), since k is low for them: L holds commit and
 * storage waits too, and parse and compile are all CPU. The first screen takes the larger of this
 * and the latency estimate (the same gains measured two ways, never added). The client's own CPU
 * per text statement (Connector/J building and parsing SQL) is not priced: the profile of text
 * traffic cannot tell it from the rest of the application's CPU. Nor are TiDB's CPU per text
 * statement beyond parse and compile (the digest of each new text, text rows) and its CPU outside
 * statements (background work, in the pool as if statements cost it): measured on the bank sample
 * and a plain JDBC loop, the share is 3 to 4 times below the time saved (docs/advisor.md, "Estimate
 * against measurement"). A host below the busy share gets no CPU saving: freeing CPU that nothing
 * waits for saves no time.
 */
final class CpuModel {
  /** A host whose cores were busy at least this share of the window is CPU-bound. */
  static final double BUSY_SHARE = 0.9;
  /**
   * A host is CPU-bound too when tasks waited for a CPU at least this share of the window (Linux
   * PSI, the profile's {@code cpu.hostCpuWaitNanos}) and its cores were busy at least {@link
   * #BUSY_SHARE_WITH_WAIT}: closed-loop clients that also wait on locks leave a core idle now and
   * then, yet their statements queue for CPU most of the time.
   */
  static final double WAIT_SHARE = 0.3;
  /** The busy share a host needs besides {@link #WAIT_SHARE}'s CPU wait (a burst is not a bound). */
  static final double BUSY_SHARE_WITH_WAIT = 0.75;
  private static final double NANOS = 1e9;

  /** What the model found; {@link #secondsSaved} 0 when it does not apply. */
  static final class Result {
    final boolean measured;
    final boolean cpuBound;
    final double busyShare;
    final int cores;
    final double clientMsPerStatement;
    /** NaN when not measured or not on this host. */
    final double serverMsPerStatement;
    final boolean serverHere;
    final double freedMsPerStatement;
    final double share;
    /** The share with the server time at its full latency (all CPU): the model's upper end. */
    final double upperShare;
    final double secondsSaved;
    /** The first screen's line, or null. */
    final String line;
    /** Why the model could not price a CPU-bound host, or null. */
    final String missing;
    /** The JDBC driver's own CPU per text statement is in {@link #freedMsPerStatement}. */
    final boolean driverPriced;

    Result(boolean measured, boolean cpuBound, double busyShare, int cores, double clientMs, double serverMs,
        boolean serverHere, double freedMs, double share, double upperShare, double secondsSaved, String line,
        String missing) {
      this(measured, cpuBound, busyShare, cores, clientMs, serverMs, serverHere, freedMs, share, upperShare,
          secondsSaved, line, missing, false);
    }

    Result(boolean measured, boolean cpuBound, double busyShare, int cores, double clientMs, double serverMs,
        boolean serverHere, double freedMs, double share, double upperShare, double secondsSaved, String line,
        String missing, boolean driverPriced) {
      this.driverPriced = driverPriced;
      this.measured = measured;
      this.cpuBound = cpuBound;
      this.busyShare = busyShare;
      this.cores = cores;
      this.clientMsPerStatement = clientMs;
      this.serverMsPerStatement = serverMs;
      this.serverHere = serverHere;
      this.freedMsPerStatement = freedMs;
      this.share = share;
      this.upperShare = upperShare;
      this.secondsSaved = secondsSaved;
      this.line = line;
      this.missing = missing;
    }

    static final Result NOT_MEASURED =
        new Result(false, false, -1, 0, Double.NaN, Double.NaN, false, 0, 0, 0, 0, null, null);
  }

  private CpuModel() {}

  /**
   * @param serverLatencySeconds the server time the estimates counted (parse and compile the plan
   *     cache skips), as STATEMENTS_SUMMARY measured it
   * @param commandsRemoved wire commands now minus after (negative when the changes add some)
   * @param measuredSeconds time waited on the wire in the window
   * @param driverTextStatements text executions the changes move to the driver's statement cache
   *     (its own CPU per text statement goes: the SQL re-parsed at every prepareStatement, the full
   *     text built at every execution); priced only where the server's CPU profiles are, at TiDB's
   *     parse CPU per statement (both scan the same SQL text; on BenchBase's TPC-C and SmallBank the
   *     JVM's CPU per statement fell by 1.25 and 1.4 times that)
   */
  static Result estimate(TrafficProfile profile, ServerView server, long businessStatements,
      double serverLatencySeconds, long commandsRemoved, double measuredSeconds, long driverTextStatements) {
    CpuUsage cpu = profile.cpu();
    if (cpu == null || !cpu.hostKnown() || cpu.windowNanos() <= 0 || businessStatements <= 0) {
      return Result.NOT_MEASURED;
    }
    double busy = cpu.hostBusyShare();
    double clientMs = cpu.processNanos() / 1e6 / businessStatements;
    boolean here = serverOnThisHost(profile);
    double serverSeconds = here && cpu.serverNanos() >= 0 ? cpu.serverNanos() / NANOS : Double.NaN;
    double serverMs = Double.isNaN(serverSeconds) ? Double.NaN : serverSeconds * 1e3 / businessStatements;
    double wait = cpu.hostCpuWaitShare();
    String host = String.format(Locale.ROOT, "host %.0f%% busy (%d cores)%s over the window", busy * 100, cpu.cores(),
        wait >= 0 ? String.format(Locale.ROOT, ", tasks waiting for a CPU %.0f%% of the time,", wait * 100) : "");
    if (!cpuBound(busy, wait)) {
      return new Result(true, false, busy, cpu.cores(), clientMs, serverMs, here, 0, 0, 0, 0, null, null);
    }
    if (here && Double.isNaN(serverSeconds)) {
      return new Result(true, true, busy, cpu.cores(), clientMs, serverMs, here, 0, 0, 0, 0, null,
          "CPU freed on this CPU-bound host (" + host + "; the database server shares it and its CPU was not"
              + " measured: the agent's serverStatusUrl option records TiDB's)");
    }
    double process = cpu.processNanos() / NANOS;
    double pool = process + (here ? serverSeconds : 0);
    if (pool <= 0) {
      return Result.NOT_MEASURED;
    }
    double freed = 0;
    boolean driverPriced = false;
    double k = 0;
    double upper = 0;
    String serverPart = "";
    if (here && serverLatencySeconds > 0) {
      ServerCpuProfile sp = cpu.serverProfile();
      double optimizer = optimizerTimeOnStatements(profile, server);
      if (sp != null && sp.sampledNanos() > 0 && optimizer > 0) {
        // Measured: the server's CPU profiles say which share of its CPU parsing, compiling and
        // digesting the applications' statements took; the changes remove the part of it their
        // statements' parse and compile latency is of all the profile's statements'.
        double coverage = Math.min(1, serverLatencySeconds / optimizer);
        freed += serverSeconds * sp.optimizerShare() * coverage;
        serverPart = String.format(Locale.ROOT, "parse, compile and digests %s of the server's CPU (its CPU"
            + " profiles, %.1f s sampled) x %.2f, the share of the profile's parse and compile time the changes"
            + " remove; ", Fmt.percent(sp.optimizerShare()), sp.sampledNanos() / NANOS, coverage);
        if (driverTextStatements > 0 && sp.parseNanos() > 0) {
          double parsePerStatement = serverSeconds * sp.parseNanos() / sp.sampledNanos() / businessStatements;
          double driver = parsePerStatement * Math.min(driverTextStatements, businessStatements);
          freed += driver;
          upper += driver;
          driverPriced = true;
          serverPart += String.format(Locale.ROOT, "the JDBC driver's own CPU per text statement at TiDB's parse"
              + " CPU of it, %.3f ms x %s; ", parsePerStatement * 1e3, Fmt.count(driverTextStatements));
        }
      } else {
        double l = serverTimeOnStatements(profile, server);
        k = l > 0 ? Math.min(1, serverSeconds / l) : 0;
        freed += serverLatencySeconds * k;
        serverPart = String.format(Locale.ROOT, "parse and compile %.3f s x %.2f, the server's CPU per second of its"
            + " statement time; ", serverLatencySeconds, k);
      }
      // Parse and compile at their full latency: all of it CPU, none of it waiting for CPU (an
      // upper bound of their CPU; at most the server's CPU in the window).
      upper += Math.min(serverLatencySeconds, serverSeconds);
    }
    long commands = profile.totalCommands();
    double perCommand = commands > 0 ? pool / commands : 0;
    freed += commandsRemoved * perCommand;
    upper += commandsRemoved * perCommand;
    freed = Math.max(0, Math.min(freed, pool));
    upper = Math.max(freed, Math.min(upper, pool));
    double share = freed / pool;
    double saved = share * measuredSeconds;
    String line = String.format(Locale.ROOT,
        "%s: per business statement %.3f ms CPU in the application%s; the changes free %.3f ms (%s"
            + " of it: %s%s at %.3f ms per command), so on these cores about %s of the time%s",
        host, clientMs,
        here ? String.format(Locale.ROOT, " and %.3f ms in the server", serverMs) : " (the server runs elsewhere)",
        freed * 1e3 / businessStatements, Fmt.percent(share),
        serverPart,
        commandsRemoved >= 0 ? Fmt.count(commandsRemoved) + " fewer wire commands"
            : Fmt.count(-commandsRemoved) + " more wire commands",
        perCommand * 1e3, Fmt.percent(share),
        upper > freed
            ? " (up to " + Fmt.percent(upper / pool) + " with parse and compile at their full latency, all"
                + " of it CPU)"
            : "");
    return new Result(true, true, busy, cpu.cores(), clientMs, serverMs, here, freed * 1e3 / businessStatements,
        share, upper / pool, saved, line, null, driverPriced);
  }

  /**
   * Whether statements queue for CPU: cores busy at least {@link #BUSY_SHARE} of the window, or at
   * least {@link #BUSY_SHARE_WITH_WAIT} with tasks waiting for a CPU at least {@link #WAIT_SHARE}
   * of it ({@code wait} -1 when the host's CPU wait is unknown).
   */
  static boolean cpuBound(double busy, double wait) {
    return busy >= BUSY_SHARE || wait >= WAIT_SHARE && busy >= BUSY_SHARE_WITH_WAIT;
  }

  /**
   * The server's time on the profile's statements: each shape's executions (all of them, probes
   * too) at its STATEMENTS_SUMMARY latency over the rows of its digest text; 0 without a view or a
   * match. A row mixes text executions, which miss the plan cache, with prepared ones that may hit
   * it; a hit and a miss differ by the parse and compile the hit skips, so a text execution is
   * priced at the average plus what a miss parses and compiles beyond the average ({@code
   * EXEC_COUNT - PLAN_CACHE_HITS} misses carry all the parse and compile time, as in the
   * estimates). Without that, prepared executions run after the profile's window (another
   * configuration, the summary's longer interval) lowered L while raising the parse and compile
   * per miss.
   */
  static double serverTimeOnStatements(TrafficProfile profile, ServerView server) {
    if (server == null) {
      return 0;
    }
    // text -> {executions, latency ns, misses, parse + compile ns (rows that have them)}
    Map<String, double[]> rows = new java.util.HashMap<>();
    for (StatementSummary row : server.statements()) {
      if (row.execCount() <= 0 || row.sumLatencyNanos() < 0) {
        continue;
      }
      double[] t = rows.computeIfAbsent(SummaryMatch.normalize(row.digestText()), x -> new double[4]);
      t[0] += row.execCount();
      t[1] += row.sumLatencyNanos();
      if (row.avgParseNanos() >= 0 && row.avgCompileNanos() >= 0) {
        t[2] += Math.max(0, row.execCount() - Math.max(0, row.planCacheHits()));
        t[3] += (double) (row.avgParseNanos() + row.avgCompileNanos()) * row.execCount();
      }
    }
    double seconds = 0;
    for (ShapeStats s : profile.shapes().values()) {
      double[] t = rows.get(SummaryMatch.normalize(s.digestText()));
      if (t == null || t[0] <= 0) {
        continue;
      }
      double avg = t[1] / t[0];
      double miss = t[2] > 0 ? avg + t[3] / t[2] - t[3] / t[0] : avg;
      long text = s.count(io.wireadvisor.profile.Via.TEXT_EXECUTES);
      seconds += (text * miss + Math.max(0, s.executions() - text) * avg) / NANOS;
    }
    return seconds;
  }

  /**
   * The server's parse and compile time on the profile's statements, from STATEMENTS_SUMMARY: a
   * text execution at what a plan-cache miss parses and compiles, any other at its row's average; 0
   * without a view, a match or the summary's parse and compile columns.
   */
  static double optimizerTimeOnStatements(TrafficProfile profile, ServerView server) {
    if (server == null) {
      return 0;
    }
    // text -> {executions, misses, parse + compile ns}
    Map<String, double[]> rows = new java.util.HashMap<>();
    for (StatementSummary row : server.statements()) {
      if (row.execCount() <= 0 || row.avgParseNanos() < 0 || row.avgCompileNanos() < 0) {
        continue;
      }
      double[] t = rows.computeIfAbsent(SummaryMatch.normalize(row.digestText()), x -> new double[3]);
      t[0] += row.execCount();
      t[1] += Math.max(0, row.execCount() - Math.max(0, row.planCacheHits()));
      t[2] += (double) (row.avgParseNanos() + row.avgCompileNanos()) * row.execCount();
    }
    double seconds = 0;
    for (ShapeStats s : profile.shapes().values()) {
      double[] t = rows.get(SummaryMatch.normalize(s.digestText()));
      if (t == null || t[0] <= 0) {
        continue;
      }
      double miss = t[1] > 0 ? t[2] / t[1] : t[2] / t[0];
      long text = s.count(io.wireadvisor.profile.Via.TEXT_EXECUTES);
      seconds += (text * miss + Math.max(0, s.executions() - text) * t[2] / t[0]) / NANOS;
    }
    return seconds;
  }

  /** True when every source's JDBC URL names a loopback host (and there is one). */
  static boolean serverOnThisHost(TrafficProfile profile) {
    boolean any = false;
    for (Source s : profile.sources()) {
      String url = s.jdbcUrl();
      if (url == null) {
        continue;
      }
      String host = host(url);
      if (host == null || !loopback(host)) {
        return false;
      }
      any = true;
    }
    return any;
  }

  /** The first host of a JDBC URL ({@code jdbc:mysql://h:p/db}), lower case; null when none. */
  static String host(String url) {
    int i = url.indexOf("//");
    if (i < 0) {
      return null;
    }
    String rest = url.substring(i + 2);
    int at = rest.indexOf('@');
    int slash = rest.indexOf('/');
    if (at >= 0 && (slash < 0 || at < slash)) {
      rest = rest.substring(at + 1);
    }
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      return close < 0 ? null : rest.substring(1, close).toLowerCase(Locale.ROOT);
    }
    int end = rest.length();
    for (char c : new char[] {':', '/', ',', '?'}) {
      int j = rest.indexOf(c);
      if (j >= 0 && j < end) {
        end = j;
      }
    }
    String h = rest.substring(0, end).toLowerCase(Locale.ROOT);
    return h.isEmpty() ? null : h;
  }

  static boolean loopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("0:0:0:0:0:0:0:1");
  }
}
