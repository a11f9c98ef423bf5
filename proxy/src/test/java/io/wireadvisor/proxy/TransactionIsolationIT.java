package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.RcReadCheckRule;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: the proxy follows each connection's isolation from the traffic, so that its profile
 * says what the agent's says and the advisor judges both alike. The server's own {@code
 * @@session.transaction_isolation} is the oracle for what each client set.
 */
@RealDatabase
class TransactionIsolationIT {
  private final DatabaseServer server;

  TransactionIsolationIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  private static String sessionIsolation(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT @@session.transaction_isolation")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static String globalIsolation(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT @@global.transaction_isolation")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static Map<String, Long> nonZero(Map<String, Long> by) {
    return by.entrySet().stream().filter(e -> e.getValue() > 0)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }

  @Test
  void eachStatementCountsUnderTheIsolationItsClientSetAsTheServerSaysIt() throws Exception {
    String db = server.createDatabase("wa_iso");
    try (Connection c = server.connect(db, "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT)");
      s.execute("INSERT INTO acct VALUES (1, 0), (2, 0), (3, 0)");
    }
    try (ProxiedServer p = ProxiedServer.start(server)) {
      String global;
      String refused = null;
      String afterRefusal;
      // 1. A client that never sets an isolation: the session's login value, the server's global.
      try (Connection c = p.connect(db, "");
          Statement s = c.createStatement()) {
        global = globalIsolation(s);
        assertThat(sessionIsolation(s)).isEqualTo(global);
        for (int i = 0; i < 4; i++) {
          s.executeQuery("SELECT v FROM acct WHERE id = " + (1 + i % 3)).close();
        }
      }
      // 2. Connector/J's setTransactionIsolation (SET SESSION TRANSACTION ISOLATION LEVEL ...).
      try (Connection c = p.connect(db, "");
          Statement s = c.createStatement()) {
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        assertThat(sessionIsolation(s)).isEqualTo("READ-COMMITTED");
        c.setAutoCommit(false);
        for (int i = 0; i < 5; i++) {
          s.executeQuery("SELECT v FROM acct WHERE id = 1").close();
        }
        s.executeUpdate("UPDATE acct SET v = v + 1 WHERE id = 2");
        c.commit();
        c.setAutoCommit(true);
        // 3. The variable, as a text: the session's on every server for the @@session. form.
        s.execute("SET @@session.transaction_isolation = 'REPEATABLE-READ'");
        assertThat(sessionIsolation(s)).isEqualTo("REPEATABLE-READ");
        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM acct WHERE id = ?")) {
          ps.setInt(1, 3);
          ps.executeQuery().close();
        }
        // 4. A SET the server may refuse: TiDB answers SERIALIZABLE with ERROR 8048 unless
        // tidb_skip_isolation_level_check is on; MariaDB takes it. The proxy must follow the server.
        try {
          s.execute("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        } catch (SQLException e) {
          refused = e.getErrorCode() + " " + e.getMessage();
        }
        afterRefusal = sessionIsolation(s);
        s.executeQuery("SELECT v FROM acct WHERE id = 2").close();
        // 5. SET TRANSACTION without scope: the next transaction's (here one autocommit read); the
        // session's value stays for the one after.
        s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        s.executeQuery("SELECT v FROM acct WHERE id = 1").close();
        s.executeQuery("SELECT v FROM acct WHERE id = 3").close();
        assertThat(sessionIsolation(s)).isEqualTo(afterRefusal);
      }
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      TrafficProfile profile = p.proxy.profile();
      Map<String, Long> by = nonZero(profile.statementsByIsolation());
      // Connection 1: 4 reads at the login's value. Connection 2: 6 under READ COMMITTED, 1 under
      // REPEATABLE READ, 2 under whatever the server says after the SERIALIZABLE SET, and the
      // read right after SET TRANSACTION under READ COMMITTED.
      Map<String, Long> expected = new TreeMap<>();
      expected.put("default", 4L);
      expected.put("READ-COMMITTED", 7L);
      expected.put("REPEATABLE-READ", 1L);
      expected.merge(afterRefusal, 2L, Long::sum);
      assertThat(afterRefusal).isEqualTo(refused == null ? "SERIALIZABLE" : "REPEATABLE-READ");
      assertThat(by).as("statements by isolation, proxy's profile on %s", server).isEqualTo(expected);
      System.out.printf("proxy statementsByIsolation on %s (global %s, SERIALIZABLE refused: %s): %s%n",
          server.version(), global, refused, by);
    }
  }

  @Test
  void readCommittedTrafficThroughTheProxyGetsTheReadCheckOnTiDB() throws Exception {
    String db = server.createDatabase("wa_iso_rc");
    try (Connection c = server.connect(db, "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT)");
      s.execute("INSERT INTO acct VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
    }
    ServerView view;
    try (Connection c = server.connect(db, "")) {
      view = ServerInspector.inspect(c, server.statusUrl().orElse(null));
    }
    TrafficProfile rc = run(db, true);
    TrafficProfile atDefault = run(db, false);
    assertThat(nonZero(rc.statementsByIsolation())).containsOnlyKeys("READ-COMMITTED");
    assertThat(nonZero(atDefault.statementsByIsolation())).containsOnlyKeys("default");
    Analysis rcAdvice = Advisor.analyze(rc, view);
    Analysis defaultAdvice = Advisor.analyze(atDefault, view);
    Recommendation readCheck = rcAdvice.recommendations().stream()
        .filter(r -> r.id().equals(RcReadCheckRule.ID)).findFirst().orElse(null);
    boolean defaultGetsIt = defaultAdvice.recommendations().stream()
        .anyMatch(r -> r.id().equals(RcReadCheckRule.ID));
    if (!server.isTiDB() || view.globalOn("tidb_rc_read_check_ts")) {
      assertThat(readCheck).as("TiDB's variable, off there only").isNull();
      return;
    }
    assertThat(readCheck).as("READ COMMITTED traffic through the proxy on %s", server.version()).isNotNull();
    assertThat(readCheck.evidence().get(0)).contains("ran under READ-COMMITTED");
    System.out.println("proxy profile, READ COMMITTED: " + readCheck.evidence().get(0));
    // The same traffic at the session's default is judged by the server's global.
    assertThat(defaultGetsIt).as("default = global %s", view.isolation())
        .isEqualTo("READ-COMMITTED".equals(view.isolation()));
  }

  /** 1,100 point reads and 20 writes through a fresh proxy, READ COMMITTED or the login's. */
  private TrafficProfile run(String db, boolean readCommitted) throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server)) {
      try (Connection c = p.connect(db, "")) {
        if (readCommitted) {
          c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        try (PreparedStatement read = c.prepareStatement("SELECT v FROM acct WHERE id = ?");
            PreparedStatement write = c.prepareStatement("UPDATE acct SET v = v + 1 WHERE id = ?")) {
          for (int i = 0; i < 1_100; i++) {
            read.setInt(1, 1 + i % 4);
            read.executeQuery().close();
            if (i % 55 == 0) {
              write.setInt(1, 1 + i % 4);
              write.executeUpdate();
            }
          }
        }
      }
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      return p.proxy.profile();
    }
  }
}
