package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerCounters;
import io.wireadvisor.testkit.ServerKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shaded agent in a forked JVM counts exactly what the server counted: for every command the
 * server's counters count exactly, the agent's count over the same window equals the server's
 * counter delta. Then, after the window, each connection's COM_INIT_DB and COM_QUIT are checked
 * against the server too.
 */
@RealDatabase
class AgentCountsIT {
  private final DatabaseServer server;
  private final ServerCounters counters;
  private final String db;

  AgentCountsIT(DatabaseServer server) throws SQLException {
    this.server = server;
    this.counters = server.counters();
    this.db = server.createDatabase("agent");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(100), b LONGBLOB)");
      s.execute("INSERT INTO t (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')");
    }
  }

  /** TiDB's {@code tidb_skip_isolation_level_check} before this class changed it; null elsewhere. */
  private static String skipIsolationCheckBefore;

  @BeforeAll
  static void acceptEveryIsolationLevel(DatabaseServer server) throws SQLException {
    if (server.kind() != ServerKind.TIDB) {
      return;
    }
    // The isolation scenario switches to SERIALIZABLE and READ UNCOMMITTED, which TiDB refuses
    // unless told to accept them; set for new sessions, outside any counted window, and put back
    // afterwards: a test leaves the server it was given as it found it.
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT @@global.tidb_skip_isolation_level_check")) {
        rs.next();
        skipIsolationCheckBefore = rs.getString(1);
      }
      s.execute("SET GLOBAL tidb_skip_isolation_level_check = 1");
    }
  }

  @AfterAll
  static void restoreIsolationLevelCheck(DatabaseServer server) throws SQLException {
    if (skipIsolationCheckBefore == null) {
      return;
    }
    boolean on = skipIsolationCheckBefore.equalsIgnoreCase("ON") || skipIsolationCheckBefore.equals("1");
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement()) {
      s.execute("SET GLOBAL tidb_skip_isolation_level_check = " + (on ? "ON" : "OFF"));
    }
  }

  /** How the application and the agent meet. */
  enum Variant {
    /** {@code -javaagent:}, driver on the class path. */
    JAVAAGENT,
    /** The driver in a child URLClassLoader, as in a fat jar or a webapp. */
    CHILD_LOADER,
    /** The application brings other versions of Byte Buddy and Micrometer and uses them. */
    OWN_LIBRARIES,
    /** No {@code -javaagent}: {@code java -jar agent.jar attach <pid>} after a connection is open. */
    ATTACH,
    /** Run on JDK 25 (skipped when absent). */
    JDK25
  }

  /**
   * The agent hooks above TLS, so TLS adds nothing to what these tests prove, while its handshake
   * on a loaded 2-core machine has made the embedded server reset connections.
   */
  static final String NO_TLS = "&sslMode=DISABLED";

  static final Path JDK25 = Paths.get(System.getProperty("wireadvisor.agent.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"));

  static Stream<Arguments> scenarios() {
    List<Arguments> list = new ArrayList<>();
    String newest = AgentFork.newestDriver();
    String cached = "useServerPrepStmts=true&cachePrepStmts=true";
    for (String driver : AgentFork.drivers()) {
      list.add(Arguments.of(driver, "plain", "useServerPrepStmts=false", Variant.JAVAAGENT));
      list.add(Arguments.of(driver, "plain", "useServerPrepStmts=true&cachePrepStmts=false", Variant.JAVAAGENT));
      list.add(Arguments.of(driver, "plain", cached, Variant.JAVAAGENT));
      list.add(Arguments.of(driver, "isolation", cached, Variant.JAVAAGENT));
    }
    for (String driver : List.of(AgentFork.drivers().get(0), newest)) {
      list.add(Arguments.of(driver, "intercepted", "useServerPrepStmts=true&queryInterceptors="
          + io.wireadvisor.agent.it.app.LocalAnswerInterceptor.class.getName(), Variant.JAVAAGENT));
      list.add(Arguments.of(driver, "abort", "useServerPrepStmts=true", Variant.JAVAAGENT));
    }
    list.add(Arguments.of(newest, "plain", "useConfigs=maxPerformance&useServerPrepStmts=true", Variant.JAVAAGENT));
    list.add(Arguments.of(newest, "hikari", cached, Variant.JAVAAGENT));
    list.add(Arguments.of(newest, "hikari", "useServerPrepStmts=false", Variant.JAVAAGENT));
    list.add(Arguments.of(newest, "batch", "useServerPrepStmts=true&rewriteBatchedStatements=false", Variant.JAVAAGENT));
    list.add(Arguments.of(newest, "batch", "useServerPrepStmts=false&rewriteBatchedStatements=true", Variant.JAVAAGENT));
    list.add(Arguments.of(newest, "plain", cached, Variant.CHILD_LOADER));
    list.add(Arguments.of(newest, "plain", cached, Variant.OWN_LIBRARIES));
    list.add(Arguments.of(newest, "plain", cached, Variant.ATTACH));
    list.add(Arguments.of(AgentFork.drivers().get(0), "plain", cached, Variant.JDK25));
    return list.stream();
  }

  @ParameterizedTest(name = "Connector/J {0}, {1}, {2}, {3}")
  @MethodSource("scenarios")
  void agentCountsEqualServerCounters(String driver, String scenario, String properties, Variant variant)
      throws Exception {
    String java = AgentFork.defaultJava();
    if (variant == Variant.JDK25) {
      Path bin = JDK25.resolve("bin").resolve("java");
      assumeTrue(Files.isExecutable(bin), "JDK 25 not found at " + JDK25 + " (set -Dwireadvisor.agent.jdk25)");
      java = bin.toString();
    }
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it",
        driver + "-" + scenario + "-" + properties.replaceAll("[^A-Za-z0-9]+", "_") + "-" + variant);
    List<Path> cp = new ArrayList<>();
    List<String> jvm = new ArrayList<>();
    if (variant == Variant.CHILD_LOADER) {
      jvm.add("-Dworkload.childDriver=" + AgentFork.driverJar(driver).toAbsolutePath());
    } else {
      cp.add(AgentFork.driverJar(driver));
    }
    if (variant == Variant.OWN_LIBRARIES) {
      jvm.add("-Dworkload.ownLibs=true");
      cp.add(AgentFork.itJar("byte-buddy-" + System.getProperty("wireadvisor.agent.appByteBuddy") + ".jar"));
      String m = System.getProperty("wireadvisor.agent.appMicrometer");
      cp.add(AgentFork.itJar("micrometer-core-" + m + ".jar"));
      cp.add(AgentFork.itJar("micrometer-commons-" + m + ".jar"));
      cp.add(AgentFork.itJar("micrometer-observation-" + m + ".jar"));
    }
    if (variant == Variant.ATTACH) {
      jvm.add("-Dworkload.connectFirst=true");
    }
    cp.add(AgentFork.itJar("HikariCP-" + System.getProperty("wireadvisor.agent.hikari", "6.3.3") + ".jar"));
    String slf4j = System.getProperty("wireadvisor.agent.slf4j", "2.0.17");
    cp.add(AgentFork.itJar("slf4j-api-" + slf4j + ".jar"));
    cp.add(AgentFork.itJar("slf4j-nop-" + slf4j + ".jar"));
    cp.add(AgentFork.testClasses());
    String options = "profile=" + dir.resolve("final.json") + ",interval=0,quiet=true,sampleSql=true";
    int prometheusPort = -1;
    if (variant == Variant.OWN_LIBRARIES || scenario.equals("abort")) {
      try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
        prometheusPort = free.getLocalPort();
      }
      options += ",prometheus=127.0.0.1:" + prometheusPort;
    }
    List<String> cmd =
        AgentFork.command(
            java, variant == Variant.ATTACH ? null : options, jvm, cp, "io.wireadvisor.agent.it.app.WorkloadApp",
            List.of(scenario, server.jdbcUrl(db, properties + NO_TLS), server.user(),
                server.password() == null ? "" : server.password(), dir.toString()));

    try (AgentFork app = AgentFork.start(cmd, dir)) {
      if (variant == Variant.OWN_LIBRARIES) {
        // The application's classes are its own versions, not the agent's.
        assertThat(app.await("OWNLIBS"))
            .contains("byte-buddy-" + System.getProperty("wireadvisor.agent.appByteBuddy") + ".jar")
            .contains("micrometer-core-" + System.getProperty("wireadvisor.agent.appMicrometer") + ".jar");
      }
      if (variant == Variant.ATTACH) {
        app.await("CONNECTED");
        Process attach =
            new ProcessBuilder(java, "-jar", AgentFork.agentJar().toAbsolutePath().toString(), "attach",
                    String.valueOf(app.pid()), options)
                .redirectErrorStream(true)
                .start();
        String out = new String(attach.getInputStream().readAllBytes());
        assertThat(attach.waitFor()).as(out).isZero();
        assertThat(out).contains("attached to " + app.pid());
        app.send("ATTACHED");
        assertThat(app.await("READY")).as("AgentApi.isActive after attach").isEqualTo("READY true");
      } else {
        app.await("READY");
      }
      CounterSnapshot before = counters.snapshot();
      app.send("GO");
      if (scenario.equals("intercepted")) {
        // The interceptor really answered commands itself (else this scenario proves nothing).
        assertThat(app.await("ANSWERED")).isEqualTo("ANSWERED " + io.wireadvisor.agent.it.app.WorkloadApp.ROUNDS);
      }
      String[] done = app.await("DONE").trim().split(" ");
      int connections = Integer.parseInt(done[1]);
      int late = Integer.parseInt(done[2]);
      CounterSnapshot during = counters.snapshot().minus(before);
      String scraped = prometheusPort < 0 ? null : scrape(prometheusPort);
      CounterSnapshot afterWindow = counters.snapshot();
      app.send("EXIT");
      assertThat(app.awaitExit()).as("exit code; stderr:\n%s", app.stderr()).isZero();
      CounterSnapshot closing = counters.snapshot().minus(afterWindow);

      TrafficProfile window = app.profile("window.json");
      TrafficProfile fin = app.profile("final.json");
      assertThat(app.stderr()).as("the agent warns about nothing").doesNotContain("wire-advisor:");

      // 1. The window: every exactly-counted command equals the server's delta.
      assertThat(agentCounts(window)).as("agent vs server, stderr:\n%s", app.stderr())
          .isEqualTo(serverCounts(during));
      assertThat(window.totalCommands()).isPositive();
      if (scraped != null) {
        // The meters count the same commands (nothing ran between the dump and the scrape).
        io.wireadvisor.testkit.PrometheusText m = io.wireadvisor.testkit.PrometheusText.parse(scraped);
        for (CommandType t : io.wireadvisor.metrics.ProfileCollector.ALWAYS) {
          String type = t.wireName().substring(4).toLowerCase(Locale.ROOT);
          assertThat(m.value("wireadvisor_commands_total", "collector", "agent", "type", type))
              .as("wireadvisor_commands_total %s", type).isEqualTo(window.count(t));
        }
        for (CommandType t : window.commands().keySet()) {
          String type = t.wireName().substring(4).toLowerCase(Locale.ROOT);
          assertThat(m.value("wireadvisor_commands_total", "collector", "agent", "type", type))
              .as("wireadvisor_commands_total %s", type).isEqualTo(window.count(t));
        }
        assertThat(m.value("wireadvisor_active", "collector", "agent")).isEqualTo(1.0);
        assertThat(m.value("wireadvisor_command_latency_seconds_bucket", "type", "query", "le", "+Inf"))
            .isEqualTo(window.count(CommandType.QUERY));
        // The aborted connection is closed already (it is still reachable: not the GC's doing).
        assertThat(m.value("wireadvisor_connections", "collector", "agent")).isEqualTo(connections);
      }
      if (scenario.equals("abort")) {
        // Aborted: no COM_QUIT sent or counted (on MariaDB a COM_QUIT would also have shown in
        // the server's COM_QUERY, compared above).
        assertThat(window.count(CommandType.QUIT)).isZero();
      }

      // 2. After the window: a USE (Connector/J's setCatalog is a COM_QUERY) and a COM_QUIT per
      // connection the app closed itself.
      long quits = fin.count(CommandType.QUIT);
      long queries = fin.count(CommandType.QUERY) - window.count(CommandType.QUERY);
      assertThat(queries).isGreaterThanOrEqualTo(connections);
      if (!scenario.equals("hikari")) {
        assertThat(quits).as("one COM_QUIT per closed connection").isEqualTo(connections + late);
      } else {
        assertThat(quits).as("the pool's connection is closed at shutdown").isEqualTo(1);
      }
      if (server.kind() == ServerKind.MARIADB) {
        // MariaDB has no COM_QUERY counter: it is Questions arithmetic, in which each COM_QUIT
        // adds one (see testkit's StatusVariableCounters).
        assertThat(closing.get(Commands.COM_QUERY)).isEqualTo(queries + quits);
      } else {
        for (String c : counters.exactCommands()) {
          CommandType type = CommandType.fromWireName(c);
          assertThat(fin.count(type) - window.count(type)).as(c).isEqualTo(closing.get(c));
        }
      }

      // 3. Attribution and configuration. A source's isolation is the one its connection's
      // statements ran under (the server's default unless the application or pool set another).
      String serverDefault = defaultIsolation();
      if (scenario.equals("isolation")) {
        // Ran under the default, then READ COMMITTED: both; READ UNCOMMITTED: the idle connection
        // as it stands; SERIALIZABLE: set, but nothing ran under it.
        Set<String> expected = new TreeSet<>(List.of(serverDefault, "READ-COMMITTED", "READ-UNCOMMITTED"));
        assertThat(isolations(window)).isEqualTo(expected);
        assertThat(window.sources()).hasSize(expected.size());
        // Statements are counted by the isolation they ran under: nothing ran under READ
        // UNCOMMITTED (idle) or SERIALIZABLE (set, then unused) in the window.
        assertThat(window.statementsByIsolation()).containsKeys(serverDefault, "READ-COMMITTED")
            .doesNotContainKeys("READ-UNCOMMITTED", "SERIALIZABLE");
        // After the window, the USE on the first connection runs under SERIALIZABLE.
        expected.add("SERIALIZABLE");
        assertThat(isolations(fin)).isEqualTo(expected);
        // A connection opened after the window and closed without a statement is described at
        // its COM_QUIT, with the isolation it had.
        assertThat(late).isEqualTo(1);
        assertThat(fin.sources())
            .filteredOn(x -> "7".equals(x.properties().get("prepStmtCacheSize")))
            .extracting(Source::isolation)
            .containsExactly("READ-UNCOMMITTED");
        assertThat(window.sources()).noneMatch(x -> "7".equals(x.properties().get("prepStmtCacheSize")));
      } else {
        assertThat(window.sources()).hasSize(1);
        // Hikari sets transactionIsolation=TRANSACTION_READ_COMMITTED right after connecting.
        String expected = scenario.equals("hikari") ? "READ-COMMITTED" : serverDefault;
        assertThat(isolations(window)).containsExactly(expected);
        assertThat(isolations(fin)).containsExactly(expected);
        assertThat(window.statementsByIsolation().keySet()).containsExactly(expected);
      }
      Source src = window.sources().get(0);
      assertThat(src.driverVersion()).isEqualTo(driver);
      assertThat(src.serverVersion()).isEqualTo(server.version());
      assertThat(src.isolation()).isNotBlank();
      if (variant != Variant.ATTACH) {
        assertThat(src.jdbcUrl()).startsWith("jdbc:mysql://").doesNotContain("?");
      }
      assertThat(src.properties()).containsKeys("useServerPrepStmts", "cachePrepStmts", "prepStmtCacheSqlLimit");
      assertThat(src.properties().keySet()).noneMatch(Source::isSecret);
      assertThat(window.connections().connections())
          .isEqualTo(scenario.equals("hikari") ? 1 : scenario.equals("abort") ? connections + 1 : connections);
      checkShapes(scenario, properties, window, variant);
    }
  }

  /**
   * {@code AgentApi.reset()} between two halves of work on one open connection: the connection and
   * its cached prepared statements keep working and keep being attributed, and the two windows
   * add up to exactly what the server counted.
   */
  @org.junit.jupiter.api.Test
  void resetStartsAFreshWindowWithoutLosingOpenConnections() throws Exception {
    String driver = AgentFork.newestDriver();
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it", "reset");
    List<Path> cp = List.of(AgentFork.driverJar(driver), AgentFork.testClasses());
    List<String> cmd =
        AgentFork.command(
            AgentFork.defaultJava(), "report=" + dir.resolve("report.txt"), List.of(), cp,
            "io.wireadvisor.agent.it.app.WorkloadApp",
            List.of("reset", server.jdbcUrl(db, "useServerPrepStmts=true&cachePrepStmts=true" + NO_TLS), server.user(),
                server.password() == null ? "" : server.password(), dir.toString()));
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      app.await("READY");
      CounterSnapshot before = counters.snapshot();
      app.send("GO");
      app.await("DONE");
      CounterSnapshot during = counters.snapshot().minus(before);
      app.send("EXIT");
      assertThat(app.awaitExit()).as(app.stderr()).isZero();

      TrafficProfile first = app.profile("before-reset.json");
      TrafficProfile second = app.profile("window.json");
      Map<String, Long> sum = new LinkedHashMap<>();
      agentCounts(first).forEach((k, v) -> sum.put(k, v + agentCounts(second).get(k)));
      assertThat(sum).isEqualTo(serverCounts(during));

      // The second window: no connect, the statement cached in the first is executed, not prepared.
      ShapeStats select = shape(second, "select v from t where id = ?");
      assertThat(select.count(Via.PREPARES)).isZero();
      assertThat(select.count(Via.EXECUTES)).isEqualTo(io.wireadvisor.agent.it.app.WorkloadApp.ROUNDS);
      assertThat(shape(first, "select v from t where id = ?").count(Via.PREPARES)).isEqualTo(1);
      assertThat(second.probes()).doesNotContainKey(ProbeKind.VARIABLES_READ);
      assertThat(second.connections().connections()).isEqualTo(1);
      assertThat(second.sources()).hasSize(1);
      assertThat(second.count(CommandType.STMT_EXECUTE)).isPositive();

      // quiet=false: the advisor's report at exit, on stderr and in the report file.
      String report = Files.readString(dir.resolve("report.txt"));
      assertThat(report).isNotBlank();
      assertThat(app.stderr()).contains("---- wire-advisor report ----").contains(report.strip());
    }
  }

  /** A driver without the hooks: one clear warning line, the application's results unchanged. */
  @org.junit.jupiter.api.Test
  void unsupportedDriverDisablesTheAgentWithOneWarning() throws Exception {
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it", "legacy");
    Path legacy = AgentFork.itJar("mysql-connector-java-" + System.getProperty("wireadvisor.agent.legacyDriver", "5.1.49") + ".jar");
    String url = "jdbc:mysql://" + server.host() + ":" + server.port() + "/" + db + "?useSSL=false";
    List<String> cmd =
        AgentFork.command(
            AgentFork.defaultJava(), "profile=" + dir.resolve("final.json"), List.of(),
            List.of(legacy, AgentFork.testClasses()), "io.wireadvisor.agent.it.app.LegacyApp",
            List.of(url, server.user(), server.password() == null ? "" : server.password()));
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      assertThat(app.await("RESULT")).isEqualTo("RESULT 6 ACTIVE false");
      assertThat(app.awaitExit()).as(app.stderr()).isZero();
      // The start-up line (the configuration) comes first; then one warning and the exit note.
      assertThat(app.stderr().lines().filter(l -> l.startsWith("wire-advisor:")).findFirst().orElse(""))
          .startsWith("wire-advisor: agent ");
      List<String> lines = app.stderr().lines().filter(l -> l.startsWith("wire-advisor:"))
          .filter(l -> !l.startsWith("wire-advisor: agent ")).toList();
      assertThat(lines).as(app.stderr()).hasSize(2);
      assertThat(lines.get(0)).contains("Connector/J 5.x").contains("not supported").contains("disabled");
      assertThat(lines.get(1)).contains("nothing to report");
      assertThat(app.profile("final.json").totalCommands()).isZero();
    }
  }

  private void checkShapes(String scenario, String properties, TrafficProfile p, Variant variant) {
    boolean serverPs = properties.contains("useServerPrepStmts=true");
    boolean cached = properties.contains("cachePrepStmts=true") || properties.contains("maxPerformance");
    long perShapeTotal = 0;
    for (ShapeStats s : p.shapes().values()) {
      perShapeTotal += s.count(Via.TEXT_EXECUTES);
    }
    assertThat(perShapeTotal).as("every COM_QUERY has a shape").isEqualTo(p.count(CommandType.QUERY));
    assertThat(p.total(Via.EXECUTES)).as("every COM_STMT_EXECUTE has a shape").isEqualTo(p.count(CommandType.STMT_EXECUTE));
    assertThat(p.total(Via.PREPARES)).isEqualTo(p.count(CommandType.STMT_PREPARE));
    assertThat(p.total(Via.CLOSES)).isEqualTo(p.count(CommandType.STMT_CLOSE));

    if (scenario.equals("plain")) {
      ShapeStats shortSelect = shape(p, "select v from t where id = ?");
      ShapeStats longSelect = shape(p, "select t.id, t.v");
      int n = io.wireadvisor.agent.it.app.WorkloadApp.ROUNDS;
      if (!serverPs) {
        assertThat(shortSelect.count(Via.TEXT_EXECUTES)).isEqualTo(2L * n); // literal and ? texts
        assertThat(longSelect.count(Via.TEXT_EXECUTES)).isEqualTo(n);
        // Client-side prepared: attributed through the template, not by decoding each literal text.
        assertThat(longSelect.sample()).contains("t.id = ?");
        assertThat(p.count(CommandType.STMT_PREPARE)).isZero();
      } else {
        assertThat(shortSelect.count(Via.EXECUTES)).isEqualTo(n);
        assertThat(longSelect.count(Via.EXECUTES)).isEqualTo(n);
        // Over prepStmtCacheSqlLimit: never cached, so prepared and closed every time.
        assertThat(longSelect.count(Via.PREPARES)).isEqualTo(n);
        assertThat(longSelect.count(Via.CLOSES)).isEqualTo(n);
        assertThat(longSelect.minSqlLength()).isGreaterThan(256);
        assertThat(shortSelect.count(Via.PREPARES)).isEqualTo(cached ? 1 : n);
        assertThat(shortSelect.count(Via.CLOSES)).isEqualTo(cached ? 0 : n);
        assertThat(p.count(CommandType.STMT_SEND_LONG_DATA)).isPositive();
        assertThat(shape(p, "update t set b = ?").count(Via.SEND_LONG_DATA))
            .isEqualTo(p.count(CommandType.STMT_SEND_LONG_DATA));
      }
      if (!properties.contains("maxPerformance")) {
        assertThat(p.probes().get(ProbeKind.ISOLATION_READ).causes())
            .containsEntry("getTransactionIsolation", 4L);
        assertThat(p.probes().get(ProbeKind.READ_ONLY_READ).causes()).containsEntry("isReadOnly", 4L);
        assertThat(p.probes().get(ProbeKind.AUTOCOMMIT_SET).causes()).containsKey("setAutoCommit");
      } else {
        assertThat(p.probes()).doesNotContainKeys(ProbeKind.ISOLATION_READ, ProbeKind.READ_ONLY_READ);
      }
      if (variant != Variant.ATTACH) { // attached after the connection was made
        assertThat(p.probes().get(ProbeKind.VARIABLES_READ).causes()).containsKey("loadServerVariables");
      }
    } else if (scenario.equals("intercepted")) {
      // The locally answered SETs left no trace; the queries around them were all counted.
      assertThat(p.shapes().values()).noneMatch(s -> s.digestText().contains("local_only"));
      assertThat(shape(p, "select v from t where id = ?").count(Via.TEXT_EXECUTES))
          .isEqualTo(io.wireadvisor.agent.it.app.WorkloadApp.ROUNDS + 1);
      assertThat(shape(p, "select v from t where id = ?").count(Via.EXECUTES)).isEqualTo(1);
    } else if (scenario.equals("batch")) {
      ShapeStats insert = shape(p, "insert into t");
      assertThat(insert.count(Via.BATCHES)).isEqualTo(1);
      assertThat(insert.count(Via.BATCHED_STATEMENTS)).isEqualTo(5);
      assertThat(p.total(Via.BATCHED_STATEMENTS)).isEqualTo(8);
    } else if (scenario.equals("hikari")) {
      // The pool's connectionTestQuery: sent by Hikari itself, never by the application.
      assertThat(p.probes().get(ProbeKind.VALIDATION_QUERY).causes().keySet())
          .isNotEmpty()
          .allMatch(c -> c.startsWith("hikari."));
      Map<String, Long> causes = new LinkedHashMap<>();
      p.probes().values().forEach(ps -> causes.putAll(ps.causes()));
      assertThat(causes.keySet()).anyMatch(c -> c.startsWith("hikari."));
    }
  }

  /** The isolation a fresh session gets on this server, spelled as the agent records it. */
  private String defaultIsolation() throws SQLException {
    try (Connection c = server.connect(db, null)) {
      switch (c.getTransactionIsolation()) {
        case Connection.TRANSACTION_READ_UNCOMMITTED:
          return "READ-UNCOMMITTED";
        case Connection.TRANSACTION_READ_COMMITTED:
          return "READ-COMMITTED";
        case Connection.TRANSACTION_REPEATABLE_READ:
          return "REPEATABLE-READ";
        default:
          return "SERIALIZABLE";
      }
    }
  }

  private static Set<String> isolations(TrafficProfile p) {
    Set<String> s = new TreeSet<>();
    p.sources().forEach(src -> s.add(src.isolation()));
    return s;
  }

  private static String scrape(int port) throws Exception {
    java.net.http.HttpResponse<String> r =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  private static ShapeStats shape(TrafficProfile p, String digestTextPrefix) {
    return p.shapes().values().stream()
        .filter(s -> s.digestText().startsWith(digestTextPrefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no shape starting '" + digestTextPrefix + "' in "
            + p.shapes().values().stream().map(ShapeStats::digestText).toList()));
  }

  private Map<String, Long> agentCounts(TrafficProfile p) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (String c : Commands.ALL) {
      if (counters.exactCommands().contains(c)) {
        m.put(c, p.count(CommandType.fromWireName(c)));
      }
    }
    return m;
  }

  private Map<String, Long> serverCounts(CounterSnapshot delta) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (String c : Commands.ALL) {
      if (counters.exactCommands().contains(c)) {
        m.put(c, delta.get(c));
      }
    }
    return m;
  }
}
