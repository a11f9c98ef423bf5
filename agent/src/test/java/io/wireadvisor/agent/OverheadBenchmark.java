package io.wireadvisor.agent;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.ServerLocator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Throughput of the same JDBC workload ({@code ThroughputApp}) with and without the agent, in one
 * run, against the testkit's server (WIRE_ADVISOR_JDBC_URL, else TiDB in Docker, else embedded
 * MariaDB): rounds alternate without/with (and which goes first) so drift hits both sides alike;
 * the result is the ratio of the medians, and of the client JVM's CPU time per operation (the
 * agent's cost where the database, not the client, limits throughput). Not a test (speed is never asserted); run by hand from the repository root
 * after {@code mvn -pl agent -am package -DskipTests} and the classpath step of
 * {@link CommandHookBenchmark}:
 *
 * <pre>
 * java -cp agent/target/test-classes:agent/target/classes:$(cat agent/target/test.classpath) \
 *     io.wireadvisor.agent.OverheadBenchmark [rounds=5] [seconds=5] [warm-up seconds=seconds/2] [concurrent]
 * </pre>
 *
 * With {@code concurrent}, each round runs both JVMs at the same time (same load, same moment),
 * which a shared machine needs; the sequential default suits a quiet one.
 */
public final class OverheadBenchmark {
  private OverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean concurrent = false;
    int warmUp = seconds / 2;
    for (int i = 2; i < args.length; i++) {
      if (args[i].equals("concurrent")) {
        concurrent = true;
      } else {
        warmUp = Integer.parseInt(args[i]);
      }
    }
    Path agent = Paths.get("agent/target/wire-advisor-agent.jar").toAbsolutePath();
    // The workload's JVM sees only the driver and the test app, as an application would; the
    // agent's own classes come from the shaded jar alone.
    StringBuilder cpb = new StringBuilder("agent/target/test-classes");
    for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (e.contains("mysql-connector-j")) {
        cpb.append(java.io.File.pathSeparator).append(e);
      }
    }
    String cp = cpb.toString();
    DatabaseServer server = ServerLocator.shared();
    String db = server.createDatabase("overhead");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(100))");
      s.execute("INSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d'),(5,'e')");
    }
    String url = server.jdbcUrl(db, "useServerPrepStmts=true&cachePrepStmts=true&sslMode=DISABLED");
    long[] without = new long[rounds];
    long[] with = new long[rounds];
    double[] cpuWithout = new double[rounds];
    double[] cpuWith = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long[] a;
      long[] b;
      if (concurrent) {
        // Both JVMs at once: on a shared, loaded machine they see the same load at the same time.
        Process pa = start(null, cp, url, server, seconds, warmUp);
        Process pb = start(agent, cp, url, server, seconds, warmUp);
        a = finish(pa);
        b = finish(pb);
      } else if (r % 2 == 0) {
        a = finish(start(null, cp, url, server, seconds, warmUp));
        b = finish(start(agent, cp, url, server, seconds, warmUp));
      } else {
        // Every other round the agent goes first, so a trend over the run favours neither side.
        b = finish(start(agent, cp, url, server, seconds, warmUp));
        a = finish(start(null, cp, url, server, seconds, warmUp));
      }
      without[r] = a[0];
      with[r] = b[0];
      cpuWithout[r] = a[1] / (double) a[0];
      cpuWith[r] = b[1] / (double) b[0];
      System.out.printf(
          "round %d: without %d ops (%.1f µs CPU/op), with %d ops (%.1f µs CPU/op)%n",
          r + 1, without[r], cpuWithout[r] / 1000, with[r], cpuWith[r] / 1000);
    }
    long ma = median(without);
    long mb = median(with);
    double[] paired = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      paired[r] = with[r] / (double) without[r];
    }
    Arrays.sort(paired);
    System.out.printf("median of per-round ratios (with/without, adjacent runs): %.4f (range %.4f – %.4f)%n",
        paired[rounds / 2], paired[0], paired[rounds - 1]);
    System.out.printf(
        "median ops/s without agent: %.0f, with agent: %.0f, ratio: %.4f (%d rounds of %d s after %d s of warm-up, %s, %s)%n",
        ma / (double) seconds, mb / (double) seconds, mb / (double) ma, rounds, seconds, warmUp,
        server.version(), System.getProperty("java.version"));
    double ca = median(cpuWithout);
    double cb = median(cpuWith);
    System.out.printf(
        "median client CPU per operation: without %.2f µs, with %.2f µs: +%.3f µs (%.2f%%)%n",
        ca / 1000, cb / 1000, (cb - ca) / 1000, 100 * (cb - ca) / ca);
    server.close();
  }

  private static Process start(
      Path agent, String cp, String url, DatabaseServer server, int seconds, int warmUp)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    if (agent != null) {
      cmd.add("-javaagent:" + agent + "=quiet=true");
    }
    cmd.addAll(Arrays.asList("-cp", cp, "io.wireadvisor.agent.it.app.ThroughputApp", url,
        server.user(), server.password() == null ? "" : server.password(), String.valueOf(seconds),
        String.valueOf(warmUp)));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  /** {operations, CPU nanoseconds} of a finished workload JVM. */
  private static long[] finish(Process p) throws Exception {
    long ops = -1;
    long cpu = -1;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("OPS ")) {
          ops = Long.parseLong(line.substring(4).trim());
        } else if (line.startsWith("CPU ")) {
          cpu = Long.parseLong(line.substring(4).trim());
        }
      }
    }
    if (p.waitFor() != 0 || ops < 0) {
      throw new IllegalStateException("workload failed: " + p.info().commandLine().orElse("?"));
    }
    return new long[] {ops, cpu};
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static long median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
