package io.wireadvisor.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.proxy.CaptureSettings;
import io.wireadvisor.proxy.ProxyConfig;
import io.wireadvisor.proxy.WireProxy;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TestVersions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application of our own with multi-statement batches (Connector/J
 * {@code rewriteBatchedStatements=true}: a batch of UPDATEs goes as one multi-statement COM_QUERY
 * between two COM_SET_OPTIONs) runs through the proxy with a capture; replay reproduces its wire
 * counts per command type within 2% (the capturing proxy's counts and the server's own counters),
 * with no error the application did not have — with the bundled driver and with the oldest
 * Connector/J under test given as a jar. A replay into the database the capture came from is
 * refused by default; allowed, its duplicate keys are reported as one group, not one line per key.
 */
@RealDatabase
class ReplayBatchIT {
  private static final int THREADS = 2;
  private static final int TRANSACTIONS = 15;
  private static final int BATCH = 8;
  private static final int ACCOUNTS = 100;

  @Test
  void multiStatementBatchesReplayWithTheCapturesWireCountsOnTheBundledDriver(DatabaseServer server, @TempDir Path dir)
      throws Exception {
    ReplayDriver bundled = ReplayDriver.bundled();
    assertThat(bundled.version()).isEqualTo(TestVersions.DRIVER_VERSION);
    captureAndReplay(server, dir, bundled, null);
  }

  @Test
  void theOldestConnectorJUnderTestRunsFromItsJarAndReproducesItsOwnWirePattern(DatabaseServer server, @TempDir Path dir)
      throws Exception {
    String oldest = TestVersions.DRIVER_VERSIONS.get(0);
    Path jar = Path.of(System.getProperty("wireadvisor.replay.oldDriverJar",
        System.getProperty("user.home") + "/.m2/repository/com/mysql/mysql-connector-j/" + oldest
            + "/mysql-connector-j-" + oldest + ".jar"));
    assertThat(jar).as("the jar of Connector/J " + oldest).exists();
    ReplayDriver old = ReplayDriver.fromJar(jar);
    assertThat(old.version()).isEqualTo(oldest);
    // Isolated: its own class, in a loader that cannot see the bundled driver.
    assertThat(old.driverClass()).isNotSameAs(com.mysql.cj.jdbc.Driver.class);
    assertThat(old.driverClass().getClassLoader().getParent()).isSameAs(ClassLoader.getPlatformClassLoader());
    captureAndReplay(server, dir, old, jar);
  }

  private void captureAndReplay(DatabaseServer server, Path dir, ReplayDriver driver, Path jar) throws Exception {
    String db = server.createDatabase("batch");
    String copy = server.createDatabase("batch_copy");
    for (String d : List.of(db, copy)) {
      try (Connection c = server.connect(d, null); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal DECIMAL(12,2))");
        s.execute("CREATE TABLE hist (id INT PRIMARY KEY, acct INT, amount DECIMAL(12,2))");
        StringBuilder rows = new StringBuilder("INSERT INTO acct VALUES ");
        for (int i = 1; i <= ACCOUNTS; i++) {
          rows.append(i == 1 ? "" : ",").append("(").append(i).append(", 100.00)");
        }
        s.execute(rows.toString());
      }
    }

