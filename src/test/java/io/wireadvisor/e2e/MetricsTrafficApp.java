package io.wireadvisor.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Traffic for the metrics tests, in a forked JVM under the agent or through the proxy: waits for
 * {@code go} to exist (so the scraper sees every counter at zero first), runs {@link #run}, keeps
 * one connection open, creates {@code done}, and exits when {@code stop} exists (at most 180 s).
 *
 * <p>{@code MetricsTrafficApp <jdbcUrl> <user> <password> <go> <done> <stop>}
 */
public final class MetricsTrafficApp {
  private MetricsTrafficApp() {}

  public static void main(String[] args) throws Exception {
    Path go = Paths.get(args[3]);
    Path done = Paths.get(args[4]);
    Path stop = Paths.get(args[5]);
    waitFor(go);
    run(args[0], args[1], args[2]);
    try (Connection open = DriverManager.getConnection(args[0], args[1], args[2])) {
      try (Statement s = open.createStatement()) {
        s.executeQuery("SELECT 1").close();
      }
      Files.createFile(done);
      waitFor(stop);
    }
  }

  private static void waitFor(Path file) throws InterruptedException {
    for (int i = 0; i < 1800 && !Files.exists(file); i++) {
      Thread.sleep(100);
    }
  }

  /**
   * Two connections of prepared statements closed after each use (PREPARE + EXECUTE + CLOSE per
   * statement without a statement cache), text statements, probes, one error. {@code url} must
   * carry {@code useServerPrepStmts=true}.
   */
  static void run(String url, String user, String password) throws SQLException {
    for (int conn = 0; conn < 2; conn++) {
      try (Connection c = DriverManager.getConnection(url, user, password);
          Statement s = c.createStatement()) {
        for (int i = 0; i < 40; i++) {
          try (PreparedStatement ps = c.prepareStatement("SELECT v FROM metrics_t WHERE id = ?")) {
            ps.setInt(1, i % 5);
            ps.executeQuery().close();
          }
        }
        for (int i = 0; i < 10; i++) {
          s.executeQuery("SELECT id FROM metrics_t WHERE v = 'x" + i + "'").close();
          c.getTransactionIsolation();
          s.executeQuery("SELECT @@session.transaction_isolation").close();
        }
        try {
          s.executeQuery("SELECT no_such_column FROM metrics_t").close();
        } catch (SQLException expected) {
          // counted as an error
        }
      }
    }
  }
}
