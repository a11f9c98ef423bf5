package io.wireadvisor.samples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.ServerRejectsRule;
import io.wireadvisor.advisor.SessionProbeRule;
import io.wireadvisor.advisor.StatementCacheRule;
import io.wireadvisor.advisor.TextProtocolRule;
import io.wireadvisor.advisor.TransactionStateRule;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spring Boot sample as a user meets wire-advisor: the repackaged jar runs under the agent
 * (from the environment) against an empty database on the testkit's server, creates its schema,
 * serves HTTP traffic; the advisor reads the profile and advises what a default Spring Boot data
 * stack (HikariCP, Connector/J's defaults, Hibernate's prepared statements, {@code @Transactional})
 * calls for. Its copy-ready Spring Boot lines are then given to the same jar, which runs the same
 * traffic again, and the second profile must show what the advice promised.
 */
@RealDatabase
class SpringBankIT {
  /** Rounds of four requests; 100 gives every statement shape 100+ executions, the rules' evidence. */
  private static final int ROUNDS = 100;
  /** Accounts in the demo data (data.sql), 10,000.00 each. */
  private static final int ACCOUNTS = 200;
  private static final BigDecimal OPENING_BALANCE = new BigDecimal("10000.00");
  /** Connector/J caches a prepared statement only when its SQL is shorter than this (its default). */
  private static final int DEFAULT_PREP_STMT_CACHE_SQL_LIMIT = 256;
  /** What a user copies from the report's "Spring Boot (application.properties)" lines. */
  private static final Pattern SPRING_LINE =
      Pattern.compile("spring\\.(datasource\\.hikari|jpa\\.properties)\\.[\\w.-]+=\\S+");
  /** How far the first screen's estimate of round trips per statement may be from the measured. */
  private static final double ESTIMATE_TOLERANCE = 0.10;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void theDefaultSpringBootDataStackIsAdvisedServerPreparedStatementsAndTheAdvisedLinesDeliverThem(
      DatabaseServer server, @TempDir Path dir) throws Exception {
    String db = server.createDatabase("spring_bank");
    String url = server.jdbcUrl(db, null);
    ServerView view;
    try (Connection c = server.connect(db, null)) {
      view = ServerInspector.inspect(c, server.statusUrl().orElse(null));
    }

    // 1. As deployed: nothing about the driver configured.
    TrafficProfile before = runUnderAgent(server, url, dir, "before", List.of());
    assertMoneyIsConserved(server, db, ROUNDS);

    assertThat(before.sources()).as("the agent saw the application's connections").isNotEmpty();
    for (Source s : before.sources()) {
      assertThat(s.properties())
          .as("Spring Boot leaves Connector/J's defaults (source %s)", s)
          .containsEntry("useServerPrepStmts", "false")
          .containsEntry("cachePrepStmts", "false")
          .containsEntry("prepStmtCacheSqlLimit", String.valueOf(DEFAULT_PREP_STMT_CACHE_SQL_LIMIT))
          .containsEntry("useLocalSessionState", "false");
    }
    // Hibernate runs every statement as a PreparedStatement, and Connector/J's default sends each
    // one as COM_QUERY text with the parameters inlined: nothing is prepared on the server.
    assertThat(before.count(CommandType.STMT_PREPARE)).isZero();
    assertThat(before.count(CommandType.STMT_EXECUTE)).isZero();
    // Each @Transactional sets autocommit off and back on: two round trips per transaction
    // (ROUNDS transfers and 3 * ROUNDS read-only transactions).
    assertThat(before.probes()).containsKey(ProbeKind.AUTOCOMMIT_SET);
    assertThat(before.probes().get(ProbeKind.AUTOCOMMIT_SET).count()).isGreaterThanOrEqualTo(2L * 4 * ROUNDS);
    assertThat(before.probes().get(ProbeKind.AUTOCOMMIT_SET).causes()).containsKey("setAutoCommit");

    Analysis advice = Advisor.analyze(before, view);
    String report = Reports.text(advice);
    System.out.println(report);

    Recommendation text = advice.recommendation(TextProtocolRule.ID);
    assertThat(text).as("the text protocol is the first thing to change:%n%s", report).isNotNull();
    assertThat(text.change().jdbcProperties()).containsEntry("useServerPrepStmts", "true");

    // Hibernate lists every column with an alias: its SQL for an account with its currency is
    // longer than the default prepStmtCacheSqlLimit, so the cache must be sized past it.
    ShapeStats longestShape = longestRepeatedBusinessStatement(before);
    int longest = longestShape.maxSqlLength();
    assertThat(longest).as("longest repeated statement").isGreaterThanOrEqualTo(DEFAULT_PREP_STMT_CACHE_SQL_LIMIT);
    Recommendation cache = advice.recommendation(StatementCacheRule.ID);
    assertThat(cache).as("the statement cache comes with server-side statements:%n%s", report).isNotNull();
    assertThat(cache.change().jdbcProperties()).containsEntry("cachePrepStmts", "true");
    assertThat(Integer.parseInt(cache.change().jdbcProperties().get("prepStmtCacheSqlLimit")))
        .as("advised prepStmtCacheSqlLimit (a statement is cached when shorter)")
        .isGreaterThan(longest);

    Recommendation probes = advice.recommendation(SessionProbeRule.ID);
    assertThat(probes).as("@Transactional's session probes:%n%s", report).isNotNull();
    assertThat(probes.change().jdbcProperties()).containsEntry("useConfigs", "maxPerformance");

    // Every @Transactional turns autocommit off and on; every readOnly one sets read-only and back.
    Recommendation state = advice.recommendation(TransactionStateRule.ID);
    assertThat(state).as("transaction-state SETs:%n%s", report).isNotNull();
    assertThat(state.change().poolSettings()).containsEntry("autoCommit", "false");
    assertThat(state.change().hibernateProperties())
        .containsEntry("hibernate.connection.provider_disables_autocommit", "true");
    assertThat(state.change().jdbcProperties()).containsEntry("readOnlyPropagatesToServer", "false");
    long errorsBefore = errors(before);
    boolean tidb = view.isTiDB();
    if (tidb) {
      // TiDB rejects SET SESSION TRANSACTION READ ONLY (ERROR 1235): once per read-only transaction.
      ShapeStats readOnly = shapeOf(before, "set session transaction read only");
      assertThat(readOnly.errors()).containsKey(1235);
      assertThat(readOnly.errors().get(1235).count()).isGreaterThanOrEqualTo(3L * ROUNDS);
      assertThat(advice.errorsOnFirstScreen()).isTrue();
      assertThat(report).contains("Errors: ", "ERROR 1235");
      Recommendation rejects = advice.recommendation(ServerRejectsRule.ID);
      assertThat(rejects).as("TiDB's rejections:%n%s", report).isNotNull();
      assertThat(rejects.change().jdbcProperties()).containsEntry("readOnlyPropagatesToServer", "false");
    }

    // 2. The report's Spring Boot lines, as a user pastes them into application.properties
    //    (here: the equivalent command-line arguments), on the same database.
    List<String> springLines = new ArrayList<>();
    for (String line : report.split("\n")) {
      if (SPRING_LINE.matcher(line.trim()).matches()) {
        springLines.add(line.trim());
      }
    }
    assertThat(springLines).contains("spring.datasource.hikari.data-source-properties.useServerPrepStmts=true",
        "spring.datasource.hikari.auto-commit=false",
        "spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true",
        "spring.datasource.hikari.data-source-properties.readOnlyPropagatesToServer=false");

    // 2a. The lines of every JDBC-side change but the transaction-state ones (what the report
    //     advised before it knew them): the estimate for just those changes must hold too. On TiDB
    //     maxPerformance then also elides the READ WRITE after each rejected READ ONLY.
    List<Recommendation> partial = new ArrayList<>();
    for (Recommendation r : advice.recommendations()) {
      if (!r.id().startsWith("tidb-") && !r.id().equals(TransactionStateRule.ID)
          && !r.id().equals(ServerRejectsRule.ID)) {
        partial.add(r);
      }
    }
    List<String> partialArgs = new ArrayList<>();
    springLinesOf(partial).forEach(l -> partialArgs.add("--" + l));
    TrafficProfile partialRun = runUnderAgent(server, url, dir, "partial", partialArgs);
    assertMoneyIsConserved(server, db, 2 * ROUNDS);
    double partialPredicted = Advisor.outlook(before, view, partial).roundTripsPerStatementAfter();
    double partialMeasured = Metric.COMMANDS_PER_STATEMENT.compute(partialRun);
    System.out.printf("spring-bank on %s with %s only: round trips per business statement %.2f"
        + " (estimated %.2f); ERR replies %d%n", view.describe(), partialArgs, partialMeasured,
        partialPredicted, errors(partialRun));
    assertThat(partialPredicted).as("estimate for %s vs measured %.3f", partialArgs, partialMeasured)
        .isCloseTo(partialMeasured, org.assertj.core.data.Percentage.withPercentage(100 * ESTIMATE_TOLERANCE));

    List<String> args = new ArrayList<>();
    springLines.forEach(l -> args.add("--" + l));
    TrafficProfile after = runUnderAgent(server, url, dir, "after", args);
    assertMoneyIsConserved(server, db, 3 * ROUNDS);

    assertThat(after.sources()).isNotEmpty();
    for (Source s : after.sources()) {
      for (String key : advice.combinedChange().jdbcProperties().keySet()) {
        if (!key.equals("useConfigs")) { // a bundle: the agent records the properties it sets
          assertThat(s.properties()).as("after %s", s).containsEntry(key, advice.combinedChange().jdbcProperties().get(key));
        }
      }
    }
    // The longest statement, never cacheable before, now one EXECUTE per run and at most one
    // PREPARE per pooled connection (HikariCP's default pool: 10).
    ShapeStats longestAfter = after.shape(longestShape.digest());
    assertThat(longestAfter).as("%s in the second profile", longestShape.digestText()).isNotNull();
    assertThat(longestAfter.count(Via.TEXT_EXECUTES)).isZero();
    assertThat(longestAfter.count(Via.EXECUTES)).isEqualTo(longestShape.count(Via.TEXT_EXECUTES));
    assertThat(longestAfter.count(Via.PREPARES)).isBetween(1L, 10L);
    assertThat(longestAfter.count(Via.CLOSES)).isZero();

    // The first screen's estimate, every change together, against what the changed run measured.
    double predicted = advice.outlook().roundTripsPerStatementAfter();
    double measured = Metric.COMMANDS_PER_STATEMENT.compute(after);
    System.out.printf("spring-bank on %s: round trips per business statement %.2f before, %.2f after"
        + " (estimated %.2f); ERR replies %d before, %d after%n", view.describe(),
        Metric.COMMANDS_PER_STATEMENT.compute(before), measured, predicted, errorsBefore, errors(after));
    assertThat(predicted).as("estimated round trips per statement vs measured %.3f:%n%s", measured, report)
        .isCloseTo(measured, org.assertj.core.data.Percentage.withPercentage(100 * ESTIMATE_TOLERANCE));
    assertThat(errors(after)).as("ERR replies after the change").isZero();

    Comparison diff = Comparison.of(before, after, view);
    String diffReport = Reports.text(diff);
    System.out.println(diffReport);
    List<String> applied = jdbcSideIds(advice);
    Set<String> met = new TreeSet<>();
    for (Comparison.Item item : diff.items()) {
      if (!applied.contains(item.recommendation().id())) {
        continue; // server-side (TiDB) advice: the DBA's, not applied here
      }
      assertThat(item.outcome().status())
          .as("%s: %s%n%s", item.recommendation().id(), item.outcome().expectation().description(), diffReport)
          .isNotEqualTo(Expectation.Outcome.Status.NOT_MET);
      if (item.outcome().status() == Expectation.Outcome.Status.MET) {
        met.add(item.recommendation().id());
      }
    }
    assertThat(met).as("every applied recommendation measured and met:%n%s", diffReport)
        .containsExactlyInAnyOrderElementsOf(applied);

    Analysis afterAdvice = Advisor.analyze(after, view);
    assertThat(jdbcSideIds(afterAdvice))
        .as("nothing JDBC-side left to advise after the change:%n%s", Reports.text(afterAdvice))
        .isEmpty();
  }

