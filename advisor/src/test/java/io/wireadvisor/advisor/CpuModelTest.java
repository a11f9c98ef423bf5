package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.CpuUsage;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ServerCpuProfile;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.StatementSummary;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CPU-bound model (docs/advisor.md, "CPU-bound hosts"): the saving follows the CPU the changes
 * free when the host's cores were busy, and only then.
 */
class CpuModelTest {
  private static final long PARSE = 100_000;
  private static final long COMPILE = 400_000;
  /** TiDB's average latency per execution of the two timed statements (summary). */
  private static final long SERVER_LATENCY = 2_000_000;
  private static final long WINDOW = 20_000_000_000L;

  /** Scenario 1 of the bank-like workload, its URL on {@code host}, 100,000 COM_QUERY timed at 2 ms. */
  private static TrafficProfile text(String host) throws Exception {
    String json = ProfileJson.toJson(BankLikeProfiles.scenario(1)).replace("jdbc:mysql://tidb:4000/", "jdbc:mysql://" + host + "/");
    TrafficProfile p = ProfileJson.fromJson(json);
    Histogram h = new Histogram(Histogram.LATENCY_PRECISION);
    for (int i = 0; i < 100_000; i++) {
      h.record(2_000_000);
    }
    p.addCommand(CommandType.QUERY, new CommandStats(0, h));
    return p;
  }

  private static TrafficProfile withCpu(TrafficProfile p, double busy, long process, long server) {
    return withCpu(p, busy, process, server, -1);
  }

  /** {@code wait}: the share of the window tasks waited for a CPU (PSI), -1 unknown. */
  private static TrafficProfile withCpu(TrafficProfile p, double busy, long process, long server, double wait) {
    TrafficProfile c = p.merge(new TrafficProfile());
    long host = 2 * WINDOW;
    c.addCpu(new CpuUsage(WINDOW, process, 2, Math.round(busy * host), host).withServerNanos(server)
        .withHostCpuWaitNanos(wait < 0 ? -1 : Math.round(wait * WINDOW)));
    return c;
  }

  /** Summary rows of shapes 0 and 1: parse + compile 0.5 ms, 2 ms on the server per execution. */
  private static ServerView tidb() {
    ServerView.Builder b = BankLikeProfiles.tidb(1).toBuilder();
    for (int i = 0; i < 2; i++) {
      b.statement(new StatementSummary("bank", "select `bank` . `" + BankLikeProfiles.table(BankLikeProfiles.WRITTEN_TABLES + i)
          + "` /* shape " + i + " */", 1000, 0, false, 1000 * SERVER_LATENCY, "d" + i, 1)
          .withPlanCacheFacts(0, null, PARSE, COMPILE));
    }
    return b.build();
  }

  private static long removed(Outlook o) {
    long n = 0;
    for (long v : o.commandsNow().values()) {
      n += v;
    }
    for (long v : o.commandsAfter().values()) {
      n -= v;
    }
    return n;
  }