    // 1. The application through the proxy, captured from its first command.
    Path file = dir.resolve("batch.jsonl");
    CounterSnapshot c0 = server.counters().snapshot();
    TrafficProfile appWire;
    try (WireProxy proxy = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
        .withCapture(new CaptureSettings(file, null, 64L << 20, 600, false)))) {
      runApplication(driver, proxy.port(), db, server);
      waitIdle(proxy);
      appWire = proxy.profile();
    }
    CounterSnapshot appDelta = server.counters().snapshot().minus(c0);
    Capture capture = CaptureFormat.read(file);
    System.out.printf("batch capture (Connector/J %s): %,d events, %,d bytes, %.0f bytes per event%n", driver.version(),
        capture.events().size(), Files.size(file), (double) Files.size(file) / capture.events().size());
    assertThat(capture.complete()).isTrue();
    assertThat(capture.header().upstream()).isEqualTo(server.host() + ":" + server.port());
    assertThat(ReplayDriver.capturedVersion(capture)).as("the application's driver, as its connect query names it")
        .isEqualTo(driver.version());
    // The proxy names it in the capture from the clients' connection attributes (_client_version).
    assertThat(capture.header().driverName()).isEqualTo("MySQL Connector/J");
    assertThat(capture.header().driverVersion()).isEqualTo(driver.version());
    assertThat(capture.drivers()).isEqualTo(1);
    long batches = (long) THREADS * TRANSACTIONS;
    Map<CommandType, Long> captured = ReplayComparison.capturedCommands(capture);
    assertThat(captured.get(CommandType.SET_OPTION)).as("on and off around each rewritten batch").isEqualTo(2 * batches);
    assertThat(appWire.count(CommandType.SET_OPTION)).isEqualTo(2 * batches);
    assertThat(captured.get(CommandType.CHANGE_USER)).isEqualTo(1);
    List<String> changeUser = Files.readAllLines(file).stream().filter(l -> l.contains("\"changeUser\"")).toList();
    assertThat(changeUser).hasSize(1);
    assertThat(changeUser.get(0)).as("nothing of the packet").doesNotContain("\"sql\"").doesNotContain("\"v\"")
        .doesNotContain(server.user());
    if (!server.password().isEmpty()) {
      assertThat(Files.readString(file)).doesNotContain(server.password());
    }
    assertThat(capture.events()).filteredOn(e -> e.kind() == CaptureEvent.Kind.CONNECT)
        .allSatisfy(e -> assertThat(e.sql()).isEqualTo(db));
    assertThat(capture.events()).filteredOn(e -> e.kind() == CaptureEvent.Kind.QUERY && e.sql() != null
        && e.sql().contains(";")).hasSize((int) batches);

    // 2. Replay into a copy (same server, another schema: allowed), as fast as the server answers.
    ReplayTarget intoCopy = new ReplayTarget(server.host(), server.port(), copy, server.user(), server.password());
    Replayer.Options options = new Replayer.Options(false, null, 64, false, jar == null ? null : driver);
    CounterSnapshot r0 = server.counters().snapshot();
    RunResult replayed = Replayer.run(capture, ReplayConfig.current(capture), intoCopy, options);
    CounterSnapshot replayDelta = server.counters().snapshot().minus(r0);
    assertThat(replayed.driverVersion()).isEqualTo(driver.version());
    assertThat(replayed.newErrors()).as("errors the application did not have: %s", replayed.errorExamples()).isEmpty();
    assertThat(replayed.businessStatements()).isEqualTo(batches * 3); // batch, SELECT, INSERT
    Map<String, Long> app = new TreeMap<>();
    Map<String, Long> rep = new TreeMap<>();
    for (CommandType t : CommandType.values()) {
      if (appWire.count(t) + replayed.wire().count(t) > 0) {
        app.put(t.wireName(), appWire.count(t));
        rep.put(t.wireName(), replayed.wire().count(t));
      }
    }
    System.out.println("Connector/J " + driver.version() + " wire counts, application " + app + ", replay " + rep
        + "; not replayed " + replayed.skipped() + ", wrapped writes " + replayed.wrappedWrites());
    java.util.Set<String> digests = new java.util.TreeSet<>(appWire.shapes().keySet());
    digests.addAll(replayed.wire().shapes().keySet());
    for (String d : digests) {
      var x = appWire.shape(d);
      var y = replayed.wire().shape(d);
      long xa = x == null ? 0 : x.wireCommands();
      long ya = y == null ? 0 : y.wireCommands();
      if (xa != ya) {
        System.out.println("  shape " + xa + " vs " + ya + ": " + (x != null ? x.digestText() : y.digestText()));
      }
    }
    assertWithin2Percent("the proxy's counts per command type", app, rep);
    Map<String, Long> serverApp = server.counters().exactDeltas(appDelta);
    Map<String, Long> serverReplay = server.counters().exactDeltas(replayDelta);
    System.out.println("server counters, application " + serverApp + ", replay " + serverReplay);
    assertWithin2Percent("the server's counters", serverApp, serverReplay);

    // The report names the driver and puts the capture's commands beside replay's.
    ReplayComparison cmp = ReplayComparison.run(capture, List.of("current"), intoCopy, options, 1);
    System.out.println(cmp.text());
    assertThat(cmp.text()).contains("driver: Connector/J " + driver.version())
        .contains("the version the capture names")
        .containsPattern("COM_SET_OPTION +" + 2 * batches + " +" + 2 * batches);
    if (jar != null) {
      assertThat(ReplayDriver.bundled().describe(capture))
          .as("without --driver, replay says it runs another version than the application, and which jar to give")
          .contains("the capture names " + driver.version() + ": replay runs another version")
          .contains("--driver ~/.m2/repository/com/mysql/mysql-connector-j/" + driver.version() + "/");
    }

    // 3. Into the database the capture came from: refused, with the reason.
    ReplayTarget original = new ReplayTarget(server.host(), server.port(), db, server.user(), server.password());
    assertThatThrownBy(() -> Replayer.run(capture, ReplayConfig.current(capture), original,
        new Replayer.Options(false, null, 64, false, options.driver())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("duplicate keys").hasMessageContaining("--allow-same-database");
    // Allowed: every captured insert meets its own row, reported as one group with one example.
    RunResult same = Replayer.run(capture, ReplayConfig.current(capture), original,
        new Replayer.Options(false, null, 64, true, options.driver()));
    assertThat(same.newErrors()).hasSize(1);
    Map.Entry<String, Long> group = same.newErrors().entrySet().iterator().next();
    assertThat(group.getKey()).startsWith("error 1062 (23000) on query INSERT INTO hist");
    assertThat(group.getValue()).isEqualTo(batches);
    assertThat(same.errorExamples().get(group.getKey())).contains("Duplicate entry");
  }

  /** THREADS threads, each TRANSACTIONS transactions: a batch of UPDATEs, a read, an insert, commit. */
  private static void runApplication(ReplayDriver driver, int port, String db, DatabaseServer server) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", server.user());
    p.setProperty("password", server.password());
    p.setProperty("rewriteBatchedStatements", "true");
    p.setProperty("sslMode", "DISABLED");
    HikariConfig h = new HikariConfig();
    h.setPoolName("batch-app");
    h.setMaximumPoolSize(THREADS);
    h.setMinimumIdle(THREADS);
    h.setDataSource(driver.dataSource("jdbc:mysql://127.0.0.1:" + port + "/" + db, p));
    try (HikariDataSource ds = new HikariDataSource(h)) {
      ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(threads.submit(() -> {
          for (int tx = 0; tx < TRANSACTIONS; tx++) {
            try (Connection c = ds.getConnection()) {
              if (thread == 0 && tx == 5) {
                // The application resets its session once: COM_CHANGE_USER (credentials never captured).
                driver.changeUser(c, server.user(), server.password());
              }
              c.setAutoCommit(false);
              try (PreparedStatement up = c.prepareStatement("UPDATE acct SET bal = bal + ? WHERE id = ?")) {
                for (int i = 0; i < BATCH; i++) {
                  up.setBigDecimal(1, new java.math.BigDecimal("1.25"));
                  up.setInt(2, 1 + (thread * 50 + tx * BATCH + i) % ACCOUNTS);
                  up.addBatch();
                }
                up.executeBatch();
              }
              try (PreparedStatement q = c.prepareStatement("SELECT bal FROM acct WHERE id = ?")) {
                q.setInt(1, 1 + tx);
                try (ResultSet rs = q.executeQuery()) {
                  rs.next();
                }
              }
              try (PreparedStatement ins = c.prepareStatement("INSERT INTO hist (id, acct, amount) VALUES (?, ?, ?)")) {
                ins.setInt(1, thread * 1000 + tx);
                ins.setInt(2, 1 + tx);
                ins.setBigDecimal(3, new java.math.BigDecimal("1.25"));
                ins.executeUpdate();
              }
              c.commit();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      threads.shutdown();
    }
  }

  private static void waitIdle(WireProxy proxy) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (proxy.clientConnections() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  private static void assertWithin2Percent(String what, Map<String, Long> expected, Map<String, Long> actual) {
    assertThat(actual.keySet()).as(what).isEqualTo(expected.keySet());
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      long a = e.getValue();
      long b = actual.get(e.getKey());
      assertThat((double) Math.abs(a - b)).as("%s: %s application %d, replay %d", what, e.getKey(), a, b)
          .isLessThanOrEqualTo(0.02 * Math.max(a, b));
    }
  }
}
