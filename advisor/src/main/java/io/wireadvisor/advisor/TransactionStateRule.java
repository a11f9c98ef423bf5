package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import java.util.Collections;
import java.util.List;

/**
 * Rule 11: transaction-state changes per transaction. With HikariCP's default {@code
 * autoCommit=true}, Spring/Hibernate turn autocommit off at the start of every transaction and on
 * again at its end ({@code SET autocommit=0}, {@code =1}), and {@code @Transactional(readOnly =
 * true)} adds {@code SET SESSION TRANSACTION READ ONLY} and {@code READ WRITE}: up to four round
 * trips around each transaction that no statement cache or local session state removes, since each
 * changes the session's state. Configuration does: the pool hands out connections with autocommit
 * already off (HikariCP {@code autoCommit=false}; Hibernate told so with {@code
 * hibernate.connection.provider_disables_autocommit=true}), and Connector/J keeps read-only
 * locally ({@code readOnlyPropagatesToServer=false}).
 */
public final class TransactionStateRule implements Rule {
  public static final String ID = "transaction-state";
  /** HikariCP's setting (Spring Boot: {@code spring.datasource.hikari.auto-commit}). */
  static final String POOL_AUTO_COMMIT = "autoCommit";
  static final String PROVIDER_DISABLES_AUTOCOMMIT = "hibernate.connection.provider_disables_autocommit";

  @Override
  public String id() {
    return ID;
  }

