package io.wireadvisor.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TiDBOnly;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A statement whose executions TiDB's summary spread over intervals that rotated away is read whole
 * for the profile's window: the rows of STATEMENTS_SUMMARY_HISTORY are added up, while the current
 * interval alone has only the last part. The refresh interval is set to 1 s for the test and
 * restored (ServerLeftAsFoundIT checks it).
 */
@RealDatabase
@TiDBOnly
class SummaryHistoryIT {
  private static final int ROUNDS = 3;
  private static final int PER_ROUND = 5;

  @Test
  void theExecutionsOfRotatedIntervalsAreAddedUpForTheProfilesWindow(DatabaseServer server) throws Exception {
    String db = server.createDatabase("history");
    long from;
    long to;
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE hist_rotated (id BIGINT PRIMARY KEY, v INT)");
      s.execute("INSERT INTO hist_rotated VALUES (1, 1)");
      String interval;
      try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.tidb_stmt_summary_refresh_interval")) {
        rs.next();
        interval = rs.getString(1);
      }
      from = System.currentTimeMillis();
      try {
        s.execute("SET GLOBAL tidb_stmt_summary_refresh_interval = 1");
        for (int round = 0; round < ROUNDS; round++) {
          for (int i = 0; i < PER_ROUND; i++) {
            s.executeQuery("SELECT v FROM hist_rotated WHERE id = 1").close();
          }
          Thread.sleep(1_300); // the next round falls in a new interval
        }
      } finally {
        s.execute("SET GLOBAL tidb_stmt_summary_refresh_interval = " + Long.parseLong(interval));
      }
      to = System.currentTimeMillis();
    }
    ServerView current;
    ServerView window;
    try (Connection c = server.connect(db, null)) {
      current = ServerInspector.inspect(c, null);
      window = ServerInspector.inspect(c, null, from, to);
    }
    long inCurrent = current.statements().stream()
        .filter(st -> db.equalsIgnoreCase(st.schema()) && st.digestText().startsWith("select `v` from `hist_rotated`"))
        .mapToLong(StatementSummary::execCount).sum();
    assertThat(inCurrent).as("the current interval alone").isLessThan(ROUNDS * PER_ROUND);
    StatementSummary whole = window.statements().stream()
        .filter(st -> db.equalsIgnoreCase(st.schema()) && st.digestText().startsWith("select `v` from `hist_rotated`"))
        .reduce((a, b) -> { throw new AssertionError("one merged row per schema and digest: " + a.digestText()); })
        .orElseThrow(() -> new AssertionError("the statement is in the profile's window"));
    assertThat(whole.execCount()).isEqualTo(ROUNDS * PER_ROUND);
    assertThat(whole.schema()).isEqualToIgnoringCase(db);
    // A window before any of it holds none of it.
    try (Connection c = server.connect(db, null)) {
      ServerView earlier = ServerInspector.inspect(c, null, from - 3_600_000L, from - 3_500_000L);
      assertThat(earlier.statements()).noneSatisfy(st -> assertThat(st.schema()).isEqualToIgnoringCase(db));
    }
  }
}
