package io.wireadvisor.agent.it.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * For PoolBorrowsIT: HikariCP over one connection with {@code autoCommit} as told, borrowed as a
 * Spring Data application borrows it: {@link #OUTSIDE} borrows that run a query method outside any
 * transaction (an owner, then each of its pets' visits one pet at a time), and {@link
 * #TRANSACTIONS} that run a transaction the way Spring does on such a pool. Protocol: READY, GO,
 * workload, window.json (the agent's profile), DONE; EXIT closes the pool.
 *
 * <p>Args: autoCommit url user password outDir.
 */
public final class PoolBorrowsApp {
  public static final int OUTSIDE = 6;
  public static final int TRANSACTIONS = 4;
  public static final int PETS = 4;

  private PoolBorrowsApp() {}

  public static void main(String[] args) throws Exception {
    boolean autoCommit = Boolean.parseBoolean(args[0]);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    HikariConfig cfg = new HikariConfig();
    cfg.setJdbcUrl(args[1]);
    cfg.setUsername(args[2]);
    cfg.setPassword(args[3]);
    cfg.setMaximumPoolSize(1);
    cfg.setMinimumIdle(1);
    cfg.setAutoCommit(autoCommit);
    try (HikariDataSource ds = new HikariDataSource(cfg)) {
      System.out.println("READY");
      System.out.flush();
      WorkloadApp.expect(in, "GO");
      for (int b = 0; b < OUTSIDE + TRANSACTIONS; b++) {
        try (Connection c = ds.getConnection()) {
          if (b % 2 == 1 && b / 2 < TRANSACTIONS) {
            transaction(c, autoCommit, b);
          } else {
            ownerWithVisits(c, b);
          }
        }
      }
      WorkloadApp.writeProfile(Paths.get(args[4]).resolve("window.json"));
      System.out.println("DONE");
      System.out.flush();
      WorkloadApp.expect(in, "EXIT");
    }
  }

  /** A query method without @Transactional: under the pool's autocommit, or in an open transaction. */
  private static void ownerWithVisits(Connection c, int b) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM owners WHERE id = ?")) {
      ps.setInt(1, b % 3 + 1);
      ps.executeQuery().close();
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id, v FROM visits WHERE pet_id = ?")) {
      for (int pet = 1; pet <= PETS; pet++) {
        ps.setInt(1, pet);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getString(2);
          }
        }
      }
    }
  }

  /** A @Transactional method as Spring runs it: autocommit off first where the pool has it on. */
  private static void transaction(Connection c, boolean poolAutoCommit, int b) throws SQLException {
    if (poolAutoCommit) {
      c.setAutoCommit(false);
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE owners SET name = ? WHERE id = ?")) {
      ps.setString(1, "o" + b);
      ps.setInt(2, b % 3 + 1);
      ps.executeUpdate();
    }
    c.commit();
    if (poolAutoCommit) {
      c.setAutoCommit(true);
    }
  }
}
