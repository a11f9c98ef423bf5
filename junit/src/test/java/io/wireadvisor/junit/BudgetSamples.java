package io.wireadvisor.junit;

import io.wireadvisor.advisor.Severity;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Test classes as a user writes them, run by {@link WireBudgetIT} through the JUnit Platform's
 * EngineTestKit (not by Failsafe: the names do not end in IT). Each sends a known wire pattern.
 */
final class BudgetSamples {
  static volatile String url;
  static volatile String user;
  static volatile String password;

  private BudgetSamples() {}

  static Connection connect(String properties) throws SQLException {
    return DriverManager.getConnection(url + (url.contains("?") ? "&" : "?") + properties, user, password);
  }

  /** A statement run 20 times as a typical ORM would, with a probe per call when asked. */
  static void work(Connection c, String sql, boolean probes) throws SQLException {
    for (int i = 0; i < 20; i++) {
      if (probes) {
        c.getTransactionIsolation();
      }
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setInt(1, i);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
        }
      }
    }
  }

  @WireBudget(maxRoundTripsPerStatement = 1.2)
  static class TextWithProbes {
    @Test
    void query() throws SQLException {
      try (Connection c = connect("sslMode=DISABLED")) {
        work(c, "SELECT ? + 1", true);
      }
    }
  }

  @WireBudget(maxRoundTripsPerStatement = 1.2, maxSessionProbes = 0, noPreparePerExecution = true)
  static class Lean {
    @Test
    void query() throws SQLException {
      try (Connection c = connect("sslMode=DISABLED&useServerPrepStmts=true&cachePrepStmts=true"
          + "&useLocalSessionState=true")) {
        work(c, "SELECT ? + 1", true);
      }
    }
  }

  static class PreparePerExecution {
    @Test
    @WireBudget(noPreparePerExecution = true)
    void query() throws SQLException {
      try (Connection c = connect("sslMode=DISABLED&useServerPrepStmts=true")) {
        work(c, "SELECT ? + 1", false);
      }
    }
  }

  @WireBudget(noStatementAboveCacheLimit = true)
  static class LongStatement {
    @Test
    void query() throws SQLException {
      StringBuilder sql = new StringBuilder("SELECT ? + 1");
      while (sql.length() < 300) {
        sql.append(" + 1");
      }
      try (Connection c = connect("sslMode=DISABLED&useServerPrepStmts=true&cachePrepStmts=true")) {
        work(c, sql.toString(), false);
      }
    }
  }

  @WireBudget(maxSessionProbes = 0)
  static class Probes {
    @Test
    void query() throws SQLException {
      try (Connection c = connect("sslMode=DISABLED&useServerPrepStmts=true&cachePrepStmts=true")) {
        work(c, "SELECT ? + 1", true);
      }
    }
  }

  @WireBudget(failOnAdvice = true, failOnSeverity = Severity.LOW)
  static class AnyAdvice {
    @Test
    void query() throws SQLException {
      try (Connection c = connect("sslMode=DISABLED")) {
        for (int round = 0; round < 6; round++) {
          work(c, "SELECT ? + 2", true);
        }
      }
    }
  }
}
