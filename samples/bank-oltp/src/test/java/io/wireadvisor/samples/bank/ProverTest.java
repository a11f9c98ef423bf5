package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.Severity;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.TrafficProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The loop's logic with a scripted bench and advisor; ProveIT runs it on the real server. */
class ProverTest {
  private final List<ChangePlan.Step> serverSide = new ArrayList<>();
  private final List<String> log = new ArrayList<>();

  private static ScenarioOutcome outcome(int step, double statementsPerSecond) {
    Histogram h = new Histogram(Histogram.COUNT_PRECISION);
    h.record(1000);
    long statements = Math.round(statementsPerSecond * 10);
    Workload.Result r = new Workload.Result(10, statements / 10, statements, statements, 0, 0, 0, List.of(), h, h, Map.of());
    Scenarios.Scenario s = new Scenarios.Scenario(step, "step " + step, "", "", Map.of(), false, new Scenarios.Published(0, 0));
    return new ScenarioOutcome(s, r, Map.of(), java.util.Set.of(), "test", null, new TrafficProfile(), List.of(), null);
  }

  private static Recommendation rec(String id, Change c) {
    return Recommendation.builder(id, id, Severity.HIGH).change(c).build();
  }

  /** Runs the loop; the advisor's advice depends on the configuration measured, as the real one's does. */
  private Prover.Result prove(int maxSteps, Function<ProveConfig, List<Recommendation>> advisor, double... throughput) {
    ProveConfig[] measured = new ProveConfig[1];
    Prover.Bench bench = (step, config) -> {
      measured[0] = config;
      return outcome(step, throughput[Math.min(step, throughput.length - 1)]);
    };
    Prover.Analyst analyst = profile -> new Prover.Advice(
        new Analysis(ProfileSummary.of(profile), null, advisor.apply(measured[0])), Map.of());
    return new Prover(bench, analyst, serverSide::add, "bank", maxSteps, log::add).run(ProveConfig.baseline("useServerPrepStmts=false"));
  }

  @Test
  void appliesTheAdviceUntilTheAdvisorHasNothingLeft() {
    Prover.Result r = prove(5, c -> {
      List<Recommendation> l = new ArrayList<>();
      if (!"true".equals(c.property("useServerPrepStmts"))) {
        l.add(rec("server-prepared-statements", Change.builder().jdbc("useServerPrepStmts", "true").build()));
      }
      if (c.property("cachePrepStmts") == null) {
        l.add(rec("prepared-statement-cache", Change.builder().jdbc("cachePrepStmts", "true").build()));
      }
      return l;
    }, 1000, 1500);
    assertThat(r.stop()).isEqualTo(Prover.Stop.FIXPOINT);
    assertThat(r.steps()).hasSize(2);
    assertThat(r.steps().get(1).appliedIds()).containsExactly("server-prepared-statements", "prepared-statement-cache");
    assertThat(r.finalConfig().urlParameters()).isEqualTo("useServerPrepStmts=true&cachePrepStmts=true");
    assertThat(r.last().advice().analysis().isEmpty()).isTrue();
    assertThat(serverSide).hasSize(1);
    assertThat(serverSide.get(0).globals()).isEmpty();
  }

  @Test
  void advisThatKeepsFiringWithAChangeAlreadyInEffectEndsTheLoopAsAFixpoint() {
    // A rule that fires whatever the settings (e.g. its evidence is traffic the settings cannot change).
    Prover.Result r = prove(10, c -> List.of(
        rec("server-prepared-statements", Change.builder().jdbc("useServerPrepStmts", "true").build()),
        rec("notes-only", Change.builder().note("change the code").build())), 100);
    assertThat(r.stop()).isEqualTo(Prover.Stop.FIXPOINT);
    assertThat(r.steps()).hasSize(2);
    assertThat(r.detail()).contains("already in effect").contains("server-prepared-statements", "notes-only");
  }

  @Test
  void stopsAtTheStepLimitWhenEveryRoundFindsSomethingNew() {
    Prover.Result r = prove(3, c -> {
      int size = c.property("prepStmtCacheSize") == null ? 25 : Integer.parseInt(c.property("prepStmtCacheSize"));
      return List.of(rec("prepared-statement-cache", Change.builder().jdbc("prepStmtCacheSize", String.valueOf(size + 25)).build()));
    }, 100);
    assertThat(r.stop()).isEqualTo(Prover.Stop.STEP_LIMIT);
    assertThat(r.steps()).hasSize(4);
    assertThat(r.finalConfig().property("prepStmtCacheSize")).isEqualTo("100");
    assertThat(r.detail()).contains("step limit 3", "prepared-statement-cache");
  }

  @Test
  void adviceGoingRoundInACircleIsDetected() {
    Prover.Result r = prove(10, c -> List.of(rec("flip",
        Change.builder().jdbc("useServerPrepStmts", "true".equals(c.property("useServerPrepStmts")) ? "false" : "true").build())), 100);
    assertThat(r.stop()).isEqualTo(Prover.Stop.LOOP);
    assertThat(r.steps()).hasSize(2);
  }

