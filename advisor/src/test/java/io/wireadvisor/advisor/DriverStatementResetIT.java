package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerVersion;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TestVersions;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which Connector/J versions send COM_STMT_RESET with the statement cache, on the server's own
 * counters, and whether the advice given to an application on each of them keeps its wire commands
 * per statement from rising. Each driver of {@link TestVersions#DRIVER_VERSIONS} (the oldest,
 * 8.0.33, included) runs in a class loader of its own, as an application brings its own.
 */
@RealDatabase
class DriverStatementResetIT {
  static final int EXECUTIONS = 150;
  static final String SELECT = "SELECT name, qty FROM item WHERE id = ?";
  static final String UPDATE = "UPDATE item SET qty = qty + 1 WHERE id = ?";

  static Stream<String> drivers() {
    return TestVersions.DRIVER_VERSIONS.stream();
  }

  /**
   * The driver jar copied by the advisor's POM ({@code target/it-drivers}); a version from before
   * the artifact's rename (8.0.30: {@code mysql-connector-java}) may be put there by hand and named
   * in {@code -Dwireadvisor.driver.versions}.
   */
  static Driver driver(String version) throws Exception {
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "it-drivers");
    Path jar = dir.resolve("mysql-connector-j-" + version + ".jar");
    if (!Files.exists(jar) && Files.exists(dir.resolve("mysql-connector-java-" + version + ".jar"))) {
      jar = dir.resolve("mysql-connector-java-" + version + ".jar");
    }
    assertThat(jar).as("Connector/J %s for this test (advisor/pom.xml copy-it-drivers)", version)
        .exists();
    URLClassLoader loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    return (Driver) Class.forName("com.mysql.cj.jdbc.Driver", true, loader)
        .getDeclaredConstructor().newInstance();
  }

  static Connection connect(Driver d, DatabaseServer server, String db, String props) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", server.user());
    if (server.password() != null) {
      p.setProperty("password", server.password());
    }
    return d.connect(server.jdbcUrl(db, props + "&sslMode=DISABLED"), p);
  }

  static String createItems(DatabaseServer server) throws Exception {
    String db = server.createDatabase("reset");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(50), qty INT)");
      StringBuilder insert = new StringBuilder("INSERT INTO item VALUES ");
      for (int i = 0; i < 50; i++) {
        insert.append(i == 0 ? "" : ",").append('(').append(i).append(",'item ").append(i).append("',0)");
      }
      s.execute(insert.toString());
    }
    return db;
  }

  /**
   * The application's loop: a PreparedStatement per execution, closed after use (as JdbcTemplate,
   * Hibernate and the benchmark harnesses do), of two shapes.
   */
  static void run(Connection c, ProfileRecorder recorder, ProfileRecorder.ConnectionHandle conn)
      throws Exception {
    for (int i = 0; i < EXECUTIONS; i++) {
      int id = i % 50;
      long t0 = System.nanoTime();
      try (PreparedStatement ps = c.prepareStatement(SELECT)) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getString(1);
          }
        }
      }
      record(recorder, conn, "SELECT name, qty FROM item WHERE id = " + id, System.nanoTime() - t0);
      t0 = System.nanoTime();
      try (PreparedStatement ps = c.prepareStatement(UPDATE)) {
        ps.setInt(1, id);
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
      record(recorder, conn, "UPDATE item SET qty = qty + 1 WHERE id = " + id, System.nanoTime() - t0);
    }
  }

  /** Records a text execution as the agent would (the test checks the counts against the server). */
  static void record(ProfileRecorder recorder, ProfileRecorder.ConnectionHandle conn, String sql, long nanos) {
    if (recorder == null) {
      return;
    }
    ProfileRecorder.ShapeHandle h = recorder.shape(sql);
    h.record(Via.TEXT_EXECUTES, nanos);
    recorder.command(CommandType.QUERY, nanos);
    conn.command();
    conn.used(h);
  }

  /** The commands the server counted over one run of the loop on an open connection. */
  static CounterSnapshot measure(Driver d, DatabaseServer server, String db, String props) throws Exception {
    try (Connection c = connect(d, server, db, props)) {
      CounterSnapshot before = server.counters().snapshot();
      run(c, null, null);
      return server.counters().snapshot().minus(before);
    }
  }

  static long total(CounterSnapshot s, DatabaseServer server) {
    long n = 0;
    for (String command : server.counters().exactCommands()) {
      n += s.get(command);
    }
    return n;
  }

  @ParameterizedTest(name = "Connector/J {0}")
  @MethodSource("drivers")
  void theStatementCacheResetsOnExactlyTheVersionsTheAdvisorNames(String version, DatabaseServer server)
      throws Exception {
    assertThat(server.counters().exactCommands())
        .contains(Commands.COM_STMT_RESET, Commands.COM_STMT_EXECUTE);
    String db = createItems(server);
    Driver d = driver(version);
    CounterSnapshot cached = measure(d, server, db, "useServerPrepStmts=true&cachePrepStmts=true");
    long executes = cached.get(Commands.COM_STMT_EXECUTE);
    long resets = cached.get(Commands.COM_STMT_RESET);
    System.out.printf("Connector/J %s, %s, statement cache on: %d EXECUTE, %d RESET, %d PREPARE, %d CLOSE%n",
        version, server.version(), executes, resets, cached.get(Commands.COM_STMT_PREPARE),
        cached.get(Commands.COM_STMT_CLOSE));
    assertThat(executes).isEqualTo(2L * EXECUTIONS);
    // Each shape's first execution is on a fresh statement; every later one reuses the cached one.
    if (ConnectorJ.resetsCachedStatements(ServerVersion.parse(version))) {
      assertThat(resets).isEqualTo(executes - 2);
    } else {
      assertThat(resets).isZero();
    }
  }

  @ParameterizedTest(name = "Connector/J {0}")
  @MethodSource("drivers")
  void theAdviceForEachDriverDoesNotRaiseCommandsPerStatement(String version, DatabaseServer server)
      throws Exception {
    String db = createItems(server);
    Driver d = driver(version);
    String text = "useServerPrepStmts=false";

    // The text baseline, recorded as the agent records it, counted by the server.
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    long start = System.currentTimeMillis();
    CounterSnapshot before;
    String driverVersion;
    try (Connection c = connect(d, server, db, text)) {
      driverVersion = c.getMetaData().getDriverVersion();
      ProfileRecorder.ConnectionHandle conn = recorder.openConnection();
      CounterSnapshot s0 = server.counters().snapshot();
      run(c, recorder, conn);
      before = server.counters().snapshot().minus(s0);
      conn.close();
    }
    recorder.source(new Source(Source.AGENT, "test", "it", "MySQL Connector/J", driverVersion,
        server.version(), null, server.jdbcUrl(db, text), Collections.singletonMap("useServerPrepStmts", "false"),
        start, System.currentTimeMillis()));
    TrafficProfile profile = recorder.snapshot();
    assertThat(before.get(Commands.COM_QUERY)).isEqualTo(profile.count(CommandType.QUERY));

    ServerView view = ServerInspector.inspect(server.jdbcUrl(db, null), server.user(), server.password(),
        server.statusUrl().orElse(null));
    Analysis a = Advisor.analyze(profile, view);
    Map<String, String> props = new LinkedHashMap<>();
    props.put("useServerPrepStmts", "false");
    for (Recommendation r : a.recommendations()) {
      props.putAll(r.change().jdbcProperties());
    }
    StringBuilder url = new StringBuilder();
    for (Map.Entry<String, String> e : props.entrySet()) {
      url.append(url.length() == 0 ? "" : "&").append(e.getKey()).append('=').append(e.getValue());
    }
    CounterSnapshot after = measure(d, server, db, url.toString());
    // What the advisor said before it knew of the driver: server prepares with the cache.
    CounterSnapshot naive = measure(d, server, db, "useServerPrepStmts=true&cachePrepStmts=true");
    long statements = 2L * EXECUTIONS;
    System.out.printf(
        "Connector/J %s on %s: advice %s (%s); commands per statement: text %.3f, advised %.3f,"
            + " server prepares + cache %.3f (%d RESET)%n",
        version, server.version(), a.ids(), url, total(before, server) / (double) statements,
        total(after, server) / (double) statements, total(naive, server) / (double) statements,
        naive.get(Commands.COM_STMT_RESET));

    boolean resetting = ConnectorJ.resetsCachedStatements(ServerVersion.parse(version));
    if (resetting) {
      // The upgrade comes first; the cache and server prepares are withheld, so nothing rises ...
      assertThat(a.recommendations().get(0).id()).isEqualTo(DriverUpgradeRule.ID);
      assertThat(a.ids()).doesNotContain(TextProtocolRule.ID, StatementCacheRule.ID);
      assertThat(a.withheld()).extracting(Withheld::ruleId)
          .contains(TextProtocolRule.ID, StatementCacheRule.ID);
      // ... where the cache would have: one RESET per reused statement.
      assertThat(total(naive, server)).isGreaterThan(total(before, server));
    } else {
      assertThat(a.ids()).contains(TextProtocolRule.ID, StatementCacheRule.ID)
          .doesNotContain(DriverUpgradeRule.ID);
      assertThat(props).containsEntry("useServerPrepStmts", "true").containsEntry("cachePrepStmts", "true");
    }
    assertThat(after.get(Commands.COM_STMT_RESET)).isZero();
    // At most one PREPARE per shape and connection on top of the text baseline's commands.
    assertThat(total(after, server)).isLessThanOrEqualTo(total(before, server) + 2);
  }
}
