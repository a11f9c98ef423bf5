package io.wireadvisor.samples.bank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One scenario measured in several windows, interleaved with the other scenarios (round 1: S1…S7,
 * round 2: S1…S7, …) so that a slow minute of a noisy machine hits every scenario alike. Figures
 * are medians; the spread says how far the windows disagreed.
 *
 * @param runs every window of this scenario, in the order they ran
 */
public record ScenarioRuns(List<ScenarioOutcome> runs) {
  public ScenarioRuns {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a scenario needs at least one run");
    }
    runs = List.copyOf(runs);
  }

  private List<ScenarioOutcome> okBySpeed() {
    List<ScenarioOutcome> ok = new ArrayList<>();
    for (ScenarioOutcome o : runs) {
      if (o.ok()) {
        ok.add(o);
      }
    }
    ok.sort(Comparator.comparingDouble(ScenarioOutcome::statementsPerSecond));
    return ok;
  }

  /** The window at the median of business statements/s (the lower middle one for an even count); a failed run if all failed. */
  public ScenarioOutcome representative() {
    List<ScenarioOutcome> ok = okBySpeed();
    return ok.isEmpty() ? runs.get(0) : ok.get((ok.size() - 1) / 2);
  }

  /** Median business statements/s over the windows that succeeded. */
  public double medianStatementsPerSecond() {
    List<ScenarioOutcome> ok = okBySpeed();
    if (ok.isEmpty()) {
      return Double.NaN;
    }
    int n = ok.size();
    double lower = ok.get((n - 1) / 2).statementsPerSecond();
    double upper = ok.get(n / 2).statementsPerSecond();
    return (lower + upper) / 2;
  }

  /** (max − min) / median of business statements/s; null with fewer than two good windows. */
  public Double spread() {
    if (okBySpeed().size() < 2) {
      return null;
    }
    return (fastest() - slowest()) / medianStatementsPerSecond();
  }

  /** The slowest good window's business statements/s; NaN when none succeeded. */
  public double slowest() {
    List<ScenarioOutcome> ok = okBySpeed();
    return ok.isEmpty() ? Double.NaN : ok.get(0).statementsPerSecond();
  }

  /** The fastest good window's business statements/s; NaN when none succeeded. */
  public double fastest() {
    List<ScenarioOutcome> ok = okBySpeed();
    return ok.isEmpty() ? Double.NaN : ok.get(ok.size() - 1).statementsPerSecond();
  }

  /** The scenarios measured in {@code rounds}, each a list of every scenario's outcome in one round. */
  static List<ScenarioRuns> fromRounds(List<List<ScenarioOutcome>> rounds) {
    List<ScenarioRuns> out = new ArrayList<>();
    for (int i = 0; i < rounds.get(0).size(); i++) {
      List<ScenarioOutcome> runs = new ArrayList<>();
      for (List<ScenarioOutcome> round : rounds) {
        runs.add(round.get(i));
      }
      out.add(new ScenarioRuns(runs));
    }
    return out;
  }
}