  @Test
  void serverSideChangesAreHandedOnAndANegativeStepIsReportedAsNegative() {
    Prover.Result r = prove(5, c -> c.globals().isEmpty()
        ? List.of(rec("tidb-rc-read-check-ts", Change.builder().sql("SET GLOBAL tidb_rc_read_check_ts = ON;").build()),
            rec("tidb-cached-tables", Change.builder().sql("ALTER TABLE `bank`.`branch` CACHE;").build()))
        : List.of(), 1000, 900);
    assertThat(r.stop()).isEqualTo(Prover.Stop.FIXPOINT);
    assertThat(serverSide).singleElement().satisfies(s -> {
      assertThat(s.globals()).containsExactly(Map.entry("tidb_rc_read_check_ts", "ON"));
      assertThat(s.tables()).containsExactly("branch");
    });
    ProveReport report = new ProveReport("TIDB test", "jdbc:mysql://h:4000/bank?" + r.finalConfig().urlParameters(),
        new Workload.Settings(1, Duration.ZERO, Duration.ofSeconds(1), 1, 1), "agent (test)", r);
    assertThat(report.rows().get(1).get(3)).isEqualTo("-10.0% (slower)");
    assertThat(report.terminal()).contains("Overall: -10.0% (slower)", "Globals set: {tidb_rc_read_check_ts=ON}",
        "Cached tables: 1 [branch]", "FIXPOINT");
  }

  @Test
  void aWindowThinnerThanAskedForIsFlaggedInTheReport() {
    Prover.Result r = prove(2, c -> List.of(), 10);
    ProveReport report = new ProveReport("x", "u", new Workload.Settings(1, Duration.ZERO, Duration.ofSeconds(1), 1, 1, 2000), "a", r);
    assertThat(report.terminal()).contains("step 0: only 100 business statements in 10 s (fewer than the 2,000 asked for)");
    ProveReport enough = new ProveReport("x", "u", new Workload.Settings(1, Duration.ZERO, Duration.ofSeconds(1), 1, 1, 100), "a", r);
    assertThat(enough.terminal()).doesNotContain("fewer than");
  }

  /** The first screen of step 0 beside the measured gain: issue 25's comparison, from the same window. */
  @Test
  void theReportPutsTheBaselinesFirstScreenBesideTheMeasuredGain() throws Exception {
    Outlook first = new Outlook(20, "TIDB test", Outlook.ServerKind.TIDB, 4000, Map.of("COM_QUERY", 5000L),
        Map.of("COM_STMT_EXECUTE", 4000L), 80, 20, List.of(), List.of(), 4000, "host 100% busy (2 cores) over the window: ...");
    ProveConfig[] measured = new ProveConfig[1];
    Prover.Bench bench = (step, config) -> {
      measured[0] = config;
      return outcome(step, step == 0 ? 300 : 750);
    };
    Prover.Analyst analyst = profile -> {
      boolean base = measured[0].property("useServerPrepStmts").equals("false");
      List<Recommendation> recs = base
          ? List.of(rec("server-prepared-statements", Change.builder().jdbc("useServerPrepStmts", "true").build()))
          : List.of();
      return new Prover.Advice(new Analysis(ProfileSummary.of(profile), null, recs, base ? first : null, List.of(), List.of(),
          Map.of()), Map.of());
    };
    Prover.Result r = new Prover(bench, analyst, serverSide::add, "bank", 3, log::add)
        .run(ProveConfig.baseline("useServerPrepStmts=false"));
    ProveReport report = new ProveReport("x", "u", new Workload.Settings(1, Duration.ZERO, Duration.ofSeconds(1), 1, 1), "a", r);
    // 20 s of 80 s on the wire is 25%; 300 -> 750 stmt/s is 60% less time per statement.
    assertThat(report.terminal()).contains("First screen at step 0: estimated saving 25.0% of the time on the wire (CPU-bound"
        + " model); measured, step 0 to step 1: 60.0% less time per business statement (estimate / measured = 0.42)");
    String json = report.jsonText();
    assertThat(json).contains("\"estimatedSavingShare\" : 0.25", "\"measuredLessTimePerStatement\" : 0.6", "\"toStep\" : 1",
        "\"cpuBound\" : \"host 100% busy");
    // A baseline analysis without an outlook (or a single step) has no comparison to make.
    ProveReport none = new ProveReport("x", "u", new Workload.Settings(1, Duration.ZERO, Duration.ofSeconds(1), 1, 1), "a",
        prove(3, c -> List.of(), 300));
    assertThat(none.terminal()).doesNotContain("First screen");
    assertThat(none.jsonText()).contains("\"firstScreen\" : null");
  }

  @Test
  void aFailingStepEndsTheLoopAndSaysWhy() {
    Prover.Bench bench = (step, config) -> {
      throw new java.sql.SQLException("connection refused");
    };
    Prover.Result r = new Prover(bench, p -> null, serverSide::add, "bank", 3, log::add).run(ProveConfig.baseline(""));
    assertThat(r.stop()).isEqualTo(Prover.Stop.FAILED);
    assertThat(r.detail()).contains("connection refused");
    assertThat(new ProveReport("x", "u", new Workload.Settings(1, Duration.ZERO, Duration.ofSeconds(1), 1, 1), "a", r).terminal())
        .contains("FAILED");
  }
}
