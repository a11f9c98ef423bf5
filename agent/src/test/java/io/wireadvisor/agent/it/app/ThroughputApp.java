package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A fixed-time JDBC loop for the overhead benchmark: a primary-key SELECT through a prepared
 * statement, and every tenth operation a text-protocol query. Prints {@code OPS <operations>}
 * after {@code seconds} of measurement (after a warm-up of the same length / 2).
 *
 * <p>Arguments: JDBC URL, user, password, seconds.
 */
public final class ThroughputApp {
  private ThroughputApp() {}

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[3]);
    try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]);
        PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?");
        Statement s = c.createStatement()) {
      run(ps, s, seconds * 500_000_000L);
      long ops = run(ps, s, seconds * 1_000_000_000L);
      System.out.println("OPS " + ops);
    }
  }

  private static long run(PreparedStatement ps, Statement s, long nanos) throws Exception {
    long end = System.nanoTime() + nanos;
    long ops = 0;
    long sink = 0;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10; i++) {
        ps.setInt(1, (int) (ops % 5) + 1);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          sink += rs.getString(1).length();
        }
        ops++;
      }
      try (ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = " + (ops % 5 + 1))) {
        rs.next();
        sink += rs.getString(1).length();
      }
      ops++;
    }
    return sink >= 0 ? ops : -1;
  }
}