  /** Runs the jar under the agent, drives {@link #ROUNDS} rounds of traffic, stops it, reads the profile. */
  private TrafficProfile runUnderAgent(DatabaseServer server, String url, Path dir, String name, List<String> args)
      throws Exception {
    Path profile = dir.resolve(name + ".json");
    try (SpringBankProcess app = SpringBankProcess.start(url, server.user(), server.password(), profile,
        dir.resolve(name + ".log"), args)) {
      try {
        drive(app.base());
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\napplication output:\n" + app.output(), e);
      }
      app.stop();
      assertThat(profile).as("profile written at exit; output:%n%s", app.output()).exists();
      assertThat(app.output()).contains("wire-advisor: agent", "---- wire-advisor report ----");
    }
    return ProfileJson.readFile(profile);
  }

  /**
   * Per round: an account, a customer's accounts, a transfer of 1.00 between two accounts, the
   * receiving account's ledger; then one refused transfer (more than any balance).
   */
  private void drive(URI base) throws Exception {
    for (int i = 1; i <= ROUNDS; i++) {
      long from = (i * 7L) % ACCOUNTS + 1;
      long to = (i * 13L) % ACCOUNTS + 1;
      if (to == from) {
        to = to % ACCOUNTS + 1;
      }
      JsonNode account = get(base, "/accounts/" + from, 200);
      assertThat(account.get("id").asLong()).isEqualTo(from);
      assertThat(account.get("currency").asText()).isEqualTo("EUR");
      long customer = i % (ACCOUNTS / 2) + 1;
      JsonNode accounts = get(base, "/customers/" + customer + "/accounts", 200);
      assertThat(accounts.size()).as("customer %d owns accounts %d and %d", customer, 2 * customer - 1, 2 * customer)
          .isEqualTo(2);
      JsonNode transfer = post(base, "/transfers",
          "{\"fromAccountId\":" + from + ",\"toAccountId\":" + to + ",\"amount\":\"1.00\"}", 201);
      assertThat(transfer.get("amount").decimalValue()).isEqualByComparingTo("1.00");
      JsonNode ledger = get(base, "/accounts/" + to + "/ledger?limit=5", 200);
      assertThat(ledger.get(0).get("transferId").asLong()).isEqualTo(transfer.get("transferId").asLong());
      assertThat(ledger.get(0).get("debitCredit").asText()).isEqualTo("C");
    }
    JsonNode refused = post(base, "/transfers", "{\"fromAccountId\":1,\"toAccountId\":2,\"amount\":\"1000000.00\"}", 422);
    assertThat(refused.get("detail").asText()).contains("insufficient funds");
    get(base, "/accounts/" + (ACCOUNTS + 1), 404);
  }