  @Test
  void aCpuBoundHostSavesTheShareOfCpuTheChangesFree() throws Exception {
    TrafficProfile plain = text("127.0.0.1:4000");
    long process = 2_000_000_000L;
    long server = 4_000_000_000L;
    TrafficProfile busy = withCpu(plain, 0.97, process, server);
    Outlook latencyOnly = Advisor.analyze(plain, tidb()).outlook();
    Analysis a = Advisor.analyze(busy, tidb());
    Outlook o = a.outlook();

    // What the model counts, from the inputs: parse + compile of the two timed shapes' text
    // executions, as CPU at the server's CPU per second of its statement time; the net wire
    // commands removed at the window's CPU per command of both processes.
    long timed = 2 * BankLikeProfiles.EXECUTIONS_PER_SHAPE;
    double optimizer = timed * (PARSE + COMPILE) / 1e9;
    double serverTime = timed * SERVER_LATENCY / 1e9;
    double k = Math.min(1, server / 1e9 / serverTime);
    double pool = (process + server) / 1e9;
    double freed = optimizer * k + removed(o) * pool / busy.totalCommands();
    double expected = Math.max(0, freed) / pool * o.measuredSeconds();
    assertThat(o.secondsSaved()).isCloseTo(Math.min(Math.max(latencyOnly.secondsSaved(), expected), o.measuredSeconds()),
        within(1e-6));
    assertThat(expected).isGreaterThan(latencyOnly.secondsSaved());
    assertThat(o.secondsSaved()).isGreaterThan(latencyOnly.secondsSaved());
    assertThat(o.cpuLine()).contains("host 97% busy (2 cores)").contains("in the server").contains("parse and compile");
    // The upper end: parse and compile at their full latency (at most the server's CPU).
    double upper = (Math.min(optimizer, server / 1e9) + removed(o) * pool / busy.totalCommands()) / pool;
    assertThat(o.cpuLine()).contains("up to " + Fmt.percent(upper) + " with parse and compile at their full latency");
    // Priced: the phrase that it is not counted goes; the driver's own CPU stays not counted.
    assertThat(o.notEstimated()).noneSatisfy(n -> assertThat(n).contains("busy cores"));
    assertThat(o.notEstimated()).anySatisfy(n -> assertThat(n).contains("driver's own CPU"));
    assertThat(Reports.text(a)).contains("CPU-bound: host 97% busy");
    assertThat(Reports.json(a)).contains("\"cpuBound\" : \"host 97% busy");
    assertThat(Reports.html(a)).contains("id=\"cpu-bound\"");
  }

  /**
   * With the server's CPU profiles (the agent's serverCpuProfile), the server CPU the changes free
   * is measured, not converted from latency: the profiles' parse, compile and digest share of the
   * server's CPU, times the share of the profile's parse and compile time the changes remove.
   */
  @Test
  void theServersCpuProfilesPriceParseAndCompileAsTheCpuTheyTook() throws Exception {
    TrafficProfile plain = text("127.0.0.1:4000");
    long process = 2_000_000_000L;
    long server = 4_000_000_000L;
    TrafficProfile busy = withCpu(plain, 0.97, process, server);
    // 30% of the sampled CPU parsing, compiling and digesting, of it 5% in digests.
    ServerCpuProfile sp = new ServerCpuProfile(10_000_000_000L, 7_000_000_000L, 1_000_000_000L,
        1_500_000_000L, 500_000_000L, 200_000_000L, 2);
    TrafficProfile profiled = busy.merge(new TrafficProfile());
    profiled.cpu().add(new CpuUsage(0, 0, 0, 0, 0).withServerNanos(0).withServerProfile(sp));
    assertThat(profiled.cpu().serverProfile()).isEqualTo(sp);
    Outlook withoutProfiles = Advisor.analyze(busy, tidb()).outlook();
    Analysis a = Advisor.analyze(profiled, tidb());
    Outlook o = a.outlook();

    // The changes remove every timed text execution's parse and compile (the summary's only
    // statements), so the whole measured share is freed.
    double pool = (process + server) / 1e9;
    // The driver's own CPU per text statement the cache takes away, priced at TiDB's parse CPU per
    // statement (10% of the sampled CPU here) for each repeated text execution.
    Workload w = Workload.of(profiled);
    assertThat(w.repeatedTextExecutions).isPositive();
    double driver = server / 1e9 * 0.10 / w.businessExecutions * Math.min(w.repeatedTextExecutions, w.businessExecutions);
    double freed = server / 1e9 * 0.30 + driver + removed(o) * pool / profiled.totalCommands();
    double expected = Math.max(0, freed) / pool * o.measuredSeconds();
    assertThat(o.secondsSaved()).isCloseTo(Math.min(expected, o.measuredSeconds()), within(1e-6));
    assertThat(o.cpuLine()).contains("the JDBC driver's own CPU per text statement at TiDB's parse CPU of it");
    // Priced, so no longer under "not counted"; without the profiles it still is.
    assertThat(o.notEstimated()).noneSatisfy(n -> assertThat(n).contains("the JDBC driver's own CPU"));
    assertThat(withoutProfilesNotCounted(busy)).anySatisfy(n -> assertThat(n).contains("the JDBC driver's own CPU"));
    // Here the latency conversion (k) priced parse and compile lower than the CPU they took.
    assertThat(o.secondsSaved()).isGreaterThan(withoutProfiles.secondsSaved());
    assertThat(o.cpuLine()).contains("parse, compile and digests 30.0% of the server's CPU (its CPU profiles,"
        + " 10.0 s sampled) x 1.00");
    assertThat(Reports.text(a)).contains("its CPU profiles");
  }

