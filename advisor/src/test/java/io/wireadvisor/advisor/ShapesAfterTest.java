package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.PatternStats;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.report.Reports;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The first screen's "after" for changes that remove statements ({@link ShapesAfter}): a
 * Hibernate application as Connector/J puts it on the wire over text (N+1 loops, pairs of loads,
 * JDBC batches sent row by row), and the same application as it runs with every advised change
 * (server-prepared statements in a cache, one PREPARE per statement and connection; batch fetching;
 * rewritten batches). The estimate must be that second traffic: commands by type, statements, and
 * round trips per statement.
 */
class ShapesAfterTest {
  private static final int IN_TRANS = 0x0001;
  private static final int ENDED = 0x0000;
  private static final int CONNECTIONS = 4;
  private static final int ROUNDS = 10;

  // Hibernate 6's SQL (aliases p1_0, c1_0, ...): batch fetching changes only what Hibernate sends.
  private static final String PARENTS = "SELECT p1_0.id, p1_0.name FROM parent p1_0 WHERE p1_0.page = 1";
  private static final String CHILD = "SELECT c1_0.id, c1_0.v FROM child c1_0 WHERE c1_0.parent_id = 5";
  private static final String CHILD_IN =
      "SELECT c1_0.id, c1_0.v FROM child c1_0 WHERE c1_0.parent_id IN (1, 2, 3, 4, 5)";
  private static final String OWNER = "SELECT o1_0.id, o1_0.name FROM owner o1_0 WHERE o1_0.id = 3";
  private static final String VISITS = "SELECT v1_0.id, v1_0.day FROM visit v1_0 WHERE v1_0.pet_id = 5";
  private static final String VISITS_IN = "SELECT v1_0.id, v1_0.day FROM visit v1_0 WHERE v1_0.pet_id IN (5, 6)";
  private static final String INSERT = "INSERT INTO review (id, body) VALUES (1, 'a')";
  private static final String INSERT_ROWS =
      "INSERT INTO review (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')";

  /** One connection of the application: what it prepared, by SQL text (Connector/J's cache key). */
  private static final class Connection {
    final WireSession session;
    final Set<String> prepared = new HashSet<>();
    int nextId = 1;

    Connection(WireSession session) {
      this.session = session;
    }
  }

  /**
   * Per round, on {@link #CONNECTIONS} pooled connections in turn: 3 catalogue pages (a page of 10
   * parents, then their children one parent at a time: N+1), 3 owners with two pets (each pet's
   * visits, 3 rows each: a pair), 2 imports of 5 rows (one JDBC batch), 1 product page (one child
   * and one visit list, once each). {@code advised}: server-prepared and cached, batch fetching
   * (the loop and the pair become one IN (...) each), batches rewritten into one multi-row INSERT.
   */
  static TrafficProfile app(boolean advised) {
    ProfileRecorder rec = new ProfileRecorder(RecorderSettings.defaults());
    Map<String, String> props = new TreeMap<>();
    props.put("useServerPrepStmts", String.valueOf(advised));
    props.put("cachePrepStmts", String.valueOf(advised));
    props.put("rewriteBatchedStatements", String.valueOf(advised));
    props.put("prepStmtCacheSqlLimit", "2048");
    rec.source(new Source(Source.AGENT, "0.1.0", "h:1", "MySQL Connector/J", "mysql-connector-j-9.5.0",
        "11.4.5-MariaDB", "REPEATABLE-READ", "jdbc:mysql://db:3306/app", props,
        System.currentTimeMillis() - 60_000, System.currentTimeMillis()));
    List<Connection> pool = new ArrayList<>();
    for (int i = 0; i < CONNECTIONS; i++) {
      pool.add(new Connection(new WireSession(rec, new WireSession.Budget(), null)));
    }
    char[] round = "AAABBBCCD".toCharArray();
    int t = 0;
    for (int r = 0; r < ROUNDS; r++) {
      for (char kind : round) {
        Connection c = pool.get(t++ % CONNECTIONS);
        switch (kind) {
          case 'A':
            run(rec, c, advised, PARENTS, 10);
            if (advised) {
              run(rec, c, true, CHILD_IN, 10);
            } else {
              for (int i = 0; i < 10; i++) {
                run(rec, c, false, CHILD, 1);
              }
            }
            break;
          case 'B':
            run(rec, c, advised, OWNER, 1);
            if (advised) {
              run(rec, c, true, VISITS_IN, 6);
            } else {
              run(rec, c, false, VISITS, 3);
              run(rec, c, false, VISITS, 3);
            }
            break;
          case 'C':
            batch(rec, c, advised);
            break;
          default:
            run(rec, c, advised, CHILD, 1);
            run(rec, c, advised, VISITS, 3);
        }
        c.session.command(CommandType.QUERY, 100_000);
        c.session.query(rec.shape("COMMIT"), 100_000, WireSession.NO_ERROR, null);
        c.session.result(-1, ENDED);
      }
    }
    for (Connection c : pool) {
      c.session.end();
    }
    return rec.snapshot();
  }

  /** One statement: COM_QUERY, or (advised) COM_STMT_EXECUTE after one PREPARE per connection. */
  private static void run(ProfileRecorder rec, Connection c, boolean prepared, String sql, long rows) {
    ShapeHandle h = rec.shape(sql);
    if (prepared) {
      prepare(rec, c, sql);
      c.session.command(CommandType.STMT_EXECUTE, 200_000);
      c.session.statementCommand(h, Via.EXECUTES, 200_000, WireSession.NO_ERROR, null);
    } else {
      c.session.command(CommandType.QUERY, 200_000);
      c.session.query(h, 200_000, WireSession.NO_ERROR, null);
    }
    c.session.result(rows, IN_TRANS);
  }

