package io.wireadvisor.advisor;

import java.util.Objects;

/**
 * What one recommendation is estimated to save in the profile's window: wire round trips (as
 * measured before, as estimated after) and application time, with the assumption in words.
 *
 * <p>Filled by the rules (issue 14); read by every report.
 */
public final class Saving {
  private final long roundTripsBefore;
  private final long roundTripsAfter;
  private final double secondsSaved;
  private final String assumption;
  private final java.util.Map<String, Long> commandDelta;

  /**
   * @param roundTripsBefore wire commands in the window that this change concerns, as measured
   * @param roundTripsAfter estimated wire commands for the same work after the change
   * @param secondsSaved estimated application time saved in the window, in seconds (&ge; 0)
   * @param assumption how the estimate was made, e.g. "each removed round trip costs the
   *     measured median COM_STMT_PREPARE latency (0.21 ms)"
   */
  public Saving(long roundTripsBefore, long roundTripsAfter, double secondsSaved, String assumption) {
    this(roundTripsBefore, roundTripsAfter, secondsSaved, assumption,
        java.util.Collections.<String, Long>emptyMap());
  }

  /**
   * As above, with the change per command type ({@code COM_QUERY}, ..., and {@code "probes"}):
   * negative for commands removed, positive for commands added.
   */
  public Saving(long roundTripsBefore, long roundTripsAfter, double secondsSaved, String assumption,
      java.util.Map<String, Long> commandDelta) {
    this.roundTripsBefore = roundTripsBefore;
    this.roundTripsAfter = roundTripsAfter;
    this.secondsSaved = Math.max(0, secondsSaved);
    this.assumption = Objects.requireNonNull(assumption, "assumption");
    this.commandDelta =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<String, Long>(commandDelta));
  }

  /** Commands added (positive) or removed (negative) per command type and {@code "probes"}. */
  public java.util.Map<String, Long> commandDelta() {
    return commandDelta;
  }

  public long roundTripsBefore() {
    return roundTripsBefore;
  }

  public long roundTripsAfter() {
    return roundTripsAfter;
  }

  public long roundTripsSaved() {
    return Math.max(0, roundTripsBefore - roundTripsAfter);
  }

  public double secondsSaved() {
    return secondsSaved;
  }

  public String assumption() {
    return assumption;
  }
}
