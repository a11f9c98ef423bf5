package io.wireadvisor.samples.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.PlanCacheRefusedRule;
import io.wireadvisor.advisor.Workload;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second application, written as teams write them (Spring Data JPA, lazy collections, read-only
 * services, Pageable listings, batched inserts), through the whole configuration cycle on the
 * testkit's server: (1) as the team configured it for MySQL, (2) with only the Spring Boot lines
 * of the advisor's report on that first profile, taken from the report's JSON, (3) with those and
 * the one line an expert adds ({@link #EXPERT_LINE}), (4) with the best configuration found by
 * hand ({@link #BEST_BY_HAND}). Each run has its own empty database, the
 * same {@link #OPERATIONS} business operations, and its data checked afterwards.
 *
 * <p>The measure is wire round trips per business operation: the workload is fixed, so the total
 * of wire commands is comparable across runs. Round trips per business statement (the first
 * screen's figure, {@link Metric#COMMANDS_PER_STATEMENT}) is printed too but is not comparable
 * here: fixing N+1 loading or batching inserts removes business statements as well as round
 * trips, and the ratio then rises while the application does less work.
 */
@RealDatabase
class SpringShopIT {
  /** Business operations per run: every statement shape gets 10+ executions (the rules' evidence). */
  static final int OPERATIONS = 200;
  static final int THREADS = 4;
  /** How close the report's lines must come to the best configuration found by hand. */
  private static final double TOLERANCE = 0.10;
  private static final long SIDE_RUN_TIMEOUT_SECONDS = 600;
  /** What a user copies from the report's Spring Boot lines. */
  private static final Pattern SPRING_LINE =
      Pattern.compile("spring\\.(datasource\\.hikari|jpa\\.properties)\\.[\\w.-]+=\\S+");
  private static final String DS = "--spring.datasource.hikari.data-source-properties.";
  private static final String JPA = "--spring.jpa.properties.hibernate.";

  /**
   * The best configuration found by hand on TiDB (docs/spring-shop.md has the runs that led
   * here): server-side prepared statements in a cache large enough for every statement and SQL
   * length, local session state, rewritten batches, no read-only SETs, autocommit off in the pool
   * and Hibernate told so; and the Hibernate line for this application's lazy collections and
   * to-one associations: loaded 16 at a time instead of one query each (N+1). Hibernate's
   * in_clause_parameter_padding was tried and removed nothing more (2,111 commands against
   * 2,089 for 400 operations on TiDB).
   */
  static final List<String> BEST_BY_HAND = List.of(
      DS + "useServerPrepStmts=true",
      DS + "cachePrepStmts=true",
      DS + "prepStmtCacheSize=250",
      DS + "prepStmtCacheSqlLimit=2048",
      DS + "useConfigs=maxPerformance",
      DS + "rewriteBatchedStatements=true",
      DS + "readOnlyPropagatesToServer=false",
      "--spring.datasource.hikari.auto-commit=false",
      JPA + "connection.provider_disables_autocommit=true",
      JPA + "default_batch_fetch_size=16");

  /** The line an expert adds to the report's for this application: the N+1 loading batched. */
  static final String EXPERT_LINE = JPA + "default_batch_fetch_size=16";

  /** The shape of the tag loading, one product at a time (the N+1 of {@code Product.tags}). */
  private static final String TAGS_ONE_BY_ONE = "select t1_0.product_id, t1_1.id, t1_1.name from product_tag t1_0"
      + " join tag t1_1 on t1_1.id = t1_0.tag_id where t1_0.product_id = ?";

  private final ObjectMapper json = new ObjectMapper();

  @Test
  void theReportsLinesAloneComeWithinTenPercentOfTheBestConfigurationFoundByHand(DatabaseServer server,
      @TempDir Path dir) throws Exception {
    ServerView view;
    try (Connection c = server.connect(null, null)) {
      view = ServerInspector.inspect(c, server.statusUrl().orElse(null));
    }

    // 1. As the team configured it; 4. the best configuration found by hand. Independent runs
    //    on their own databases, side by side to keep the test's time down (what the wire
    //    carries does not depend on timing).
    ExecutorService side = Executors.newSingleThreadExecutor();
    try {
      Future<TrafficProfile> bestRun = side.submit(() -> run(server, dir, "best", BEST_BY_HAND));
      TrafficProfile before = run(server, dir, "before", List.of());
      Analysis advice = Advisor.analyze(before, view);
      String report = Reports.text(advice);
      System.out.println(report);
      if (server.isTiDB()) {
        // Every @Transactional(readOnly = true) sends SET SESSION TRANSACTION READ ONLY: ERROR 1235.
        assertThat(errors(before)).as("ERR replies before").isGreaterThanOrEqualTo(readOnlyOperations());
        assertThat(report).contains("ERROR 1235");
      }

      // 2. Only the report's lines: the Spring Boot lines of its JSON ("allChanges"), as a user
      //    pastes them into application.properties (here: the same as command-line arguments).
      JsonNode reportJson = json.readTree(Reports.json(advice));
      List<String> lines = new ArrayList<>();
      for (JsonNode line : reportJson.get("allChanges").get("springBoot")) {
        if (SPRING_LINE.matcher(line.asText().trim()).matches()) {
          lines.add("--" + line.asText().trim());
        }
      }
      assertThat(lines).as("the report's Spring Boot lines:%n%s", report).isNotEmpty();
      TrafficProfile best = bestRun.get(SIDE_RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      // 3. Where the report does not give the batch fetch: its lines and the one an expert adds
      //    for this application (see the finding), to show that line is the whole gap.
      boolean advisesBatchFetch = lines.stream().anyMatch(l -> l.contains("batch_fetch_size"));
      List<String> plusExpert = new ArrayList<>(lines);
      plusExpert.add(EXPERT_LINE);
      Future<TrafficProfile> plusRun = advisesBatchFetch
          ? null : side.submit(() -> run(server, dir, "report-plus-expert", plusExpert));
      TrafficProfile reportOnly = run(server, dir, "report", lines);
      TrafficProfile reportPlusExpert = plusRun == null ? null : plusRun.get(SIDE_RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      compare(server, view, before, lines, reportOnly, reportPlusExpert, best);
      assertEstimate(advice.outlook(), before, reportOnly);
    } finally {
      side.shutdownNow();
    }
  }

  /**
   * TiDB's own STATEMENTS_SUMMARY for a schema: "refused N of M rows" when it holds a product_tag
   * statement TiDB's plan cache refused, else what it holds (rows of the schema, statements evicted,
   * the limit).
   */
  private static String summaryState(DatabaseServer server, String db) throws Exception {
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      long refused = 0;
      long rows = 0;
      try (ResultSet rs = s.executeQuery("SELECT DIGEST_TEXT, PLAN_CACHE_UNQUALIFIED"
          + " FROM information_schema.STATEMENTS_SUMMARY WHERE SCHEMA_NAME = DATABASE()")) {
        while (rs.next()) {
          rows++;
          if (rs.getString(1).contains("product_tag") && rs.getLong(2) > 0) {
            refused += rs.getLong(2);
          }
        }
      }
      if (refused > 0) {
        return "refused " + refused + " of " + rows + " rows";
      }
      String evicted = "?";
      try (ResultSet rs = s.executeQuery(
          "SELECT IFNULL(SUM(EVICTED_COUNT), 0) FROM information_schema.STATEMENTS_SUMMARY_EVICTED")) {
        if (rs.next()) {
          evicted = rs.getString(1);
        }
      }
      String limit = "?";
      try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.tidb_stmt_summary_max_stmt_count")) {
        if (rs.next()) {
          limit = rs.getString(1);
        }
      }
      return "no refused product_tag row; " + rows + " rows of the schema, " + evicted
          + " statements evicted (tidb_stmt_summary_max_stmt_count " + limit + ")";
    }
  }

  private void compare(DatabaseServer server, ServerView view, TrafficProfile before, List<String> lines,
      TrafficProfile reportOnly, TrafficProfile reportPlusExpert, TrafficProfile best) throws Exception {
    double perOpBefore = perOperation(before);
    double perOpReport = perOperation(reportOnly);
    double perOpBest = perOperation(best);
    System.out.printf(Locale.ROOT, "spring-shop on %s, %d operations on %d threads:%n"
        + "  %-14s %8s %10s %10s %5s%n", view.describe(), OPERATIONS, THREADS,
        "config", "commands", "per op", "per stmt", "ERR");
    print("before", before);
    print("report", reportOnly);
    if (reportPlusExpert != null) {
      print("report+line", reportPlusExpert);
    }
    print("best by hand", best);
    System.out.println("report lines: " + lines);

    assertThat(perOpReport).as("the report's lines remove round trips").isLessThan(perOpBefore);
    assertThat(errors(reportOnly)).as("ERR replies with the report's lines").isZero();
    assertThat(errors(best)).as("ERR replies with the best configuration").isZero();

    if (server.isTiDB()) {
      // The best configuration's batch fetching binds IN lists padded with NULL up to the batch
      // size, which TiDB's plan cache refuses: the report on its profile must name them, with
      // TiDB's reason in words.
      // Inspected as a user does (analyze --jdbc-url with the application's URL): from the best
      // run's database, whose statements the inspector reads first. Without a schema it reads the
      // whole server's 500 most executed, where the suite's earlier tests on the same TiDB can
      // crowd this run's 80 refused executions out (a CI run's TiDB pass did).
      String bestUrl = best.sources().get(0).jdbcUrl();
      String bestDb = bestUrl.substring(bestUrl.lastIndexOf('/') + 1);
      assertThat(bestDb).startsWith("spring_shop_best");
      String tidbBefore = summaryState(server, bestDb);
      ServerView now;
      try (Connection c = server.connect(bestDb, null)) {
        now = ServerInspector.inspect(c, server.statusUrl().orElse(null));
      }
      String tidbAfter = summaryState(server, bestDb);
      String bestReport = Reports.text(Advisor.analyze(best, now));
      System.out.println(bestReport);
      // What TiDB itself holds for the best run's schema, read apart from the inspector: the report
      // can name a refusal only where TiDB's summary still has it. Twice in .ci/run's TiDB pass, in
      // a container that had served the whole suite, the best schema's rows were gone from
      // STATEMENTS_SUMMARY when read (cause not found; its LRU of tidb_stmt_summary_max_stmt_count
      // statements was full and evicting); the report then quoted other schemas' rows of the same
      // text, which it must not.
      // (Read before and after the inspection; a row that went in between decides nothing.)
      String tidbState = tidbBefore.equals(tidbAfter) ? tidbBefore : tidbBefore + ", then " + tidbAfter;
      System.out.println("TiDB's STATEMENTS_SUMMARY for " + bestDb + ": " + tidbState);
      boolean refused = tidbBefore.startsWith("refused ");
      if (refused == tidbAfter.startsWith("refused ")) {
        if (refused) {
          assertThat(bestReport).as("plan-cache refusals named on the best configuration's profile (TiDB: %s)",
              tidbState).contains(PlanCacheRefusedRule.ID, "product_tag", "bound as NULL");
        } else {
          assertThat(bestReport).as("no other schema's rows stand in for the best run's (TiDB: %s)", tidbState)
              .doesNotContain("bound as NULL");
        }
      }
    }

    boolean advisesBatchFetch = lines.stream().anyMatch(l -> l.contains("batch_fetch_size"));
    if (advisesBatchFetch) {
      assertThat(perOpReport).as("round trips per operation with the report's lines %s vs %.2f by hand",
          lines, perOpBest).isLessThanOrEqualTo(perOpBest * (1 + TOLERANCE));
    } else {
      // FINDING (issue 24): the report does not see the N+1 loading of the lazy collections and
      // eager to-one associations (Product.tags, Product.category, PurchaseOrder.lines,
      // OrderLine.product), and so never gives hibernate.default_batch_fetch_size: its lines stay
      // far from the best configuration. This branch asserts the gap as measured, with its cause,
      // so that it fails (and this test must then be switched to the assertion above) as soon as
      // the advisor learns to advise the batch fetch.
      ShapeStats tags = before.shapes().values().stream().filter(s -> s.digestText().equals(TAGS_ONE_BY_ONE))
          .findFirst().orElseThrow(() -> new AssertionError("no tag loading one product at a time"));
      assertThat(tags.executions()).as("tags loaded per product: one query for each product of a page")
          .isGreaterThanOrEqualTo((long) CatalogueService.PAGE_SIZE * browseOperations());
      assertThat(reportOnly.shapes().values().stream().filter(s -> s.digestText().equals(TAGS_ONE_BY_ONE))
          .mapToLong(ShapeStats::executions).sum())
          .as("the report's lines leave the N+1").isEqualTo(tags.executions());
      assertThat(perOperation(reportPlusExpert)).as("the report's lines and %s vs %.2f by hand", EXPERT_LINE, perOpBest)
          .isLessThanOrEqualTo(perOpBest * (1 + TOLERANCE));
      assertThat(errors(reportPlusExpert)).isZero();
      assertThat(perOpReport).as("FINDING: the report's lines %s reach %.2f round trips per operation, the"
          + " best by hand %.2f (gap above %.0f%%: no N+1 advice)", lines, perOpReport, perOpBest, 100 * TOLERANCE)
          .isGreaterThan(perOpBest * (1 + TOLERANCE));
    }
  }

  /**
   * The first screen's estimate (every recommendation of the report together, made from the first
   * profile alone) against the run with the report's lines: wire commands (so per business
   * operation), business statements (the batch fetch and the rewritten batches remove some) and
   * round trips per statement, each within {@link #TOLERANCE}. The server-side (TiDB) advice is
   * not applied in that run; it changes no wire command.
   */
  private static void assertEstimate(Outlook o, TrafficProfile before, TrafficProfile reportOnly) {
    long statements = Workload.of(reportOnly).businessExecutions();
    double measured = Metric.COMMANDS_PER_STATEMENT.compute(reportOnly);
    System.out.printf(Locale.ROOT, "estimate from the first profile: %d wire commands (%.2f per op) for %d"
        + " business statements, %.2f per statement; measured with the report's lines: %d (%.2f per op)"
        + " for %d, %.2f; before: %d for %d%n", o.commandsAfterTotal(),
        (double) o.commandsAfterTotal() / OPERATIONS, o.businessStatementsAfter(), o.roundTripsPerStatementAfter(),
        reportOnly.totalCommands(), perOperation(reportOnly), statements, measured, before.totalCommands(),
        o.businessStatements());
    System.out.println("  estimated by type: " + o.commandsAfter());
    assertThat((double) o.commandsAfterTotal()).as("estimated wire commands after vs measured %d",
        reportOnly.totalCommands()).isCloseTo(reportOnly.totalCommands(), withPercentage(100 * TOLERANCE));
    assertThat((double) o.businessStatementsAfter()).as("estimated business statements after vs measured %d",
        statements).isCloseTo(statements, withPercentage(100 * TOLERANCE));
    assertThat(o.roundTripsPerStatementAfter()).as("estimated round trips per statement vs measured %.3f",
        measured).isCloseTo(measured, withPercentage(100 * TOLERANCE));
  }

  /** Runs the jar under the agent on a new database, checks its data, returns its profile. */
  private TrafficProfile run(DatabaseServer server, Path dir, String name, List<String> args) throws Exception {
    String db = server.createDatabase("spring_shop_" + name);
    Path profile = dir.resolve(name + ".json");
    List<String> all = new ArrayList<>();
    all.add("--shop.workload.operations=" + OPERATIONS);
    all.add("--shop.workload.threads=" + THREADS);
    all.addAll(args);
    String output = SpringShopProcess.run(server.jdbcUrl(db, null), server.user(), server.password(), profile,
        dir.resolve(name + ".log"), all);
    System.out.println(name + ": " + output.lines().filter(l -> l.startsWith("spring-shop workload:")
        || l.contains("Started SpringShopApplication")).map(l -> l.replaceFirst("^.*?(Started|spring-shop workload)", "$1")).toList());
    assertThat(output).contains("spring-shop workload: " + OPERATIONS + " operations", "---- wire-advisor report ----");
    assertThat(profile).as("profile written at exit; output:%n%s", output).exists();
    assertData(server, db);
    return ProfileJson.readFile(profile);
  }

  /** Orders, their lines, the stock they took and the imported reviews, as the workload made them. */
  private static void assertData(DatabaseServer server, String db) throws Exception {
    long orders = 0;
    long lines = 0;
    long quantity = 0;
    long imports = 0;
    for (int i = 0; i < OPERATIONS; i++) {
      if (ShopWorkload.kind(i) == ShopWorkload.Kind.ORDER) {
        orders++;
        for (Views.Item item : ShopWorkload.items(i)) {
          lines++;
          quantity += item.quantity();
        }
      } else if (ShopWorkload.kind(i) == ShopWorkload.Kind.REVIEWS) {
        imports++;
      }
    }
    try (Connection c = server.connect(db, null); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT (SELECT COUNT(*) FROM purchase_order),"
          + " (SELECT COUNT(*) FROM order_line), (SELECT SUM(quantity) FROM order_line),"
          + " (SELECT SUM(stock) FROM product), (SELECT COUNT(*) FROM review),"
          + " (SELECT SUM(total) FROM purchase_order), (SELECT SUM(quantity * unit_price) FROM order_line)")) {
        rs.next();
        assertThat(rs.getLong(1)).as("orders").isEqualTo(orders);
        assertThat(rs.getLong(2)).as("order lines").isEqualTo(lines);
        assertThat(rs.getLong(3)).as("items sold").isEqualTo(quantity);
        assertThat(rs.getLong(4)).as("stock left").isEqualTo(ShopWorkload.PRODUCTS * 1_000_000L - quantity);
        assertThat(rs.getLong(5)).as("reviews").isEqualTo(2L * ShopWorkload.PRODUCTS
            + imports * ShopWorkload.REVIEWS_PER_IMPORT);
        assertThat(rs.getBigDecimal(6)).as("order totals").isEqualByComparingTo(rs.getBigDecimal(7));
        assertThat(rs.getBigDecimal(6)).isGreaterThan(BigDecimal.ZERO);
      }
    }
  }

  private static long count(ShopWorkload.Kind kind) {
    long n = 0;
    for (int i = 0; i < OPERATIONS; i++) {
      if (ShopWorkload.kind(i) == kind) {
        n++;
      }
    }
    return n;
  }

  private static long browseOperations() {
    return count(ShopWorkload.Kind.BROWSE);
  }

  /** Operations in a read-only transaction: catalogue pages, product pages, order histories. */
  private static long readOnlyOperations() {
    return count(ShopWorkload.Kind.BROWSE) + count(ShopWorkload.Kind.PRODUCT) + count(ShopWorkload.Kind.HISTORY);
  }

  /** Wire commands of the whole run (start, schema, workload, shutdown) per business operation. */
  private static double perOperation(TrafficProfile p) {
    return (double) p.totalCommands() / OPERATIONS;
  }

  private static long errors(TrafficProfile p) {
    return p.shapes().values().stream().mapToLong(s -> s.count(Via.ERRORS)).sum();
  }

  private static void print(String name, TrafficProfile p) {
    System.out.printf(Locale.ROOT, "  %-14s %8d %10.2f %10.2f %5d%n", name, p.totalCommands(), perOperation(p),
        Metric.COMMANDS_PER_STATEMENT.compute(p), errors(p));
  }
}
