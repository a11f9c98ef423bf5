package io.wireadvisor.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureEvent.Kind;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureValue;
import io.wireadvisor.capture.CaptureValue.Type;
import io.wireadvisor.capture.CaptureWriter;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A captured window of a text-protocol application (autocommit toggles, isolation probes, reads
 * and writes in transactions, one autocommitted write), written and read back as a file, replayed
 * under the current and the advised configuration against a real server.
 */
@RealDatabase
class ReplayIT {
  private static final int SESSIONS = 4;
  private static final int TRANSACTIONS = 25;

  @Test
  void advisedConfigurationReplaysTheSameWorkWithFewerRoundTripsAndCommitsNothing(
      DatabaseServer server, @TempDir Path dir) throws Exception {
    String db = server.createDatabase("replay");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(40), bal DECIMAL(12,2))");
      for (int i = 1; i <= 50; i++) {
        s.execute("INSERT INTO acct VALUES (" + i + ", 'owner" + i + "', 100.00)");
      }
    }
    String before = checksum(server, db);
    Path file = dir.resolve("capture.jsonl");
    try (CaptureWriter w = CaptureWriter.create(file,
        CaptureHeader.builder("proxy", "test").server(server.version())
            .startedAtMillis(System.currentTimeMillis()).build(),
        64 << 20, 600)) {
      for (CaptureEvent e : textProtocolApplication()) {
        assertThat(w.write(e)).isTrue();
      }
    }
    Capture capture = CaptureFormat.read(file);
    ReplayTarget target = ReplayTarget.parse(server.jdbcUrl(db, null), server.user(), server.password());

    // One run alone: the in-process proxy's counts are the server's.
    CounterSnapshot start = server.counters().snapshot();
    RunResult alone = Replayer.run(capture, ReplayConfig.current(capture), target, Replayer.Options.defaults());
    CounterSnapshot delta = server.counters().snapshot().minus(start);
    assertThat(server.counters().asCounted(cmd -> alone.wire().count(CommandType.fromWireName(cmd))))
        .as("replay's wire counts vs the server's")
        .isEqualTo(server.counters().exactDeltas(delta));

    ReplayComparison cmp = ReplayComparison.run(capture, List.of("current", "advised"), target,
        new Replayer.Options(false, null, 64), 2);
    System.out.println(cmp.text());
    ReplayComparison.Series current = cmp.series("current");
    ReplayComparison.Series advised = cmp.series("advised");
    assertThat(current.config().jdbcProperties()).containsEntry("useServerPrepStmts", "false");
    Map<String, String> advisedProps = advised.config().jdbcProperties();
    assertThat(advisedProps).containsEntry("useServerPrepStmts", "true");
    assertThat("true".equals(advisedProps.get("cachePrepStmts")) || "maxPerformance".equals(advisedProps.get("useConfigs")))
        .as("client statement cache on, by itself or by useConfigs=maxPerformance: %s", advisedProps)
        .isTrue();
    long business = SESSIONS * (TRANSACTIONS * 2L + 1);
    for (ReplayComparison.Series s : cmp.series()) {
      assertThat(s.runs()).hasSize(2);
      for (RunResult r : s.runs()) {
        assertThat(r.businessStatements()).as(s.config().name()).isEqualTo(business);
        assertThat(r.newErrors()).as(s.config().name()).isEmpty();
        assertThat(r.wrappedWrites()).as(s.config().name()).isEqualTo(SESSIONS);
      }
    }
    assertThat(current.first().wire().count(CommandType.STMT_PREPARE)).isZero();
    assertThat(advised.first().wire().count(CommandType.STMT_EXECUTE)).isGreaterThanOrEqualTo(business);
    assertThat(advised.first().wire().count(CommandType.STMT_PREPARE))
        .as("prepared once per template and pooled connection")
        .isLessThanOrEqualTo(3L * SESSIONS); // three templates
    assertThat(advised.medianCommandsPerStatement()).isLessThan(current.medianCommandsPerStatement());
    assertThat(cmp.text()).contains("advised vs current").contains("prepared-statements");
    assertThat(checksum(server, db)).as("the default replay commits nothing").isEqualTo(before);

    // One recommendation at a time: each step's difference is that recommendation's effect.
    ReplayComparison steps = ReplayComparison.run(capture, List.of("current", "stepwise"), target,
        new Replayer.Options(false, null, 64), 1);
    System.out.println(steps.text());
    List<ReplayComparison.Series> st = steps.series();
    List<String> names = st.stream().map(x -> x.config().name()).collect(java.util.stream.Collectors.toList());
    // In the order the advice ranks them. Which of the probes and the prepares saves more is the
    // estimate's call (on TiDB it prices the parse and compile the plan cache removes, from the
    // server's own figures, and the two can change places from run to run); the cache stands
    // right after the server-side prepares it goes with.
    List<String> ranked = steps.advice().recommendations().stream().map(r -> "+" + r.id())
        .collect(java.util.stream.Collectors.toList());
    assertThat(names.get(0)).isEqualTo("current");
    assertThat(ranked).containsSubsequence(names.subList(1, names.size()));
    assertThat(names.subList(1, 4)).containsExactlyInAnyOrder("+session-probes", "+server-prepared-statements",
        "+prepared-statement-cache");
    assertThat(names.indexOf("+prepared-statement-cache")).isEqualTo(names.indexOf("+server-prepared-statements") + 1);
    // On TiDB the advice, judged with the server's view, goes on with server-side steps (TiDB
    // globals), which replay applies for their runs and undoes; elsewhere there are none.
    for (ReplayComparison.Series extra : st.subList(4, st.size())) {
      assertThat(server.isTiDB()).as("a server-side step off TiDB: " + extra.config().name()).isTrue();
      assertThat(extra.config().serverSql()).as(extra.config().name()).isNotEmpty();
    }
    RunResult now = st.get(0).first();
    int probesAt = names.indexOf("+session-probes");
    int preparesAt = names.indexOf("+server-prepared-statements");
    RunResult probes = st.get(probesAt).first();
    RunResult prepares = st.get(preparesAt).first();
    RunResult cache = st.get(preparesAt + 1).first();
    assertThat(probes.wire().totalProbes()).as("the probe step removes probes")
        .isLessThan(st.get(probesAt - 1).first().wire().totalProbes());
    assertThat(now.wire().count(CommandType.STMT_EXECUTE)).isZero();
    assertThat(prepares.wire().count(CommandType.STMT_EXECUTE)).isGreaterThanOrEqualTo(business);
    if (probesAt < preparesAt) {
      // useConfigs=maxPerformance (the probe step) already turns the statement cache on: the
      // prepares step prepares once per template and connection.
      assertThat(prepares.wire().count(CommandType.STMT_PREPARE)).isLessThanOrEqualTo(3L * SESSIONS);
    } else {
      // Without a cache every statement object is prepared and closed on the server.
      assertThat(prepares.wire().count(CommandType.STMT_PREPARE))
          .isGreaterThan(cache.wire().count(CommandType.STMT_PREPARE));
      assertThat(cache.commandsPerStatement()).isLessThan(prepares.commandsPerStatement());
    }
    // The cache step (on, with its size and SQL limit) prepares once per template and connection.
    assertThat(cache.wire().count(CommandType.STMT_PREPARE)).isLessThanOrEqualTo(3L * SESSIONS);
    assertThat(cache.wire().count(CommandType.STMT_CLOSE)).isZero();
    assertThat(st.get(3).first().commandsPerStatement()).as("the three steps together")
        .isLessThan(now.commandsPerStatement());
    assertThat(steps.text()).contains("+prepared-statement-cache vs +server-prepared-statements");

    // Into a copy the user names, writes are committed.
    String copy = server.createDatabase("replay_copy");
    try (Connection c = server.connect(copy, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(40), bal DECIMAL(12,2))");
      s.execute("INSERT INTO acct SELECT * FROM " + db + ".acct");
    }
    RunResult committed = Replayer.run(capture, ReplayConfig.current(capture), target,
        new Replayer.Options(false, copy, 64));
    assertThat(committed.newErrors()).isEmpty();
    assertThat(checksum(server, copy)).isNotEqualTo(before);
  }

  /** What a text-protocol application through a pool sends, as the proxy would capture it. */
  private static List<CaptureEvent> textProtocolApplication() {
    java.util.ArrayList<CaptureEvent> events = new java.util.ArrayList<>();
    long t = 0;
    for (int c = 1; c <= SESSIONS; c++) {
      events.add(CaptureEvent.builder(c, t++, Kind.CONNECT).build());
    }
    for (int tx = 0; tx < TRANSACTIONS; tx++) {
      for (int c = 1; c <= SESSIONS; c++) {
        int id = 1 + (tx * SESSIONS + c) % 50;
        events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("SET autocommit=0").build());
        events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("SELECT @@session.transaction_isolation").build());
        events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("SELECT owner, bal FROM acct WHERE id = ?")
            .value(CaptureValue.of(Type.NUMBER, String.valueOf(id))).build());
        events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("UPDATE acct SET bal = bal + ? WHERE id = ?")
            .value(CaptureValue.of(Type.NUMBER, "1.25")).value(CaptureValue.of(Type.NUMBER, String.valueOf(id))).build());
        events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("COMMIT").build());
        events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("SET autocommit=1").build());
      }
    }
    for (int c = 1; c <= SESSIONS; c++) {
      // One autocommitted write each: replay wraps it in a transaction it rolls back.
      events.add(CaptureEvent.builder(c, t++, Kind.QUERY).sql("UPDATE acct SET owner = ? WHERE id = ?")
          .value(CaptureValue.of(Type.STRING, "renamed")).value(CaptureValue.of(Type.NUMBER, String.valueOf(c))).build());
      events.add(CaptureEvent.builder(c, t++, Kind.QUIT).build());
    }
    return events;
  }

  private static String checksum(DatabaseServer server, String db) throws Exception {
    try (Connection c = server.connect(db, null); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT GROUP_CONCAT(CONCAT(id, ':', owner, ':', bal) ORDER BY id) FROM acct")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
