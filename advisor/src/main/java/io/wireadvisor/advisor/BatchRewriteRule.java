package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.StatementKind;
import java.util.Locale;

/**
 * Rule 8: {@code executeBatch()} of single-row INSERTs that reach the server one row per command:
 * {@code rewriteBatchedStatements=true} sends one multi-row INSERT per batch.
 */
public final class BatchRewriteRule implements Rule {
  public static final String ID = "rewrite-batched-statements";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    JdbcSettings jdbc = JdbcSettings.of(profile);
    if (jdbc.isTrue(JdbcProperty.REWRITE_BATCHED_STATEMENTS)) {
      return null;
    }
    long batched = 0;
    long batches = 0;
    long wire = 0;
    long singles = 0;
    int shapes = 0;
    ShapeStats top = null;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.kind() != StatementKind.INSERT || s.count(Via.BATCHED_STATEMENTS) == 0) {
        continue;
      }
      if (s.digestText().toLowerCase(Locale.ROOT).contains("select")) {
        continue; // INSERT ... SELECT is not rewritten into VALUES lists.
      }
      // Already rewritten: far fewer commands than rows.
      if (s.executions() < 0.5 * s.count(Via.BATCHED_STATEMENTS)) {
        continue;
      }
      shapes++;
      batched += s.count(Via.BATCHED_STATEMENTS);
      batches += s.count(Via.BATCHES);
      wire += s.executions();
      // Not rewritten, every batched row is one command: the rest ran outside executeBatch().
      singles += Math.max(0, s.executions() - s.count(Via.BATCHED_STATEMENTS));
      if (top == null || s.count(Via.BATCHED_STATEMENTS) > top.count(Via.BATCHED_STATEMENTS)) {
        top = s;
      }
    }
    double rowsPerBatch = Workload.ratio(batched, batches);
    if (batched < 100 || !(rowsPerBatch >= 2)) {
      return null;
    }
    return Recommendation.builder(
            ID, "Send each INSERT batch as one multi-row INSERT (rewriteBatchedStatements)",
            Severity.MEDIUM)
        .evidence(
            Fmt.count(shapes)
                + " INSERT shapes were run with executeBatch(): "
                + Fmt.count(batches)
                + " batches of "
                + Fmt.rate(rowsPerBatch)
                + " rows on average, sent as "
                + Fmt.count(wire)
                + " separate commands for "
                + Fmt.count(batched)
                + " rows"
                + (singles == 0
                    ? "."
                    : " (" + Fmt.count(singles) + " of them executions outside executeBatch()).")
                    )
        .evidence("Largest: " + Fmt.sql(top.digestText(), 100))
        .change(Change.builder().jdbc(JdbcProperty.REWRITE_BATCHED_STATEMENTS, "true").build())
        .expectedEffect(
            "One INSERT ... VALUES (...),(...) per batch (split at max_allowed_packet): about "
                + Fmt.count(batches)
                + " commands instead of "
                + Fmt.count(wire)
                + ".")
        .risk(
            "executeBatch() may report Statement.SUCCESS_NO_INFO (-2) instead of per-row counts;"
                + " with server prepares each distinct batch size becomes its own prepared"
                + " statement (cache and plan-cache entries).")
        .verify("A new profile shows about one command per batch for these shapes.")
        // The metric counts every execution of these shapes, batched or not; executions outside
        // batches stay one command each, so they are part of the target.
        .expect(
            Expectation.atMost(
                Metric.COMMANDS_PER_BATCHED_INSERT,
                profile,
                Workload.ratio(singles, batched) + Math.min(0.75, 1.5 / rowsPerBatch)))
        .build();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.batches();
  }
}
