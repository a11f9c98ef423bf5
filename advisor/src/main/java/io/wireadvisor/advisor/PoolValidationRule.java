package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import java.util.Map;

/**
 * Rule 9: the pool validates connections (COM_PING or a test query) on nearly every borrow. With a
 * JDBC4 driver HikariCP validates with {@code Connection.isValid()} (one COM_PING), and only for
 * connections idle longer than 500 ms; background {@code keepaliveTime} replaces borrow-time checks.
 */
public final class PoolValidationRule implements Rule {
  public static final String ID = "pool-validation";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    Workload w = Workload.of(profile);
    long pings = profile.count(CommandType.PING);
    long validations = w.validationProbes;
    long total = pings + validations;
    double perStatement = Workload.ratio(total, w.businessExecutions);
    if (total < 100 || !(perStatement >= 0.05)) {
      return null;
    }
    Recommendation.Builder r =
        Recommendation.builder(
                ID,
                "Stop validating connections on every borrow",
                perStatement >= 0.3 ? Severity.HIGH : Severity.MEDIUM)
            .evidence(
                Fmt.count(pings)
                    + " COM_PING and "
                    + Fmt.count(validations)
                    + " validation queries for "
                    + Fmt.count(w.businessExecutions)
                    + " statements: "
                    + Fmt.ratio(perStatement)
                    + " per statement, each a round trip before work starts.");
    ProbeStats v = profile.probes().get(ProbeKind.VALIDATION_QUERY);
    if (v != null && !v.causes().isEmpty()) {
      StringBuilder sb = new StringBuilder("Validation queries caused by: ");
      boolean first = true;
      for (Map.Entry<String, Long> c : v.causes().entrySet()) {
        sb.append(first ? "" : ", ").append(c.getKey()).append(" (").append(Fmt.count(c.getValue()))
            .append(')');
        first = false;
      }
      r.evidence(sb.append('.').toString());
    }
    Change.Builder change = Change.builder();
    if (validations > 0) {
      change.pool("connectionTestQuery", "(remove: JDBC4 Connection.isValid() is one COM_PING)");
    }
    change
        .pool("keepaliveTime", "120000")
        .note(
            "HikariCP validates a borrowed connection only when it was idle longer than 500 ms"
                + " (com.zaxxer.hikari.aliveBypassWindowMs): validation on almost every borrow"
                + " means an oversized pool whose connections idle between uses (lower"
                + " minimumIdle/maximumPoolSize) or a pool that tests on borrow (DBCP/Druid"
                + " testOnBorrow, c3p0 testConnectionOnCheckout): turn that off and check idle"
                + " connections in the background (keepaliveTime, testWhileIdle).");
    return r.change(change.build())
        .expectedEffect(
            "About " + Fmt.count(total) + " round trips fewer in this window; borrow latency falls.")
        .risk(
            "A connection broken while idle is detected at first use instead of at borrow; keep"
                + " keepaliveTime below any firewall/load-balancer idle timeout and maxLifetime"
                + " below wait_timeout.")
        .verify("A new profile shows COM_PING and VALIDATION_QUERY far below one per statement.")
        .expect(
            Expectation.atMost(Metric.VALIDATIONS_PER_STATEMENT, profile, perStatement * 0.2))
        .build();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.stateSaving(r, "the validation queries go");
  }
}
