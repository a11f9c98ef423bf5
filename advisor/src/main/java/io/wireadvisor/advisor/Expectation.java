package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;

/**
 * What a recommendation should change in the traffic, machine-checkable: {@code metric} goes from
 * {@code before} to at most {@code target}. Server-side effects the profile cannot show (plan-cache
 * hits, TSO requests) are expectations without a metric, checked by their verify text.
 */
public final class Expectation {
  private final Metric metric;
  private final double before;
  private final double target;
  private final String description;
  /** The change needs a code edit the report cannot make ({@link #codeChange}); else false. */
  private boolean codeChange;
  /** {@link Metric#count} on the profile before, -1 when not counted. */
  private long beforeCount = -1;

  private Expectation(Metric metric, double before, double target, String description) {
    this.metric = metric;
    this.before = before;
    this.target = target;
    this.description = description;
  }

  /**
   * As {@link #atMost}, for a change that needs a code edit (a mapping's {@code mappedBy}): where
   * the later profile shows the metric not fallen (at least {@link #NOT_APPLIED_SHARE} of the value
   * before), the edit was evidently not made and the outcome is {@link Outcome.Status#NOT_APPLIED},
   * not a failure; the executions before and after are shown.
   */
  public static Expectation atMostAfterCodeChange(Metric metric, TrafficProfile before, double target) {
    Expectation e = atMost(metric, before, target);
    e.codeChange = true;
    e.beforeCount = metric.count(before);
    return e;
  }

  /** Share of the value before at or above which a code change counts as not applied. */
  static final double NOT_APPLIED_SHARE = 0.9;

  /** Whether meeting this needs a code edit ({@link #atMostAfterCodeChange}). */
  public boolean codeChange() {
    return codeChange;
  }

  /** {@code metric} must fall to at most {@code target}; {@code before} is taken from the profile. */
  public static Expectation atMost(Metric metric, TrafficProfile before, double target) {
    double b = metric.compute(before);
    return new Expectation(
        metric,
        b,
        target,
        metric.label() + " goes from " + Metric.format(b) + " to at most " + Metric.format(target));
  }

  /** An effect only the server shows; {@code description} says where to look. */
  public static Expectation serverSide(String description) {
    return new Expectation(null, Double.NaN, Double.NaN, description);
  }

  /** Restores an expectation (reading an analysis back from JSON). */
  public static Expectation of(Metric metric, double before, double target, String description) {
    return new Expectation(metric, before, target, description);
  }

  /** The metric, or null for a server-side expectation. */
  public Metric metric() {
    return metric;
  }

  public double before() {
    return before;
  }

  public double target() {
    return target;
  }

  /** E.g. "CLOSE per EXECUTE goes from 1.00 to at most 0.05". */
  public String description() {
    return description;
  }

  /** Judges a later profile. */
  public Outcome check(TrafficProfile after) {
    if (metric == null) {
      return new Outcome(this, Double.NaN, Outcome.Status.NOT_MEASURABLE);
    }
    double a = metric.compute(after);
    if (Double.isNaN(a)) {
      return new Outcome(this, a, Outcome.Status.NOT_MEASURABLE);
    }
    // A tiny tolerance so that "at most 0.05" accepts 0.05 computed as 0.0500000001.
    if (a <= target + 1e-9) {
      return new Outcome(this, a, Outcome.Status.MET);
    }
    if (codeChange && a >= NOT_APPLIED_SHARE * before) {
      return new Outcome(this, a, Outcome.Status.NOT_APPLIED,
          "a code change, evidently not made: executions before " + count(beforeCount) + ", after "
              + count(metric.count(after)));
    }
    return new Outcome(this, a, Outcome.Status.NOT_MET);
  }

  private static String count(long n) {
    return n < 0 ? "n/a" : Fmt.count(n);
  }

  @Override
  public String toString() {
    return description;
  }

  /** The result of checking one expectation against a later profile. */
  public static final class Outcome {
    /** Whether the later profile shows the change. */
    public enum Status {
      MET,
      NOT_MET,
      /** Server-side, or the later profile lacks the traffic to judge. */
      NOT_MEASURABLE,
      /**
       * The change needs a code edit and the later profile shows it was not made (the metric did
       * not fall): not a failure of the advice ({@code diff} does not fail on it).
       */
      NOT_APPLIED
    }

    private final Expectation expectation;
    private final double after;
    private final Status status;

    private final String note;

    Outcome(Expectation expectation, double after, Status status) {
      this(expectation, after, status, null);
    }

    Outcome(Expectation expectation, double after, Status status, String note) {
      this.expectation = expectation;
      this.after = after;
      this.status = status;
      this.note = note;
    }

    /** Why the status, beyond the numbers (NOT_APPLIED: the executions before and after), or null. */
    public String note() {
      return note;
    }

    public Expectation expectation() {
      return expectation;
    }

    public double after() {
      return after;
    }

    public Status status() {
      return status;
    }
  }
}
