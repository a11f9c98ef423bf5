package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code diff} checks on the whole, beside each recommendation's own expectations: a change can
 * meet every promise and still cost more (Connector/J 8.0.x's statement cache met "PREPARE per
 * EXECUTE at most 0.05" while adding a COM_STMT_RESET per statement) or add errors. One regression
 * found between two profiles, with the shapes (and, where the profile has them, error codes) that
 * show it.
 *
 * <ul>
 *   <li>{@link Kind#COMMANDS_PER_STATEMENT}: wire commands per business statement (a batched row
 *       counts as a statement) rose by more than {@link #COMMANDS_TOLERANCE} (relative), counting
 *       in neither profile the first PREPARE of each shape on each connection (any statement cache
 *       pays those once). Where both profiles counted transactions and AFTER runs fewer business
 *       statements per transaction (batch fetching, a fixed mapping), commands per transaction
 *       judges instead: fewer statements carrying the same commits must not read as a regression.
 *   <li>{@link Kind#ERRORS}: a shape fails in AFTER that did not fail in BEFORE, or fails more than
 *       {@link #ERROR_GROWTH} times as often per execution, with at least {@link #MIN_NEW_ERRORS}
 *       failures beyond BEFORE's rate (fewer are chance: a deadlock now and then).
 * </ul>
 */
public final class Regression {
  /** What rose. */
  public enum Kind {
    COMMANDS_PER_STATEMENT,
    ERRORS
  }

  /** Commands per statement may wobble this much (pool pings, connection setup in the window). */
  public static final double COMMANDS_TOLERANCE = 0.01;
  /** An error rate a shape already had may grow by this factor before it counts as a regression. */
  public static final double ERROR_GROWTH = 1.25;
  /**
   * Failures of one shape and code AFTER must have beyond what BEFORE's rate makes expected for
   * AFTER's executions before they count: one deadlock in 40,140 executions of BenchBase's TPC-C
   * (and one in the before-state's next run) is chance, not a change's doing.
   */
  public static final long MIN_NEW_ERRORS = 3;
  /** Shapes named per regression. */
  static final int NAMED_SHAPES = 5;

  private final Kind kind;
  private final String message;
  private final double before;
  private final double after;
  private final List<String> details;

  Regression(Kind kind, String message, double before, double after, List<String> details) {
    this.kind = kind;
    this.message = message;
    this.before = before;
    this.after = after;
    this.details = Collections.unmodifiableList(new ArrayList<>(details));
  }

  public Kind kind() {
    return kind;
  }

  /** One line: what rose, from what to what. */
  public String message() {
    return message;
  }

  /** Commands per statement, or errors per business statement, before. */
  public double before() {
    return before;
  }

  public double after() {
    return after;
  }

  /** The command types and shapes (with error codes where known) that show it. */
  public List<String> details() {
    return details;
  }

  @Override
  public String toString() {
    return message + (details.isEmpty() ? "" : " " + details);
  }

  /** Every regression from {@code before} to {@code after}; empty when none. */
  public static List<Regression> between(TrafficProfile before, TrafficProfile after) {
    List<Regression> found = new ArrayList<>();
    Regression commands = commands(before, after);
    if (commands != null) {
      found.add(commands);
    }
    Regression errors = errors(before, after);
    if (errors != null) {
      found.add(errors);
    }
    return found;
  }

  /**
   * Business statements as the application issued them: a row added to a batch counts as one
   * (rewriteBatchedStatements turns many into one wire execution, which must not read as fewer
   * statements sharing the same commits and probes).
   */
  static long applicationStatements(TrafficProfile p) {
    long n = 0;
    for (ShapeStats s : p.shapes().values()) {
      if (Workload.isBusiness(s)) {
        n += Math.max(s.executions(), s.count(Via.BATCHED_STATEMENTS));
      }
    }
    return n;
  }

  /**
   * Wire commands per business statement with each connection's first PREPARE of each shape left
   * out (the sum over connections of distinct prepared shapes), NaN without business statements.
   */
  public static double steadyCommandsPerStatement(TrafficProfile p) {
    long statements = applicationStatements(p);
    if (statements == 0) {
      return Double.NaN;
    }
    Histogram firstPrepares = p.connections().distribution(ConnectionMetric.DISTINCT_PREPARED_SHAPES);
    long first = firstPrepares == null ? 0 : Math.min(firstPrepares.sum(), p.count(CommandType.STMT_PREPARE));
    return (double) (p.totalCommands() - first) / statements;
  }

  /**
   * Wire commands per transaction (each connection's first PREPARE of a shape left out), NaN when
   * the profile counted no transactions (written before they were counted, or none ended).
   */
  public static double steadyCommandsPerTransaction(TrafficProfile p) {
    if (p.transactions() == 0) {
      return Double.NaN;
    }
    Histogram firstPrepares = p.connections().distribution(ConnectionMetric.DISTINCT_PREPARED_SHAPES);
    long first = firstPrepares == null ? 0 : Math.min(firstPrepares.sum(), p.count(CommandType.STMT_PREPARE));
    return (double) (p.totalCommands() - first) / p.transactions();
  }

  /**
   * True when AFTER does the same work with fewer statements, so that commands per statement is
   * the wrong yardstick: both profiles counted transactions, business statements per transaction
   * fell by more than the tolerance (batch fetching folds an N+1 loop into one statement, a
   * mapping change drops the UPDATE after each INSERT), and commands per transaction did not rise.
   * The fixed per-transaction costs (commit, state SETs) then spread over fewer statements and
   * commands per statement rises while the application sends fewer commands.
   */
  static boolean fewerStatementsSameWork(TrafficProfile before, TrafficProfile after) {
    if (before.transactions() == 0 || after.transactions() == 0) {
      return false;
    }
    double sb = (double) applicationStatements(before) / before.transactions();
    double sa = (double) applicationStatements(after) / after.transactions();
    double cb = steadyCommandsPerTransaction(before);
    double ca = steadyCommandsPerTransaction(after);
    return sa < sb * (1 - COMMANDS_TOLERANCE) && ca <= cb * (1 + COMMANDS_TOLERANCE) + 1e-9;
  }

  /**
   * The line {@code diff} prints when commands per statement rose but {@link
   * #fewerStatementsSameWork} judged per transaction instead; null otherwise.
   */
  public static String perTransactionNote(TrafficProfile before, TrafficProfile after) {
    double b = steadyCommandsPerStatement(before);
    double a = steadyCommandsPerStatement(after);
    if (Double.isNaN(a) || Double.isNaN(b) || a <= b * (1 + COMMANDS_TOLERANCE) + 1e-9
        || !fewerStatementsSameWork(before, after)) {
      return null;
    }
    return "Wire commands per business statement rose from " + Fmt.ratio(b) + " to " + Fmt.ratio(a)
        + " because fewer statements do each transaction's work (" + Fmt.ratio(
            (double) applicationStatements(before) / before.transactions()) + " -> "
        + Fmt.ratio((double) applicationStatements(after) / after.transactions())
        + " per transaction); wire commands per transaction went from "
        + Fmt.ratio(steadyCommandsPerTransaction(before)) + " to " + Fmt.ratio(steadyCommandsPerTransaction(after))
        + ": no regression.";
  }

  private static Regression commands(TrafficProfile before, TrafficProfile after) {
    double b = steadyCommandsPerStatement(before);
    double a = steadyCommandsPerStatement(after);
    if (Double.isNaN(a) || Double.isNaN(b) || a <= b * (1 + COMMANDS_TOLERANCE) + 1e-9
        || fewerStatementsSameWork(before, after)) {
      return null;
    }
    List<String> details = new ArrayList<>();
    long sb = applicationStatements(before);
    long sa = applicationStatements(after);
    for (CommandType t : CommandType.values()) {
      double pb = perStatement(before.commands().get(t), sb);
      double pa = perStatement(after.commands().get(t), sa);
      if (pa > pb + 0.005) {
        details.add(t.wireName() + " " + Fmt.ratio(pb) + " -> " + Fmt.ratio(pa) + " per statement");
      }
    }
    // The shapes whose own commands per execution rose most.
    final Map<String, Double> rise = new LinkedHashMap<>();
    Map<String, String> line = new LinkedHashMap<>();
    for (ShapeStats s : after.shapes().values()) {
      ShapeStats old = before.shapes().get(s.digest());
      if (old == null || s.executions() == 0 || old.executions() == 0) {
        continue;
      }
      double pb = (double) shapeCommands(old) / old.executions();
      double pa = (double) shapeCommands(s) / s.executions();
      if (pa > pb + 0.005) {
        rise.put(s.digest(), (pa - pb) * s.executions());
        line.put(s.digest(), Fmt.sql(s.digestText(), 80) + ": " + Fmt.ratio(pb) + " -> " + Fmt.ratio(pa)
            + " commands per execution" + resetNote(old, s));
      }
    }
    List<String> digests = new ArrayList<>(rise.keySet());
    Collections.sort(digests, new Comparator<String>() {
      @Override
      public int compare(String x, String y) {
        int c = Double.compare(rise.get(y), rise.get(x));
        return c != 0 ? c : x.compareTo(y);
      }
    });
    for (String d : digests.subList(0, Math.min(NAMED_SHAPES, digests.size()))) {
      details.add(line.get(d));
    }
    if (digests.size() > NAMED_SHAPES) {
      details.add((digests.size() - NAMED_SHAPES) + " more shapes");
    }
    return new Regression(Kind.COMMANDS_PER_STATEMENT,
        "wire commands per business statement rose from " + Fmt.ratio(b) + " to " + Fmt.ratio(a)
            + " (first PREPARE of a shape per connection not counted)", b, a, details);
  }

  private static String resetNote(ShapeStats before, ShapeStats after) {
    long r = after.count(Via.RESETS);
    if (r == 0 || before.count(Via.RESETS) > 0) {
      return "";
    }
    return String.format(Locale.ROOT, " (COM_STMT_RESET %.2f per execution: see rule %s)",
        (double) r / after.executions(), DriverUpgradeRule.ID);
  }

  private static double perStatement(CommandStats c, long statements) {
    return statements == 0 ? 0 : (c == null ? 0 : (double) c.count() / statements);
  }

  /** The wire commands a shape accounts for. */
  static long shapeCommands(ShapeStats s) {
    return s.count(Via.TEXT_EXECUTES) + s.count(Via.PREPARES) + s.count(Via.EXECUTES)
        + s.count(Via.CLOSES) + s.count(Via.RESETS) + s.count(Via.FETCHES) + s.count(Via.SEND_LONG_DATA);
  }

  /**
   * A shape's failed commands by the server's error code ({@code ERROR 1062 (23000)}), from the
   * codes the profile records per shape; failures without a code (or past the per-shape limit)
   * and a profile written before codes were recorded count as one entry, "errors".
   */
  static Map<String, Long> errorsByCode(ShapeStats s) {
    Map<String, Long> m = new LinkedHashMap<>();
    long coded = 0;
    for (io.wireadvisor.profile.ServerError e : s.errors().values()) {
      if (e.code() != io.wireadvisor.profile.ServerError.OTHER && e.count() > 0) {
        m.put("ERROR " + e.code() + (e.sqlState() == null ? "" : " (" + e.sqlState() + ")"), e.count());
        coded += e.count();
      }
    }
    long rest = s.count(Via.ERRORS) - coded;
    if (rest > 0) {
      m.put("errors", rest);
    }
    return m;
  }

  private static Regression errors(TrafficProfile before, TrafficProfile after) {
    List<String> details = new ArrayList<>();
    long errorsBefore = 0;
    long errorsAfter = 0;
    for (ShapeStats s : before.shapes().values()) {
      errorsBefore += s.count(Via.ERRORS);
    }
    for (ShapeStats s : after.shapes().values()) {
      errorsAfter += s.count(Via.ERRORS);
      Map<String, Long> now = errorsByCode(s);
      if (now.isEmpty()) {
        continue;
      }
      ShapeStats old = before.shapes().get(s.digest());
      Map<String, Long> then = old == null ? Collections.<String, Long>emptyMap() : errorsByCode(old);
      long executionsAfter = Math.max(1, s.executions());
      long executionsBefore = old == null ? 0 : Math.max(1, old.executions());
      for (Map.Entry<String, Long> e : now.entrySet()) {
        Long was = then.get(e.getKey());
        double rateAfter = (double) e.getValue() / executionsAfter;
        double rateBefore = was == null || was == 0 ? 0 : (double) was / executionsBefore;
        if (e.getValue() - rateBefore * s.executions() < MIN_NEW_ERRORS) {
          continue; // too few beyond BEFORE's rate to tell from chance
        }
        if (rateBefore == 0) {
          details.add(Fmt.sql(s.digestText(), 80) + ": " + e.getKey() + " " + Fmt.count(e.getValue())
              + " in " + Fmt.count(s.executions()) + " executions, none before");
        } else {
          if (rateAfter > rateBefore * ERROR_GROWTH) {
            details.add(Fmt.sql(s.digestText(), 80) + ": " + e.getKey() + " "
                + Fmt.percent(rateBefore) + " -> " + Fmt.percent(rateAfter) + " of executions");
          }
        }
      }
    }
    if (details.isEmpty()) {
      return null;
    }
    double b = Workload.ratio(errorsBefore, applicationStatements(before));
    double a = Workload.ratio(errorsAfter, applicationStatements(after));
    return new Regression(Kind.ERRORS,
        "errors the before-profile did not have: " + details.size() + " shape(s); "
            + Fmt.count(errorsBefore) + " -> " + Fmt.count(errorsAfter) + " failed commands ("
            + Metric.format(b) + " -> " + Metric.format(a) + " per statement)",
        b, a, details);
  }
}
