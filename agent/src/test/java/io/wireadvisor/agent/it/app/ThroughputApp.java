package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A fixed-time JDBC loop for the overhead benchmark: a primary-key SELECT through a prepared
 * statement, and every tenth operation a text-protocol query. Prints {@code OPS <operations>}
 * after {@code seconds} of measurement (after a warm-up of the same length / 2), and {@code CPU
 * <nanoseconds>}: the CPU time this JVM used in the measured window, all threads (the agent's
 * cost shows there even when the database, not the client, limits throughput).
 *
 * <p>Arguments: JDBC URL, user, password, seconds[, warm-up seconds].
 */
public final class ThroughputApp {
  private ThroughputApp() {}

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[3]);
    try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]);
        PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?");
        Statement s = c.createStatement()) {
      // Warm-up: half the measured time unless given; the JIT compiles the driver's (and the
      // agent's) code for tens of seconds on two cores, which a long-running application amortizes.
      long warmUpNanos = args.length > 4 ? Long.parseLong(args[4]) * 1_000_000_000L : seconds * 500_000_000L;
      run(ps, s, warmUpNanos);
      long cpu0 = processCpuNanos();
      long ops = run(ps, s, seconds * 1_000_000_000L);
      long cpu = processCpuNanos() - cpu0;
      System.out.println("OPS " + ops);
      if (cpu0 >= 0) {
        System.out.println("CPU " + cpu);
      }
    }
  }

  /** This JVM's CPU time so far, or -1 where the JDK does not say. */
  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime()
        : -1;
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
