package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.agent.it.app.PoolBorrowsApp;
import io.wireadvisor.profile.PatternStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.StatementKind;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerKind;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HikariCP's borrows as the agent sees them, against the server: with the pool's {@code
 * autoCommit=true} the agent counts the borrows that ran statements outside any transaction, and
 * with {@code autoCommit=false} the server counts exactly that many ROLLBACKs (HikariCP's "rollback
 * due to dirty commit state on close()"), which the transaction-state estimate adds. The N+1 loads
 * those borrows ran under autocommit are found per borrow.
 */
@RealDatabase
class PoolBorrowsIT {
  private final DatabaseServer server;
  private final String db;

  PoolBorrowsIT(DatabaseServer server) throws SQLException {
    this.server = server;
    this.db = server.createDatabase("borrows");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE owners (id INT PRIMARY KEY, name VARCHAR(40))");
      s.execute("INSERT INTO owners VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      s.execute("CREATE TABLE visits (id INT PRIMARY KEY, pet_id INT, v VARCHAR(40))");
      s.execute("INSERT INTO visits VALUES (1, 1, 'x'), (2, 1, 'y'), (3, 2, 'x'), (4, 3, 'x'),"
          + " (5, 3, 'y'), (6, 4, 'z')");
    }
  }

  @Test
  void borrowsOutsideTransactionsAreTheRollbacksThePoolsAutoCommitOffSends() throws Exception {
    Run on = run(true);
    TrafficProfile p = on.profile;
    assertThat(p.poolBorrows()).isEqualTo(PoolBorrowsApp.OUTSIDE + PoolBorrowsApp.TRANSACTIONS);
    assertThat(p.borrowsOutsideTransaction()).isEqualTo(PoolBorrowsApp.OUTSIDE);
    // One connection, borrows outside transactions back to back: fewer runs than borrows.
    assertThat(p.outsideTransactionRuns()).isBetween(1L, (long) PoolBorrowsApp.OUTSIDE);
    ShapeStats visits = shape(p, "visits");
    assertThat(visits.count(Via.OUTSIDE_TRANSACTION))
        .isEqualTo((long) PoolBorrowsApp.OUTSIDE * PoolBorrowsApp.PETS);
    // The loads ran under autocommit, each its own server transaction; judged per borrow from the
    // first borrow's end on (the collector learns there that it sees borrows): the first borrow,
    // one outside a transaction, is judged statement by statement.
    PatternStats n1 = visits.patterns().iterator().next();
    assertThat(n1.kind()).isEqualTo(PatternStats.Kind.N_PLUS_ONE);
    assertThat(n1.transactions()).isEqualTo(PoolBorrowsApp.OUTSIDE - 1);
    assertThat(n1.executions()).isEqualTo((long) (PoolBorrowsApp.OUTSIDE - 1) * PoolBorrowsApp.PETS);
    assertThat(rollbacks(p)).isZero();
    if (on.serverRollbacks >= 0) {
      assertThat(on.serverRollbacks).isZero();
    }

    Run off = run(false);
    TrafficProfile q = off.profile;
    // Every borrow that ran statements outside a transaction ends in one ROLLBACK.
    assertThat(rollbacks(q)).isEqualTo(p.borrowsOutsideTransaction());
    if (off.serverRollbacks >= 0) {
      assertThat(off.serverRollbacks).as("Com_rollback").isEqualTo(p.borrowsOutsideTransaction());
    }
    assertThat(q.poolBorrows()).isEqualTo(PoolBorrowsApp.OUTSIDE + PoolBorrowsApp.TRANSACTIONS);
    assertThat(q.borrowsOutsideTransaction()).isZero();
    assertThat(shape(q, "visits").patterns().iterator().next().transactions())
        .isEqualTo(PoolBorrowsApp.OUTSIDE);
  }

  private static final class Run {
    TrafficProfile profile;
    /** The server's Com_rollback delta over the workload, -1 where not counted (TiDB). */
    long serverRollbacks = -1;
  }

  private Run run(boolean autoCommit) throws Exception {
    Path dir = Paths.get(System.getProperty("wireadvisor.buildDirectory", "target"), "agent-it",
        "borrows-" + autoCommit);
    String url = server.jdbcUrl(db, "useServerPrepStmts=false" + AgentCountsIT.NO_TLS);
    List<Path> cp = List.of(
        AgentFork.driverJar(AgentFork.newestDriver()),
        AgentFork.itJar("HikariCP-" + System.getProperty("wireadvisor.agent.hikari", "6.3.3") + ".jar"),
        AgentFork.itJar("slf4j-api-" + System.getProperty("wireadvisor.agent.slf4j", "2.0.17") + ".jar"),
        AgentFork.itJar("slf4j-nop-" + System.getProperty("wireadvisor.agent.slf4j", "2.0.17") + ".jar"),
        AgentFork.testClasses());
    List<String> cmd = AgentFork.command(AgentFork.defaultJava(),
        "profile=" + dir.resolve("final.json") + ",interval=0,quiet=true", List.of(), cp,
        PoolBorrowsApp.class.getName(),
        List.of(String.valueOf(autoCommit), url, server.user(),
            server.password() == null ? "" : server.password(), dir.toString()));
    Run r = new Run();
    try (AgentFork app = AgentFork.start(cmd, dir)) {
      app.await("READY");
      long before = comRollback();
      app.send("GO");
      app.await("DONE");
      long after = comRollback();
      app.send("EXIT");
      assertThat(app.awaitExit()).as(app.stderr()).isZero();
      assertThat(app.stderr()).doesNotContain("wire-advisor:");
      r.profile = app.profile("window.json");
      r.serverRollbacks = before < 0 ? -1 : after - before;
    }
    return r;
  }

  /** MariaDB's and MySQL's global Com_rollback; -1 on TiDB, which does not count it so. */
  private long comRollback() throws SQLException {
    if (server.kind() == ServerKind.TIDB) {
      return -1;
    }
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_rollback'")) {
      return rs.next() ? rs.getLong(2) : -1;
    }
  }

  private static long rollbacks(TrafficProfile p) {
    long n = 0;
    for (ShapeStats s : p.shapes().values()) {
      if (s.probe() == null && s.kind() == StatementKind.ROLLBACK) {
        n += s.executions();
      }
    }
    return n;
  }

  private static ShapeStats shape(TrafficProfile p, String table) {
    for (ShapeStats s : p.shapes().values()) {
      if (s.kind() == StatementKind.SELECT && s.digestText().contains("from " + table)) {
        return s;
      }
    }
    throw new AssertionError("no SELECT of " + table + " in " + p.shapes().keySet());
  }
}