  private JsonNode get(URI base, String path, int status) throws Exception {
    return send(HttpRequest.newBuilder(base.resolve(path)).GET(), status);
  }

  private JsonNode post(URI base, String path, String body, int status) throws Exception {
    return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)), status);
  }

  private JsonNode send(HttpRequest.Builder request, int status) throws Exception {
    HttpRequest r = request.timeout(Duration.ofSeconds(30)).build();
    HttpResponse<String> response = http.send(r, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("%s %s: %s", r.method(), r.uri(), response.body()).isEqualTo(status);
    return json.readTree(response.body());
  }

  /** Transfers move money, never make or lose it; each booked one has a debit and a credit. */
  private static void assertMoneyIsConserved(DatabaseServer server, String db, int transfers) throws Exception {
    try (Connection c = server.connect(db, null); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(balance), SUM(available_balance) FROM account")) {
        rs.next();
        BigDecimal total = OPENING_BALANCE.multiply(BigDecimal.valueOf(ACCOUNTS));
        assertThat(rs.getInt(1)).isEqualTo(ACCOUNTS);
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo(total);
        assertThat(rs.getBigDecimal(3)).isEqualByComparingTo(total);
      }
      try (ResultSet rs = st.executeQuery("SELECT (SELECT COUNT(*) FROM transfer),"
          + " (SELECT COUNT(*) FROM ledger_entry WHERE debit_credit = 'D'),"
          + " (SELECT COUNT(*) FROM ledger_entry WHERE debit_credit = 'C')")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(transfers);
        assertThat(rs.getInt(2)).isEqualTo(transfers);
        assertThat(rs.getInt(3)).isEqualTo(transfers);
      }
    }
  }

  /** The Spring Boot lines of some recommendations, as the report writes them. */
  private static List<String> springLinesOf(List<Recommendation> recommendations) {
    List<String> lines = new ArrayList<>();
    for (Recommendation r : recommendations) {
      r.change().jdbcProperties().forEach((k, v) -> lines.add("spring.datasource.hikari.data-source-properties." + k + "=" + v));
      r.change().poolSettings().forEach((k, v) -> lines.add("spring.datasource.hikari."
          + k.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT) + "=" + v));
      r.change().hibernateProperties().forEach((k, v) -> lines.add("spring.jpa.properties." + k + "=" + v));
    }
    return lines;
  }

  private static long errors(TrafficProfile p) {
    return p.shapes().values().stream().mapToLong(s -> s.count(Via.ERRORS)).sum();
  }

  private static ShapeStats shapeOf(TrafficProfile p, String digestText) {
    return p.shapes().values().stream().filter(s -> s.digestText().equals(digestText)).findFirst()
        .orElseThrow(() -> new AssertionError("no shape '" + digestText + "' in " + p.shapes().keySet()));
  }

  /** The application's own statement with the longest SQL among those repeated every round. */
  private static ShapeStats longestRepeatedBusinessStatement(TrafficProfile profile) {
    ShapeStats longest = null;
    for (ShapeStats s : profile.shapes().values()) {
      if (s.probe() == null && s.count(Via.TEXT_EXECUTES) >= ROUNDS
          && (longest == null || s.maxSqlLength() > longest.maxSqlLength())) {
        longest = s;
      }
    }
    assertThat(longest).as("statements repeated %d times", ROUNDS).isNotNull();
    return longest;
  }

  /** Advice the application itself applies (JDBC properties, pool); TiDB's global settings are the DBA's. */
  private static List<String> jdbcSideIds(Analysis analysis) {
    List<String> ids = new ArrayList<>();
    for (String id : analysis.ids()) {
      if (!id.startsWith("tidb-")) {
        ids.add(id);
      }
    }
    return ids;
  }
}
