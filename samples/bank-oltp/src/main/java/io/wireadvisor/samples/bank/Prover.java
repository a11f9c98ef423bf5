package io.wireadvisor.samples.bank;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.profile.TrafficProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code prove} loop: measure the baseline, give its traffic profile to the advisor, apply what
 * it recommends, measure again, until the advisor has nothing left that changes anything
 * (fixpoint), the step limit is reached, or a configuration repeats (the advice goes round in a
 * circle). Every step is kept, whatever its measured effect.
 *
 * <p>The three collaborators are interfaces so the loop itself is tested without a server; the
 * {@code prove} command and {@code ProveIT} give it the real workload, agent, inspector and
 * {@link ServerStateGuard}.
 */
public final class Prover {
  /** Runs the workload for one measured window under {@code config} (its server changes applied). */
  public interface Bench {
    ScenarioOutcome measure(int step, ProveConfig config) throws Exception;
  }

  /** Analyses a step's profile with the server as it is now. */
  public interface Analyst {
    Advice analyze(TrafficProfile profile) throws Exception;
  }

  /** The advisor's analysis and the server's current globals (so advice already in effect is not re-applied). */
  public record Advice(Analysis analysis, Map<String, String> serverGlobals) {}

  /** Applies a step's server-side changes (globals, table cache), remembering how to undo them. */
  public interface ServerSide {
    void apply(ChangePlan.Step step) throws Exception;
  }

  /** Why the loop ended. */
  public enum Stop {
    /** The advisor recommends nothing that would change the configuration. */
    FIXPOINT,
    /** {@code maxSteps} changes were applied and measured; the advisor still had more. */
    STEP_LIMIT,
    /** Applying the advice led back to a configuration already measured. */
    LOOP,
    /** A step could not be measured or analysed. */
    FAILED
  }

  /**
   * One measured configuration.
   *
   * @param index 0 for the baseline
   * @param appliedIds the recommendations whose changes led from the previous step to this one
   * @param applied those changes
   * @param outcome what the window measured (agent profile included)
   * @param advice the advisor's view of this step's profile; null when the step failed
   * @param planned what each of its recommendations would change next
   */
  public record Step(
      int index,
      ProveConfig config,
      List<String> appliedIds,
      ChangePlan.Step applied,
      ScenarioOutcome outcome,
      Advice advice,
      List<ChangePlan.Planned> planned) {

    public double statementsPerSecond() {
      return outcome != null && outcome.ok() ? outcome.statementsPerSecond() : Double.NaN;
    }
  }

  /** The whole path. */
  public record Result(List<Step> steps, Stop stop, String detail) {
    public Result {
      steps = List.copyOf(steps);
    }

    public Step baseline() {
      return steps.get(0);
    }

    public Step last() {
      return steps.get(steps.size() - 1);
    }

    /** The configuration the loop ended in (the last one measured). */
    public ProveConfig finalConfig() {
      return last().config();
    }
  }

  private final Bench bench;
  private final Analyst analyst;
  private final ServerSide serverSide;
  private final String database;
  private final int maxSteps;
  private final Consumer<String> log;

  /**
   * @param maxSteps how many times advice may be applied (the baseline is measured in addition)
   */
  public Prover(Bench bench, Analyst analyst, ServerSide serverSide, String database, int maxSteps, Consumer<String> log) {
    if (maxSteps < 0) {
      throw new IllegalArgumentException("max steps must be >= 0, was " + maxSteps);
    }
    this.bench = bench;
    this.analyst = analyst;
    this.serverSide = serverSide;
    this.database = database;
    this.maxSteps = maxSteps;
    this.log = log;
  }

  public Result run(ProveConfig baseline) {
    List<Step> steps = new ArrayList<>();
    List<ProveConfig> seen = new ArrayList<>();
    ProveConfig config = baseline;
    List<String> appliedIds = List.of();
    ChangePlan.Step applied = ChangePlan.merge(List.of());
    for (int i = 0; ; i++) {
      seen.add(config);
      log.accept("Step " + i + ": " + (i == 0 ? "baseline " : "after " + appliedIds + " ") + config.urlParameters()
          + (config.globals().isEmpty() ? "" : " " + config.globals())
          + (config.cachedTables().isEmpty() ? "" : " + " + config.cachedTables().size() + " cached tables"));
      ScenarioOutcome outcome;
      Advice advice;
      try {
        outcome = bench.measure(i, config);
        if (!outcome.ok()) {
          steps.add(new Step(i, config, appliedIds, applied, outcome, null, List.of()));
          return new Result(steps, Stop.FAILED, "step " + i + " failed: " + outcome.failure());
        }
        if (outcome.agent() == null) {
          throw new IllegalStateException("step " + i + " has no agent profile to analyse");
        }
        advice = analyst.analyze(outcome.agent());
      } catch (Exception e) {
        steps.add(new Step(i, config, appliedIds, applied, null, null, List.of()));
        return new Result(steps, Stop.FAILED, "step " + i + ": " + e);
      }
      List<ChangePlan.Planned> planned =
          new ChangePlan(database, advice.serverGlobals()).plan(config, advice.analysis().recommendations());
      steps.add(new Step(i, config, appliedIds, applied, outcome, advice, planned));
      for (ChangePlan.Planned p : planned) {
        log.accept("  advisor: " + p.id() + " -> " + (p.applicable() ? p.step().describe() : "nothing new to apply")
            + (p.skipped().isEmpty() ? "" : "; skipped " + p.skipped()));
      }
      List<ChangePlan.Planned> next = planned.stream().filter(ChangePlan.Planned::applicable).toList();
      if (next.isEmpty()) {
        return new Result(steps, Stop.FIXPOINT,
            advice.analysis().isEmpty()
                ? "the advisor recommends nothing"
                : "every remaining recommendation is already in effect or has no change this sample applies: "
                    + advice.analysis().ids());
      }
      if (i >= maxSteps) {
        return new Result(steps, Stop.STEP_LIMIT,
            "step limit " + maxSteps + " reached; still recommended: " + next.stream().map(ChangePlan.Planned::id).toList());
      }
      applied = ChangePlan.merge(next);
      ProveConfig following = config.with(applied);
      if (seen.contains(following)) {
        return new Result(steps, Stop.LOOP, "applying " + applied.describe() + " leads back to a configuration already measured");
      }
      try {
        serverSide.apply(applied);
      } catch (Exception e) {
        return new Result(steps, Stop.FAILED, "applying " + applied.describe() + " failed: " + e);
      }
      appliedIds = next.stream().map(ChangePlan.Planned::id).toList();
      config = following;
    }
  }
}