  /** The framework's autocommit SETs and the read-only SETs the settings can remove. */
  private static long[] removable(TrafficProfile profile, JdbcSettings jdbc) {
    long autoCommit = 0;
    long readOnly = 0;
    long readOnlyRejected = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() == ProbeKind.AUTOCOMMIT_SET) {
        autoCommit += s.executions();
      } else if (s.probe() == ProbeKind.READ_ONLY_SET) {
        readOnly += s.executions();
        readOnlyRejected += s.count(Via.ERRORS);
      }
    }
    long framework =
        Math.round(autoCommit * StateModel.frameworkShare(profile.probes().get(ProbeKind.AUTOCOMMIT_SET)));
    // The pool's autoCommit=false removes the toggles only where a transaction framework turns
    // autocommit off when (and only when) the connection has it on: Spring's transaction managers
    // and Hibernate do; an application that calls setAutoCommit(false)/(true) itself keeps both
    // SETs, plus the pool's reset on return. The wire does not name the caller; read-only SETs are
    // the framework's signature (Spring's @Transactional(readOnly = true), which every Spring Data
    // repository read uses). Without them the autocommit part is not advised.
    if (readOnly == 0) {
      framework = 0;
    }
    if (jdbc.isFalse(JdbcProperty.READ_ONLY_PROPAGATES_TO_SERVER)) {
      readOnly = 0;
      readOnlyRejected = 0;
    }
    return new long[] {framework, readOnly, readOnlyRejected, autoCommit};
  }

  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    long[] r = removable(profile, JdbcSettings.of(profile));
    long total = r[0] + r[1];
    if (total == 0 || total >= Evidence.STATE_CHANGES_MIN) {
      return Collections.emptyList();
    }
    return Collections.singletonList(new Withheld(ID, "autocommit and read-only SETs per transaction",
        "at least " + Evidence.STATE_CHANGES_MIN + " such SETs", Fmt.count(total)));
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    JdbcSettings jdbc = JdbcSettings.of(profile);
    long[] r = removable(profile, jdbc);
    long autoCommit = r[0];
    long readOnly = r[1];
    long total = autoCommit + readOnly;
    Workload w = Workload.of(profile);
    if (total < Evidence.STATE_CHANGES_MIN || total < 0.05 * w.businessExecutions) {
      return null;
    }
    long wire = profile.totalCommands();
    double perStatement = Workload.ratio(total, w.businessExecutions);
    Recommendation.Builder b = Recommendation.builder(ID,
        "Stop changing autocommit" + (readOnly > 0 ? " and read-only" : "") + " around every transaction",
        perStatement >= 0.3 ? Severity.HIGH : Severity.MEDIUM);
    b.evidence(Fmt.count(total) + " transaction-state SETs for " + Fmt.count(w.businessExecutions)
        + " business statements (" + Fmt.ratio(perStatement) + " per statement, "
        + Fmt.percent(Workload.ratio(total, wire)) + " of all " + Fmt.count(wire)
        + " wire commands):");
    if (r[3] > 0) {
      b.evidence("  SET autocommit: " + Fmt.count(r[3]) + ", caused by "
          + ServerRejectsRule.causes(profile, ProbeKind.AUTOCOMMIT_SET)
          + (autoCommit > 0 ? "" : " (the application's own or the pool's: not removable by these settings)"));
    }
    if (readOnly > 0) {
      b.evidence("  SET SESSION TRANSACTION READ ONLY / READ WRITE: " + Fmt.count(readOnly)
          + (r[2] > 0 ? " (" + Fmt.count(r[2]) + " of them rejected by the server)" : "")
          + ", caused by " + ServerRejectsRule.causes(profile, ProbeKind.READ_ONLY_SET));
    }
    Change.Builder change = Change.builder();
    StringBuilder effect = new StringBuilder();
    StringBuilder risk = new StringBuilder();
    if (autoCommit > 0) {
      change.pool(POOL_AUTO_COMMIT, "false").hibernate(PROVIDER_DISABLES_AUTOCOMMIT, "true");
      change.note("Plain JDBC: HikariCP autoCommit=false (other pools: their default-auto-commit"
          + " setting) and commit or roll back every unit of work yourself. Spring's"
          + " DataSourceTransactionManager (JdbcTemplate, no Hibernate): the pool line alone; Spring"
          + " then skips setAutoCommit(false) and its reset. Spring Boot itself sets "
          + PROVIDER_DISABLES_AUTOCOMMIT + " when the Hikari pool has auto-commit off (the line"
          + " makes it explicit). Hibernate without Spring Boot: " + PROVIDER_DISABLES_AUTOCOMMIT
          + "=true in hibernate.properties or persistence.xml.");
      change.note("Connector/J alone cannot remove these: a SET autocommit that changes the"
          + " session's state is always sent (elideSetAutoCommits has no effect in current"
          + " drivers; useLocalSessionState, part of maxPerformance, elides only SETs that change"
          + " nothing).");
      effect.append("Connections come from the pool with autocommit already off, so the framework"
          + " no longer turns it off and on around each transaction: about ")
          .append(Fmt.count(autoCommit)).append(" SET autocommit fewer (the pool still sets it once per"
          + " new connection). ");
      risk.append("provider_disables_autocommit makes Hibernate trust that every connection it gets"
          + " has autocommit off: if one arrives in autocommit mode (another DataSource, a pool"
          + " without the setting), each statement of a \"transaction\" commits on its own and a"
          + " rollback undoes nothing. With the pool's autoCommit=false, code that uses the pool"
          + " outside Spring transactions (a JdbcTemplate call without @Transactional, a"
          + " scheduled job, Flyway or schema scripts on the same pool, open-in-view reads) runs"
          + " in a transaction nobody commits: HikariCP rolls back its writes when the"
          + " connection is returned, and reads hold a snapshot until then. ");
    }
    if (readOnly > 0) {
      change.jdbc(JdbcProperty.READ_ONLY_PROPAGATES_TO_SERVER, "false");
      effect.append("Connector/J keeps the read-only flag locally (readOnlyPropagatesToServer=false):"
          + " the ").append(Fmt.count(readOnly)).append(" read-only SETs go. ");
      risk.append("The server is no longer told that a transaction is read-only (on TiDB, which"
          + " rejects or ignores READ ONLY, nothing changes; on MySQL InnoDB's read-only"
          + " optimisation goes); Connector/J still refuses executeUpdate on a read-only"
          + " connection. ");
    }
    StateModel model = new StateModel(profile, jdbc);
    StateModel.Settings applied = model.now().copy();
    applied.poolAutoCommitOff |= autoCommit > 0;
    applied.readOnlyNotPropagated |= readOnly > 0;
    long left = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() == ProbeKind.AUTOCOMMIT_SET || s.probe() == ProbeKind.READ_ONLY_SET) {
        left += model.after(s, applied);
      }
    }
    long rollbacks = model.addedRollbacks(applied);
    if (rollbacks > 0) {
      outsideTransactions(b, change, effect, risk, profile, model, rollbacks);
    }
    left += rollbacks + rollbacksNow(profile);
    b.change(change.build())
        .expectedEffect(effect.toString().trim())
        .risk(risk.toString().trim())
        .verify("A new profile shows SET autocommit about once per connection and no read-only"
            + " SETs (diff: autocommit/read-only SETs per statement); the application's"
            + " transactions still commit and roll back as before (test a rollback).")
        .expect(Expectation.atMost(Metric.STATE_CHANGES_AND_ROLLBACKS_PER_STATEMENT, profile,
            Workload.ratio(left, w.businessExecutions)
                + 0.1 * Metric.STATE_CHANGES_PER_STATEMENT.compute(profile)));
    return b.build();
  }

  /** ROLLBACK executions in the profile (they stay). */
  private static long rollbacksNow(TrafficProfile profile) {
    long n = 0;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() == null && s.kind() == io.wireadvisor.sql.StatementKind.ROLLBACK) {
        n += s.executions();
      }
    }
    return n;
  }

  /** Shapes named in the evidence as run outside transactions. */
  static final int MAX_OUTSIDE_SHAPES = 5;

  /**
   * The ROLLBACKs the pool's autoCommit=false adds (one per borrow that ran statements outside a
   * transaction, {@link StateModel#addedRollbacks}): evidence naming those statements, the code fix
   * that removes the ROLLBACKs, and the risk.
   */
  private static void outsideTransactions(Recommendation.Builder b, Change.Builder change,
      StringBuilder effect, StringBuilder risk, TrafficProfile profile, StateModel model,
      long rollbacks) {
    long outside = 0;
    for (ShapeStats s : profile.shapes().values()) {
      outside += s.count(Via.OUTSIDE_TRANSACTION);
    }
    b.evidence("  statements outside any transaction (under autocommit): " + Fmt.count(outside)
        + " in " + Fmt.count(rollbacks) + " " + StateModel.borrowsCountedBy(profile)
        + "; with the pool's autoCommit=false each such borrow ends in a ROLLBACK:");
    for (ShapeStats s : model.outsideTransactionShapes(MAX_OUTSIDE_SHAPES)) {
      b.evidence("    " + Fmt.count(s.count(Via.OUTSIDE_TRANSACTION)) + "x "
          + Fmt.printable(Fmt.sql(s.digestText(), 80)));
    }
    change.note("Statements outside transactions: put the repository or query methods that run"
        + " them in a transaction, @Transactional(readOnly = true) on the Spring Data query method"
        + " (or the service method that calls it); they then commit with the transaction and"
        + " HikariCP has nothing to roll back when the connection is returned.");
    effect.append("The pool rolls back the transaction its autoCommit=false leaves open in each"
        + " borrow that ran statements outside a transaction: about ").append(Fmt.count(rollbacks))
        .append(" ROLLBACKs added (counted in the saving) until those methods are made"
            + " @Transactional(readOnly = true). ");
    risk.append("Statements that ran under autocommit outside any transaction (")
        .append(Fmt.count(outside)).append(" here) now run in a transaction that HikariCP rolls"
            + " back when the connection is returned (one ROLLBACK per borrow, logged at DEBUG as"
            + " \"Executed rollback due to dirty commit state on close()\"): a write among them"
            + " without @Transactional is lost. ");
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.stateSaving(r,
        "the framework's SET autocommit pair per transaction goes (the pool's one per new"
            + " connection stays), and read-only SETs and reads go");
  }
}
