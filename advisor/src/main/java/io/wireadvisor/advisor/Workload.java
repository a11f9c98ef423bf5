package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;

/**
 * Numbers about a profile that several rules and {@link Metric}s share: one pass over the shapes.
 * "Business" statements are the application's DML (SELECT, INSERT, UPDATE, DELETE, REPLACE, CALL),
 * as opposed to probes, transaction control and the like.
 */
public final class Workload {
  /** A shape executed at least this often over text is "repeated": a prepared statement pays off. */
  static final long REPEATED_MIN_EXECUTIONS = 10;

  final long businessExecutions;
  final long textBusinessExecutions;
  final long selectExecutions;
  /** SELECTs that lock what they read (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE): part of selectExecutions. */
  final long lockingReadExecutions;
  final long writeExecutions;
  final long writeErrors;
  final long prepares;
  final long executes;
  final long closes;
  final long fetches;
  /** COM_STMT_RESET and COM_STMT_SEND_LONG_DATA (a reset per execution is normal with long data). */
  final long resets;
  final long longData;
  final int businessShapes;
  final int repeatedTextShapes;
  final long repeatedTextExecutions;
  final int longestRepeatedTextSql;
  final int longestPreparedSql;
  final int preparedShapes;
  final long sessionProbes;
  /** ISOLATION_READ and READ_ONLY_READ probes: what useLocalSessionState answers locally. */
  final long stateReads;
  final long validationProbes;

  private Workload(TrafficProfile p) {
    long business = 0;
    long text = 0;
    long select = 0;
    long locking = 0;
    long write = 0;
    long writeErr = 0;
    long prep = 0;
    long exec = 0;
    long close = 0;
    long fetch = 0;
    long reset = 0;
    long longDat = 0;
    int shapes = 0;
    int repeated = 0;
    long repeatedExec = 0;
    int longestText = 0;
    int longestPrepared = 0;
    int prepShapes = 0;
    for (ShapeStats s : p.shapes().values()) {
      prep += s.count(Via.PREPARES);
      exec += s.count(Via.EXECUTES);
      close += s.count(Via.CLOSES);
      fetch += s.count(Via.FETCHES);
      reset += s.count(Via.RESETS);
      longDat += s.count(Via.SEND_LONG_DATA);
      if (s.count(Via.PREPARES) > 0) {
        prepShapes++;
        longestPrepared = Math.max(longestPrepared, s.maxSqlLength());
      }
      if (!isBusiness(s)) {
        continue;
      }
      shapes++;
      long n = s.executions();
      business += n;
      long t = s.count(Via.TEXT_EXECUTES);
      text += t;
      if (s.kind() == StatementKind.SELECT) {
        select += n;
        if (s.lockingRead()) {
          locking += n;
        }
      } else {
        write += n;
        writeErr += s.count(Via.ERRORS);
      }
      if (t >= REPEATED_MIN_EXECUTIONS) {
        repeated++;
        repeatedExec += t;
        longestText = Math.max(longestText, s.maxSqlLength());
      }
    }
    // Collectors that cannot attribute every command to a shape still count commands.
    this.prepares = Math.max(prep, p.count(CommandType.STMT_PREPARE));
    this.executes = Math.max(exec, p.count(CommandType.STMT_EXECUTE));
    this.closes = Math.max(close, p.count(CommandType.STMT_CLOSE));
    this.fetches = Math.max(fetch, p.count(CommandType.STMT_FETCH));
    this.resets = Math.max(reset, p.count(CommandType.STMT_RESET));
    this.longData = Math.max(longDat, p.count(CommandType.STMT_SEND_LONG_DATA));
    this.businessExecutions = business;
    this.textBusinessExecutions = text;
    this.selectExecutions = select;
    this.lockingReadExecutions = locking;
    this.writeExecutions = write;
    this.writeErrors = writeErr;
    this.businessShapes = shapes;
    this.repeatedTextShapes = repeated;
    this.repeatedTextExecutions = repeatedExec;
    this.longestRepeatedTextSql = longestText;
    this.longestPreparedSql = longestPrepared;
    this.preparedShapes = prepShapes;
    long probes = 0;
    for (ProbeKind k : ProbeKind.values()) {
      if (k != ProbeKind.VALIDATION_QUERY && p.probes().containsKey(k)) {
        probes += p.probes().get(k).count();
      }
    }
    this.sessionProbes = probes;
    this.stateReads = probeCount(p, ProbeKind.ISOLATION_READ) + probeCount(p, ProbeKind.READ_ONLY_READ);
    this.validationProbes = probeCount(p, ProbeKind.VALIDATION_QUERY);
  }

  private static long probeCount(TrafficProfile p, ProbeKind kind) {
    return p.probes().containsKey(kind) ? p.probes().get(kind).count() : 0;
  }

  /** Computes the numbers for a profile. */
  public static Workload of(TrafficProfile profile) {
    return new Workload(profile);
  }

  /** The application's own DML, not probes or transaction control. */
  public static boolean isBusiness(ShapeStats s) {
    return s.probe() == null && !s.isOverflow() && s.kind() != null && s.kind().isBusiness();
  }

  /** {@code a / b}, or NaN when {@code b} is 0. */
  public static double ratio(long a, long b) {
    return b == 0 ? Double.NaN : (double) a / b;
  }

  /** Share of business statements that are SELECTs (NaN without any). */
  public double selectShare() {
    return ratio(selectExecutions, businessExecutions);
  }

  /** Share of business statements that are SELECTs locking nothing (NaN without any statement). */
  public double nonLockingReadShare() {
    return ratio(selectExecutions - lockingReadExecutions, businessExecutions);
  }

  /** Share of business statements sent as COM_QUERY text. */
  public double textShare() {
    return ratio(textBusinessExecutions, businessExecutions);
  }

  public long businessExecutions() {
    return businessExecutions;
  }

  /** A quantile of a per-connection distribution, or 0 without connections. */
  static long connectionQuantile(TrafficProfile p, ConnectionMetric metric, double q) {
    Histogram h = p.connections().distribution(metric);
    return h == null ? 0 : h.quantile(q);
  }

  /**
   * The 99th percentile of distinct statements per connection that the statement cache and the
   * plan cache must hold: distinct prepared shapes when the application prepares, else distinct
   * shapes (a text-protocol application about to switch). Without connection data, the number of
   * shapes (an upper bound).
   */
  long shapesPerConnectionP99(TrafficProfile p) {
    long q;
    if (prepares > 0) {
      q = connectionQuantile(p, ConnectionMetric.DISTINCT_PREPARED_SHAPES, 0.99);
      return q > 0 ? q : preparedShapes;
    }
    q = connectionQuantile(p, ConnectionMetric.DISTINCT_SHAPES, 0.99);
    return q > 0 ? q : businessShapes;
  }

  /** The longest SQL that will be prepared: of prepared shapes, else of repeated text shapes. */
  int longestPreparableSql() {
    return prepares > 0 ? longestPreparedSql : longestRepeatedTextSql;
  }

  /**
   * True when prepared statements are about to matter: the application already prepares, or it
   * repeats shapes over text and {@link TextProtocolRule} would switch it to server prepares (not
   * on a Connector/J whose statement cache resets: {@link DriverUpgradeRule} comes first).
   */
  boolean preparesNowOrPlanned(TrafficProfile profile, JdbcSettings jdbc) {
    return prepares > 0
        || (TextProtocolRule.textProtocolDominates(this, jdbc)
            && ConnectorJ.resettingDriver(profile) == null);
  }
}
