package io.wireadvisor.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.BatchRewriteRule;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.PoolValidationRule;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.SessionProbeRule;
import io.wireadvisor.advisor.StatementCacheRule;
import io.wireadvisor.advisor.TextProtocolRule;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advisor over real profiles: an application runs under the shaded agent ({@code -javaagent},
 * forked JVM) against the harness server; the advisor reads the agent's profile and the server;
 * its JDBC-side changes are applied to the application's URL (and its pool habit) and the
 * application runs again, until nothing JDBC-side is left. Every step's profile must show what
 * the previous step's recommendations promised, and the agent's counts must equal the server's.
 */
@RealDatabase
class AgentProfileAdvisorIT {
  // Enough for every JDBC rule's thresholds (pool-validation wants >= 100 validations).
  private static final int TRANSACTIONS = 120;
  private static final int MAX_STEPS = 4;

  @Test
  void theAdvisorsJdbcChangesReachAFixpointAndEachStepDeliversWhatItPromised(
      DatabaseServer server, @TempDir Path dir) throws Exception {
    String db = server.createDatabase("e2e_advice");
    try (Connection c = server.connect(db, null)) {
      BankLikeApp.createSchema(c);
    }
    ServerView view;
    try (Connection c = server.connect(db, null)) {
      view = ServerInspector.inspect(c, server.statusUrl().orElse(null));
    }

    Map<String, String> props = new LinkedHashMap<>();
    // The embedded MariaDB resets a TLS handshake now and then on a loaded machine; TLS is not
    // what this test is about.
    props.put("sslMode", "DISABLED");
    props.put("useServerPrepStmts", "false");
    boolean validateOnBorrow = true;
    List<List<String>> path = new ArrayList<>();
    TrafficProfile previous = null;
    Analysis previousAnalysis = null;
    Analysis analysis = null;
    for (int step = 0; step < MAX_STEPS; step++) {
      TrafficProfile profile = runUnderAgent(server, db, props, validateOnBorrow, dir, step);
      // The agent's profile says when the application was busy, inside the agent's window.
      assertThat(profile.firstStatementMillis()).as("traffic span recorded").isPositive();
      assertThat(profile.lastStatementMillis()).isBetween(profile.firstStatementMillis(), profile.endMillis());
      assertThat(profile.firstStatementMillis()).isGreaterThanOrEqualTo(profile.startMillis());
      analysis = Advisor.analyze(profile, view);
      if (previous != null) {
        Comparison diff = Comparison.of(previous, profile, view);
        assertThat(diff.passed())
            .as("step %d delivers what step %d's advice promised, and no more commands per statement"
                + " or new errors:%n%s", step, step - 1, Reports.text(diff))
            .isTrue();
      }
      List<String> jdbcSide = jdbcSideIds(analysis);
      path.add(jdbcSide);
      if (jdbcSide.isEmpty()) {
        break;
      }
      for (Recommendation r : analysis.recommendations()) {
        if (!jdbcSide.contains(r.id())) {
          continue;
        }
        props.putAll(r.change().jdbcProperties());
        if (r.id().equals(PoolValidationRule.ID)) {
          validateOnBorrow = false; // this application's own "test on borrow"
        }
      }
      previous = profile;
      previousAnalysis = analysis;
    }

    System.out.printf("advisor path on %s: %s; final properties %s%n", server, path, props);
    // The baseline (text protocol, probes, batches, validation on borrow) gets each JDBC rule.
    assertThat(path.get(0)).contains(TextProtocolRule.ID, SessionProbeRule.ID,
        StatementCacheRule.ID, BatchRewriteRule.ID, PoolValidationRule.ID);
    assertThat(path.get(path.size() - 1)).as("path %s", path).isEmpty();
    assertThat(previousAnalysis).isNotNull();

    int longest = Arrays.stream(BankLikeApp.SELECTS).mapToInt(String::length).max().getAsInt();
    assertThat(props).containsEntry("useServerPrepStmts", "true")
        .containsEntry("cachePrepStmts", "true")
        .containsEntry("rewriteBatchedStatements", "true");
    // Connector/J caches a statement only when sql.length() < prepStmtCacheSqlLimit.
    assertThat(Long.parseLong(props.get("prepStmtCacheSqlLimit"))).isGreaterThan(longest);
    assertThat(Long.parseLong(props.getOrDefault("prepStmtCacheSize", "25")))
        .isGreaterThanOrEqualTo(BankLikeApp.SELECTS.length + 1);
    assertThat(analysis.recommendations()).noneMatch(r -> r.id().equals(TextProtocolRule.ID));
  }

  private static List<String> jdbcSideIds(Analysis analysis) {
    List<String> ids = new ArrayList<>();
    for (String id : analysis.ids()) {
      if (!id.startsWith("tidb-")) {
        ids.add(id);
      }
    }
    return ids;
  }

  /** Runs the application under the agent; checks the agent's counts against the server's. */
  private static TrafficProfile runUnderAgent(DatabaseServer server, String db,
      Map<String, String> props, boolean validateOnBorrow, Path dir, int step) throws Exception {
    StringBuilder query = new StringBuilder();
    for (Map.Entry<String, String> e : props.entrySet()) {
      query.append(query.length() == 0 ? "" : "&").append(e.getKey()).append('=').append(e.getValue());
    }
    Path profileFile = dir.resolve("profile-" + step + ".json");
    CounterSnapshot before = server.counters().snapshot();
    ForkedJvm.Result run = ForkedJvm.runWithAgent(
        "profile=" + profileFile + ",quiet=true",
        BankLikeApp.class,
        server.jdbcUrl(db, query.toString()), server.user(), server.password(),
        String.valueOf(TRANSACTIONS), String.valueOf(validateOnBorrow));
    CounterSnapshot delta = server.counters().snapshot().minus(before);
    assertThat(run.exitCode()).as("application output:%n%s", run.output()).isZero();
    TrafficProfile profile = ProfileJson.readFile(profileFile);

    assertThat(server.counters().asCounted(c -> profile.count(CommandType.fromWireName(c))))
        .as("step %d (%s): agent vs server", step, query)
        .isEqualTo(server.counters().exactDeltas(delta));
    return profile;
  }
}