  private static java.util.List<String> withoutProfilesNotCounted(TrafficProfile busy) {
    return Advisor.analyze(busy, tidb()).outlook().notEstimated();
  }

  @Test
  void aHostWithIdleCoresGetsNoCpuSaving() throws Exception {
    TrafficProfile plain = text("127.0.0.1:4000");
    Outlook latencyOnly = Advisor.analyze(plain, tidb()).outlook();
    // One thread on a quiet machine: half the cores idle.
    Analysis a = Advisor.analyze(withCpu(plain, 0.5, 2_000_000_000L, 4_000_000_000L), tidb());
    assertThat(a.outlook().cpuLine()).isNull();
    assertThat(a.outlook().secondsSaved()).isEqualTo(latencyOnly.secondsSaved());
    // Measured, and nothing waits for CPU: no "CPU freed" gain is left out either.
    assertThat(a.outlook().notEstimated()).noneSatisfy(n -> assertThat(n).contains("CPU freed"));
    assertThat(Reports.json(a)).contains("\"cpuBound\" : null");
    // Unmeasured (a proxy's profile, an older agent): the gain is named as not counted, as before.
    assertThat(Advisor.analyze(plain, tidb()).outlook().notEstimated())
        .anySatisfy(n -> assertThat(n).contains("share busy cores"));
  }

  @Test
  void aHostWhoseTasksWaitedForCpuIsCpuBoundBelowTheBusyShare() throws Exception {
    TrafficProfile plain = text("127.0.0.1:4000");
    long process = 2_000_000_000L;
    long server = 4_000_000_000L;
    Outlook latencyOnly = Advisor.analyze(plain, tidb()).outlook();
    Outlook saturated = Advisor.analyze(withCpu(plain, 0.97, process, server), tidb()).outlook();
    // 87% busy: below the busy share, so without the host's CPU wait the model stays off...
    assertThat(Advisor.analyze(withCpu(plain, 0.87, process, server), tidb()).outlook().cpuLine()).isNull();
    // ...and with tasks waiting for a CPU 46% of the window (BenchBase's TPC-C: closed-loop
    // terminals that also wait on locks) it prices the CPU the changes free, as at 97%.
    TrafficProfile waited = withCpu(plain, 0.87, process, server, 0.46);
    Outlook o = Advisor.analyze(waited, tidb()).outlook();
    assertThat(o.cpuLine()).contains("host 87% busy (2 cores), tasks waiting for a CPU 46% of the time,");
    assertThat(o.secondsSaved()).isGreaterThan(latencyOnly.secondsSaved())
        .isCloseTo(saturated.secondsSaved(), within(1e-9));
    // Little CPU wait, or a burst of it on a host mostly idle: not CPU-bound.
    assertThat(Advisor.analyze(withCpu(plain, 0.87, process, server, 0.2), tidb()).outlook().cpuLine()).isNull();
    assertThat(Advisor.analyze(withCpu(plain, 0.6, process, server, 0.5), tidb()).outlook().cpuLine()).isNull();
    assertThat(CpuModel.cpuBound(0.9, -1)).isTrue();
    assertThat(CpuModel.cpuBound(0.89, -1)).isFalse();
    assertThat(CpuModel.cpuBound(0.75, 0.3)).isTrue();
    assertThat(CpuModel.cpuBound(0.74, 1)).isFalse();
    assertThat(CpuModel.cpuBound(0.85, 0.29)).isFalse();
  }