  private static void prepare(ProfileRecorder rec, Connection c, String sql) {
    if (c.prepared.add(sql)) {
      ShapeHandle h = rec.shape(sql);
      c.session.command(CommandType.STMT_PREPARE, 300_000);
      c.session.prepare(h, 300_000, WireSession.NO_ERROR, null);
      c.session.prepared(c.nextId++, h);
    }
  }

  /**
   * executeBatch() of 5 rows: 5 COM_QUERY; advised, Connector/J prepares the statement's own SQL
   * and the multi-row one it rewrites the batch into (a statement of its own in the cache), and
   * executes that once.
   */
  private static void batch(ProfileRecorder rec, Connection c, boolean advised) {
    ShapeHandle h = rec.shape(INSERT);
    h.record(Via.BATCHES);
    h.add(Via.BATCHED_STATEMENTS, 5);
    if (advised) {
      prepare(rec, c, INSERT);
      run(rec, c, true, INSERT_ROWS, -1);
    } else {
      for (int i = 0; i < 5; i++) {
        run(rec, c, false, INSERT, -1);
      }
    }
  }

  private static String digest(String sql) {
    return new ProfileRecorder(RecorderSettings.defaults()).shape(sql).digest();
  }

  private static Map<String, Long> byType(TrafficProfile p) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Map.Entry<CommandType, io.wireadvisor.profile.CommandStats> e : p.commands().entrySet()) {
      m.put(e.getKey().wireName(), e.getValue().count());
    }
    return m;
  }

  @Test
  void theAfterOfChangesThatRemoveStatementsIsTheTrafficUnderThemShapeByShape() {
    TrafficProfile before = app(false);
    TrafficProfile after = app(true);
    // What the collector kept: the loop as N+1, the two loads as a pair.
    assertThat(before.shape(digest(CHILD)).pattern(PatternStats.Kind.N_PLUS_ONE,
        digest(PARENTS))).isNotNull();
    assertThat(before.shape(digest(VISITS)).pattern(PatternStats.Kind.LOADED_TWICE, ""))
        .satisfies(p -> {
          assertThat(p.transactions()).isEqualTo(3 * ROUNDS);
          assertThat(p.executions()).isEqualTo(6 * ROUNDS);
        });
    Analysis a = Advisor.analyze(before, null);
    String text = Reports.text(a);
    assertThat(a.recommendation(StatementPatternRule.ID)).as(text).isNotNull();
    assertThat(a.recommendation(TextProtocolRule.ID)).as(text).isNotNull();
    assertThat(a.recommendation(BatchRewriteRule.ID)).as(text).isNotNull();

    Outlook o = a.outlook();
    long statementsAfter = Workload.of(after).businessExecutions();
    // 30 pages: 10 loads -> 1; 30 owners: 2 -> 1; 20 batches: 5 -> 1; 10 product pages as they were.
    assertThat(Workload.of(before).businessExecutions()).isEqualTo(54L * ROUNDS);
    assertThat(statementsAfter).isEqualTo(16L * ROUNDS);
    assertThat(o.businessStatementsAfter()).isEqualTo(statementsAfter);
    assertThat(o.commandsAfter()).as(text).isEqualTo(byType(after));
    assertThat(o.commandsAfterTotal()).isEqualTo(after.totalCommands());
    assertThat(o.roundTripsPerStatementAfter())
        .isEqualTo((double) after.totalCommands() / statementsAfter);
    assertThat(text).contains("After:  " + Fmt.ratio(o.roundTripsPerStatementAfter()));
    assertThat(text.replace("\n        ", " ")).contains(Fmt.count(after.totalCommands()) + " wire commands for "
        + statementsAfter + " business statements, from " + Fmt.count(before.totalCommands()) + " for "
        + Workload.of(before).businessExecutions());
    assertThat(Reports.json(a)).contains("\"businessStatementsAfter\" : " + statementsAfter);

    // The N+1 change alone (over text, as the application is now): the loops' and pairs'
    // executions go, each one COM_QUERY.
    Recommendation patterns = a.recommendation(StatementPatternRule.ID);
    assertThat(patterns.saving().commandDelta()).containsOnly(
        Map.entry(CommandType.QUERY.wireName(), -(9L + 1) * 3 * ROUNDS));
    assertThat(patterns.saving().assumption()).contains("30 of them the second of a shape's two loads");
    Outlook alone = Advisor.outlook(before, null, List.of(patterns));
    assertThat(alone.businessStatementsAfter()).isEqualTo((54L - 30) * ROUNDS);
    assertThat(alone.commandsAfterTotal()).isEqualTo(before.totalCommands() - 30L * ROUNDS);
  }

  @Test
  void withoutBatchFetchingNoLoadIsRemovedAndStatementsStay() {
    TrafficProfile before = app(false);
    Analysis a = Advisor.analyze(before, null);
    List<Recommendation> others = new ArrayList<>();
    for (Recommendation r : a.recommendations()) {
      if (!r.id().equals(StatementPatternRule.ID) && !r.id().equals(BatchRewriteRule.ID)) {
        others.add(r);
      }
    }
    Outlook o = Advisor.outlook(before, null, others);
    assertThat(o.businessStatementsAfter()).isEqualTo(o.businessStatements());
    // Every text statement became one EXECUTE: the commands stay (plus the PREPAREs).
    assertThat(o.commandsAfter().get(CommandType.STMT_EXECUTE.wireName())).isEqualTo(54L * ROUNDS);
    assertThat(o.commandsAfter().get(CommandType.QUERY.wireName())).isEqualTo(9L * ROUNDS);
  }
}
