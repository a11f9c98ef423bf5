package io.wireadvisor.agent.it.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Traffic in rounds for MetricsGcIT, driven over stdin.
 *
 * <pre>
 * test: ROUND n   app: runs round n, writes AgentApi.profileJson() to &lt;dir&gt;/round.json, prints DONE
 * test: EXIT      app: exits
 * </pre>
 *
 * <p>{@code MetricsGcApp <jdbcUrl> <user> <password> <dir>}
 */
public final class MetricsGcApp {
  private MetricsGcApp() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS gc_t (id INT PRIMARY KEY, v VARCHAR(20))");
      s.execute("REPLACE INTO gc_t VALUES (1, 'a'), (2, 'b')");
    }
    System.out.println("READY");
    String line;
    while ((line = in.readLine()) != null && line.startsWith("ROUND ")) {
      int round = Integer.parseInt(line.substring(6).trim());
      for (int conn = 0; conn < 2; conn++) {
        try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]);
            Statement s = c.createStatement()) {
          for (int i = 0; i < 20 * round; i++) {
            try (PreparedStatement ps = c.prepareStatement("SELECT v FROM gc_t WHERE id = ?")) {
              ps.setInt(1, i % 3);
              ps.executeQuery().close();
            }
          }
          s.executeQuery("SELECT id FROM gc_t WHERE v = 'r" + round + "'").close();
          c.getTransactionIsolation();
          try {
            s.executeQuery("SELECT nope FROM gc_t").close();
          } catch (SQLException expected) {
            // counted as an error
          }
        }
      }
      String json = (String) WorkloadApp.callApi("profileJson");
      Files.write(Paths.get(args[3], "round.json"), json.getBytes(StandardCharsets.UTF_8));
      System.out.println("DONE " + round);
    }
  }
}
