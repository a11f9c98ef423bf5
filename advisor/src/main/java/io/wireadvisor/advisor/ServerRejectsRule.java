package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ServerError;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Rule 10: session-state statements a driver, pool or framework sends and the server rejects, each
 * an ERR round trip that changes nothing. TiDB answers {@code SET SESSION TRANSACTION READ ONLY}
 * (Connector/J's {@code setReadOnly(true)}, e.g. every Spring {@code @Transactional(readOnly =
 * true)}) with ERROR 1235 unless {@code tidb_enable_noop_functions} is on, and an isolation level
 * it does not support (SERIALIZABLE, READ UNCOMMITTED) with ERROR 8048 unless {@code
 * tidb_skip_isolation_level_check} is on. Spring logs the first at DEBUG and goes on, so nobody
 * sees it. The evidence is the profile's ERR replies per shape and code.
 */
public final class ServerRejectsRule implements Rule {
  public static final String ID = "server-rejects";
  /** HikariCP's isolation setting (Spring Boot: {@code spring.datasource.hikari.transaction-isolation}). */
  static final String POOL_ISOLATION = "transactionIsolation";
  /** ER_NOT_SUPPORTED_YET: TiDB's answer to READ ONLY without noop functions. */
  static final int NOT_SUPPORTED_YET = 1235;
  /** TiDB's ErrUnsupportedIsolationLevel. */
  static final int UNSUPPORTED_ISOLATION = 8048;
  static final String SKIP_ISOLATION_CHECK = "tidb_skip_isolation_level_check";
  static final String NOOP_FUNCTIONS = "tidb_enable_noop_functions";

  @Override
  public String id() {
    return ID;
  }

  /** The rejections this rule knows a change for, and the rest of the probes' ERR replies. */
  private static final class Found {
    long readOnly;
    long isolation;
    long other;
    final List<String> lines = new ArrayList<>();
    String isolationAsked;

    long known() {
      return readOnly + isolation;
    }
  }

