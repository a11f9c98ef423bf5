package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.ServerError;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * ERR replies of one statement shape and one server error code: errors as evidence. Reports list
 * them (most time first, then most frequent) and the first screen names them when they are
 * frequent or cost time ({@link #firstScreen}).
 */
public final class ErrorLine {
  /** How many the reports list. */
  public static final int MAX_LINES = 20;
  /** The first screen shows errors from this share of business statements... */
  static final double FIRST_SCREEN_MIN_SHARE = 0.005;
  /** ...or this share of the time waited on the wire. */
  static final double FIRST_SCREEN_MIN_TIME_SHARE = 0.01;

  private final String digest;
  private final String text;
  private final boolean sessionState;
  private final int code;
  private final String sqlState;
  private final long count;
  private final long executions;
  private final double seconds;

  public ErrorLine(String digest, String text, boolean sessionState, int code, String sqlState,
      long count, long executions, double seconds) {
    this.digest = digest;
    this.text = text;
    this.sessionState = sessionState;
    this.code = code;
    this.sqlState = sqlState;
    this.count = count;
    this.executions = executions;
    this.seconds = seconds;
  }

  /** The shape's digest. */
  public String digest() {
    return digest;
  }

  /** The shape's digest text, never cut. */
  public String text() {
    return text;
  }

  /** True when the statement is session state a driver, pool or framework sent (a probe). */
  public boolean sessionState() {
    return sessionState;
  }

  /** The server's error code; 0 for failures without one (or past the per-shape limit). */
  public int code() {
    return code;
  }

  /** The SQLSTATE, or null when the collector did not see it. */
  public String sqlState() {
    return sqlState;
  }

  /** ERR replies of this code to this shape. */
  public long count() {
    return count;
  }

  /** Executions of the shape (of any outcome). */
  public long executions() {
    return executions;
  }

  /** Seconds the application waited for these replies; NaN when the collector did not time them. */
  public double seconds() {
    return seconds;
  }

  /** "ERROR 1235 (42000)", or "no server code". */
  public String codeText() {
    return code == ServerError.OTHER ? "no server code"
        : "ERROR " + code + (sqlState == null ? "" : " (" + sqlState + ")");
  }

  /** Every shape's errors, most time first, then most frequent; at most {@link #MAX_LINES}. */
  static List<ErrorLine> of(TrafficProfile profile) {
    List<ErrorLine> all = new ArrayList<>();
    for (ShapeStats s : profile.shapes().values()) {
      long unattributed = s.count(Via.ERRORS);
      for (ServerError e : s.errors().values()) {
        unattributed -= e.count();
        // Untimed replies (the proxy times everything; the agent all it sees) are rare: scale.
        double seconds = e.timed() == 0 ? Double.NaN : e.nanos() / 1e9 * e.count() / e.timed();
        all.add(new ErrorLine(s.digest(), s.digestText(), s.probe() != null, e.code(),
            e.sqlState(), e.count(), s.executions(), seconds));
      }
      if (unattributed > 0) { // a profile from before codes were recorded
        all.add(new ErrorLine(s.digest(), s.digestText(), s.probe() != null, ServerError.OTHER,
            null, unattributed, s.executions(), Double.NaN));
      }
    }
    Collections.sort(all, new Comparator<ErrorLine>() {
      @Override
      public int compare(ErrorLine a, ErrorLine b) {
        int c = Double.compare(time(b), time(a));
        if (c == 0) {
          c = Long.compare(b.count, a.count);
        }
        return c != 0 ? c : (a.digest + a.code).compareTo(b.digest + b.code);
      }
    });
    return all.size() > MAX_LINES ? new ArrayList<>(all.subList(0, MAX_LINES)) : all;
  }

  private static double time(ErrorLine l) {
    return Double.isNaN(l.seconds) ? 0 : l.seconds;
  }

  /** ERR replies of every shape (all of them, not only the listed lines). */
  static long total(TrafficProfile profile) {
    long n = 0;
    for (ShapeStats s : profile.shapes().values()) {
      n += s.count(Via.ERRORS);
    }
    return n;
  }

  /**
   * True when the errors belong on the first screen: from at least 0.5% of business statements, or
   * at least 1% of the time waited on the wire.
   */
  static boolean firstScreen(TrafficProfile profile, List<ErrorLine> lines) {
    long total = total(profile);
    if (total == 0) {
      return false;
    }
    long business = Workload.of(profile).businessExecutions;
    if (business == 0 || total >= FIRST_SCREEN_MIN_SHARE * business) {
      return true;
    }
    double waited = 0;
    for (CommandStats c : profile.commands().values()) {
      if (c.latency() != null) {
        waited += c.latency().sum() / 1e9;
      }
    }
    double errors = 0;
    for (ErrorLine l : lines) {
      errors += time(l);
    }
    return waited > 0 && errors >= FIRST_SCREEN_MIN_TIME_SHARE * waited;
  }
}