  @Test
  void aCpuBoundHostWithoutTheServersCpuSaysWhatIsMissing() throws Exception {
    TrafficProfile plain = text("localhost:4000");
    Outlook latencyOnly = Advisor.analyze(plain, tidb()).outlook();
    Outlook o = Advisor.analyze(withCpu(plain, 0.99, 2_000_000_000L, -1), tidb()).outlook();
    assertThat(o.cpuLine()).isNull();
    assertThat(o.secondsSaved()).isEqualTo(latencyOnly.secondsSaved());
    assertThat(o.notEstimated()).anySatisfy(n -> assertThat(n).contains("CPU-bound").contains("serverStatusUrl"));
  }

  @Test
  void aServerElsewhereCountsOnlyTheApplicationsCpu() throws Exception {
    TrafficProfile plain = text("tidb.example:4000");
    long process = 2_000_000_000L;
    TrafficProfile busy = withCpu(plain, 0.95, process, 4_000_000_000L);
    Outlook o = Advisor.analyze(busy, tidb()).outlook();
    Outlook latencyOnly = Advisor.analyze(plain, tidb()).outlook();
    assertThat(o.cpuLine()).contains("the server runs elsewhere").doesNotContain("parse and compile");
    double freed = removed(o) * (process / 1e9) / busy.totalCommands();
    double expected = Math.max(0, freed) / (process / 1e9) * o.measuredSeconds();
    assertThat(o.secondsSaved()).isCloseTo(Math.min(Math.max(latencyOnly.secondsSaved(), expected), o.measuredSeconds()),
        within(1e-6));
  }

  @Test
  void preparedExecutionsInTheSummaryDoNotLowerATextExecutionsServerTime() throws Exception {
    TrafficProfile p = text("127.0.0.1:4000");
    double textOnly = CpuModel.serverTimeOnStatements(p, tidb());
    assertThat(textOnly).isCloseTo(2 * BankLikeProfiles.EXECUTIONS_PER_SHAPE * SERVER_LATENCY / 1e9, within(1e-9));
    // The same digests also ran 1,000 times prepared from the plan cache after the window: each hit
    // took the miss's latency less its parse and compile. A text execution still costs a miss.
    ServerView.Builder b = BankLikeProfiles.tidb(1).toBuilder();
    long pc = PARSE + COMPILE;
    for (int i = 0; i < 2; i++) {
      long sum = 1000 * SERVER_LATENCY + 1000 * (SERVER_LATENCY - pc);
      b.statement(new StatementSummary("bank", "select `bank` . `" + BankLikeProfiles.table(BankLikeProfiles.WRITTEN_TABLES + i)
          + "` /* shape " + i + " */", 2000, 1000, true, sum, "d" + i, 1)
          .withPlanCacheFacts(0, null, PARSE / 2, COMPILE / 2));
    }
    assertThat(CpuModel.serverTimeOnStatements(p, b.build())).isCloseTo(textOnly, within(1e-6));
  }

  @Test
  void readsTheHostOfAJdbcUrl() {
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put("jdbc:mysql://127.0.0.1:4000/bank", "127.0.0.1");
    cases.put("jdbc:mysql://LocalHost/bank", "localhost");
    cases.put("jdbc:mysql://[::1]:3306/", "::1");
    cases.put("jdbc:mysql://user@db.example:3306/x", "db.example");
    cases.put("jdbc:mysql://h1:1,h2:2/x", "h1");
    for (Map.Entry<String, String> e : cases.entrySet()) {
      assertThat(CpuModel.host(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
    }
    assertThat(CpuModel.host("jdbc:mysql:")).isNull();
    assertThat(CpuModel.loopback("127.0.0.1")).isTrue();
    assertThat(CpuModel.loopback("::1")).isTrue();
    assertThat(CpuModel.loopback("10.0.0.1")).isFalse();
  }
}