  private static Found find(TrafficProfile profile) {
    Found f = new Found();
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() == null || s.errors().isEmpty()) {
        continue;
      }
      for (ServerError e : s.errors().values()) {
        boolean readOnly = s.probe() == ProbeKind.READ_ONLY_SET && e.code() == NOT_SUPPORTED_YET;
        boolean isolation = s.probe() == ProbeKind.ISOLATION_SET
            && (e.code() == UNSUPPORTED_ISOLATION || e.code() == NOT_SUPPORTED_YET);
        if (readOnly) {
          f.readOnly += e.count();
        } else if (isolation) {
          f.isolation += e.count();
          String t = s.digestText().toLowerCase(Locale.ROOT);
          f.isolationAsked = t.contains("serializable") ? "SERIALIZABLE"
              : t.contains("uncommitted") ? "READ UNCOMMITTED" : f.isolationAsked;
        } else {
          f.other += e.count();
        }
        f.lines.add("  " + Fmt.printable(Fmt.sql(s.digestText(), 80)) + ": " + describe(e)
            + " of " + Fmt.count(s.executions()) + " executions"
            + (readOnly || isolation ? "" : " (no change known for this one)"));
      }
    }
    return f;
  }

  /** "ERROR 1235 (42000) x301, 45 ms waited". */
  static String describe(ServerError e) {
    return (e.code() == ServerError.OTHER ? "failures without a server code (or past the per-shape limit)"
            : "ERROR " + e.code() + (e.sqlState() == null ? "" : " (" + e.sqlState() + ")"))
        + " x" + Fmt.count(e.count())
        + (e.timed() > 0 ? String.format(Locale.ROOT, ", %.1f ms waited", e.nanos() / 1e6) : "");
  }

  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    Found f = find(profile);
    if (f.known() == 0 || f.readOnly >= Evidence.REJECTIONS_MIN
        || f.isolation >= Evidence.REJECTIONS_MIN) {
      return Collections.emptyList();
    }
    return Collections.singletonList(new Withheld(ID, "session-state statements the server rejects",
        "at least " + Evidence.REJECTIONS_MIN + " rejected read-only or isolation SETs",
        Fmt.count(f.known())));
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    Found f = find(profile);
    boolean readOnly = f.readOnly >= Evidence.REJECTIONS_MIN;
    boolean isolation = f.isolation >= Evidence.REJECTIONS_MIN;
    if (!readOnly && !isolation) {
      return null;
    }
    Workload w = Workload.of(profile);
    boolean tidb = Estimates.serverKind(profile, server) == Outlook.ServerKind.TIDB;
    long rejected = (readOnly ? f.readOnly : 0) + (isolation ? f.isolation : 0);
    double perStatement = Workload.ratio(rejected, w.businessExecutions);
    String what = readOnly && isolation ? "read-only and isolation SETs"
        : readOnly ? "read-only SETs (ERROR 1235)" : "isolation SETs (ERROR 8048)";
    Recommendation.Builder r = Recommendation.builder(ID,
        "Stop sending " + what + " the server rejects",
        Double.isNaN(perStatement) || perStatement >= 0.05 ? Severity.HIGH : Severity.MEDIUM);
    r.evidence(Fmt.count(rejected) + " ERR replies to session-state statements the driver or"
        + " framework sent, " + Fmt.ratio(perStatement) + " per business statement ("
        + Fmt.count(w.businessExecutions) + "); each is a round trip that changed nothing:");
    for (String l : f.lines) {
      r.evidence(l);
    }
    Change.Builder change = Change.builder();
    StringBuilder effect = new StringBuilder();
    StringBuilder risk = new StringBuilder();
    if (readOnly) {
      ProbeStats causes = profile.probes().get(ProbeKind.READ_ONLY_SET);
      if (causes != null && !causes.causes().isEmpty()) {
        r.evidence("Read-only SETs caused by: " + causes.causes()
            + " (Connection.setReadOnly: Spring's @Transactional(readOnly = true) calls it for every"
            + " such transaction).");
      }
      change.jdbc(JdbcProperty.READ_ONLY_PROPAGATES_TO_SERVER, "false");
      if (tidb) {
        change.note("Where the SET must stay (the same application also runs on MySQL and relies"
            + " on it there), the DBA can instead run SET GLOBAL " + NOOP_FUNCTIONS + " = ON;"
            + " TiDB then accepts READ ONLY and ignores it: no more errors, but the round trips"
            + " stay, and it also silences other unsupported syntax (e.g. LOCK IN SHARE MODE).");
      }
      effect.append("With readOnlyPropagatesToServer=false Connector/J keeps the read-only flag"
          + " locally and sends neither SET SESSION TRANSACTION READ ONLY nor READ WRITE: the "
          + Fmt.count(f.readOnly) + " rejected SETs and their ERR replies go, and so do the READ"
          + " WRITE resets after them. ");
      risk.append("The server is no longer told that a transaction is read-only. On TiDB nothing is"
          + " lost: it rejected the SET, so these transactions never were read-only on the"
          + " server. On MySQL, InnoDB's read-only transaction optimisation goes and the server"
          + " stops refusing writes in such transactions; Connector/J itself still refuses"
          + " executeUpdate on a read-only connection. Where read-only must be enforced, use a"
          + " read-only user or replica. ");
    }
    if (isolation) {
      String asked = f.isolationAsked == null ? "an isolation level" : f.isolationAsked;
      long byPoolSetup = 0;
      long all = 0;
      for (Map.Entry<String, Long> c : causes(profile, ProbeKind.ISOLATION_SET).entrySet()) {
        all += c.getValue();
        byPoolSetup += c.getKey().startsWith("hikari.setup") ? c.getValue() : 0;
      }
      boolean byPool = all > 0 && 2 * byPoolSetup > all;
      if (byPool) {
        change.pool(POOL_ISOLATION, "TRANSACTION_REPEATABLE_READ");
      } else if (tidb) {
        change.sql("SET GLOBAL " + SKIP_ISOLATION_CHECK + " = ON;");
      }
      change.note("The application asks for " + asked + ", which " + (tidb ? "TiDB" : "the server")
          + " does not support. Better than hiding the error: ask for what TiDB gives, READ"
          + " COMMITTED or REPEATABLE READ (@Transactional(isolation = ...), the pool's"
          + " transactionIsolation, or Connection.setTransactionIsolation).");
      effect.append("The ").append(Fmt.count(f.isolation)).append(" rejected isolation SETs go. ");
      risk.append(tidb ? "With " + SKIP_ISOLATION_CHECK + " TiDB accepts " + asked + " but runs"
          + " its own REPEATABLE READ (snapshot isolation): anomalies " + asked + " would prevent"
          + " (write skew) are possible, as they already are today, silently. "
          : "The application runs at a different isolation than it asked for. ");
    }
    long otherRejections = f.other;
    r.change(change.build())
        .expectedEffect(effect.toString().trim())
        .risk(risk.toString().trim())
        .verify("A new profile shows no ERR replies to these statements (the report's errors"
            + " section); on TiDB, the statement summary's error counts for them stop growing.")
        .expect(Expectation.atMost(Metric.REJECTED_STATE_CHANGES_PER_STATEMENT, profile,
            Workload.ratio(otherRejections, w.businessExecutions)
                + 0.1 * Workload.ratio(rejected, w.businessExecutions)));
    return r.build();
  }

  /** True when {@code c} is this rule's isolation change (pool setting or TiDB's skip check). */
  static boolean changesIsolation(Change c) {
    if (c.poolSettings().containsKey(POOL_ISOLATION)) {
      return true;
    }
    for (String s : c.sql()) {
      if (s.contains(SKIP_ISOLATION_CHECK)) {
        return true;
      }
    }
    return false;
  }

  static Map<String, Long> causes(TrafficProfile p, ProbeKind k) {
    ProbeStats s = p.probes().get(k);
    return s == null ? Collections.<String, Long>emptyMap() : s.causes();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.stateSaving(r, "the rejected SETs (and the READ WRITE resets after them) go");
  }
}
