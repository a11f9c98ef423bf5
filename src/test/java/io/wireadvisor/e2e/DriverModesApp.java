package io.wireadvisor.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Connector/J in every way it speaks the protocol, for {@link OneTrafficTwoCollectorsIT}: text
 * protocol, server-side prepared statements with and without the client cache, a prepare the
 * server refuses, cursor fetch, batches rewritten and not, multi-statement results, errors,
 * session probes. Run under the agent, through the proxy, so both see the same bytes.
 *
 * <p>Arguments: base JDBC URL (no parameters), user, password, a file to create when done.
 */
public final class DriverModesApp {
  private DriverModesApp() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String user = args[1];
    String password = args[2].equals("-") ? "" : args[2];
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS acct (id INT PRIMARY KEY, owner VARCHAR(40), bal DECIMAL(12,2))");
      s.execute("DELETE FROM acct");
    }
    String[] modes = {
      "", // text protocol, the driver's default
      "useServerPrepStmts=true",
      "useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=4",
      "useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=2",
      "rewriteBatchedStatements=true",
      "useServerPrepStmts=true&rewriteBatchedStatements=true",
      "allowMultiQueries=true",
      "useConfigs=maxPerformance&useServerPrepStmts=true&cachePrepStmts=true",
    };
    int id = 0;
    for (String mode : modes) {
      try (Connection c = DriverManager.getConnection(url + "?" + mode, user, password)) {
        id = work(c, mode, id);
      }
    }
    Files.createFile(Path.of(args[3]));
  }

  private static int work(Connection c, String mode, int id) throws SQLException {
    // Probes and session changes: what pools and frameworks do around statements.
    c.setAutoCommit(false);
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    c.getTransactionIsolation();
    c.getAutoCommit();
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO acct (id, owner, bal) VALUES (?, ?, ?)")) {
      for (int i = 0; i < 5; i++) {
        insert.setInt(1, ++id);
        insert.setString(2, "owner" + id);
        insert.setBigDecimal(3, new java.math.BigDecimal(id * 10));
        insert.addBatch();
      }
      insert.executeBatch();
    }
    c.commit();
    // Statement patterns, judged per transaction: four one-row loads of one shape (N+1), and an
    // INSERT followed by an UPDATE of the row it inserted.
    for (int i = 0; i < 4; i++) {
      try (PreparedStatement ps = c.prepareStatement("SELECT bal FROM acct WHERE id = ?")) {
        ps.setInt(1, id - i);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getBigDecimal(1);
          }
        }
      }
    }
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO acct (id, owner) VALUES (?, ?)");
        PreparedStatement update = c.prepareStatement("UPDATE acct SET bal = ? WHERE id = ?")) {
      insert.setInt(1, ++id);
      insert.setString(2, "owner" + id);
      insert.executeUpdate();
      update.setInt(1, 5);
      update.setInt(2, id);
      update.executeUpdate();
    }
    c.commit();
    c.setAutoCommit(true);
    for (int i = 0; i < 4; i++) {
      try (PreparedStatement ps = c.prepareStatement("SELECT owner, bal FROM acct WHERE id = ?")) {
        ps.setInt(1, id - i);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getString(1);
          }
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id, owner FROM acct WHERE bal > ? ORDER BY id")) {
      ps.setInt(1, 0);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rs.getInt(1); // several rows: more than one fetch under useCursorFetch
        }
      }
    }
    // A prepare the server refuses (no such table): Connector/J falls back to the client side.
    try (PreparedStatement ps = c.prepareStatement("SELECT x FROM no_such_table WHERE id = ?")) {
      ps.setInt(1, 1);
      ps.executeQuery();
      throw new IllegalStateException("no_such_table answered");
    } catch (SQLException expected) {
      // the server's error, by text or binary protocol
    }
    try (Statement s = c.createStatement()) {
      s.executeQuery("SELECT COUNT(*) FROM acct").close();
      try {
        s.execute("SELEC broken syntax");
      } catch (SQLException expected) {
        // a statement error is a command that failed, counted once
      }
      if (mode.contains("allowMultiQueries")) {
        boolean more = s.execute("SELECT 1; SELECT 2; UPDATE acct SET bal = bal WHERE id = 1");
        while (more || s.getUpdateCount() != -1) {
          more = s.getMoreResults();
        }
      }
    }
    return id;
  }
}
