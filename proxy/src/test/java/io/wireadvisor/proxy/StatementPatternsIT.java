package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.profile.PatternStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.Commands;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an ORM's lazy loading and unidirectional one-to-many put on the wire (its SQL as Hibernate 6
 * writes it, aliases p1_0 and c1_0: only there is batch fetching the fix), through the proxy to
 * a real server: a JDBC workload loads children one parent at a time in each transaction (N+1)
 * and inserts children before setting their foreign key with an UPDATE; the proxy's {@code
 * /report} names both, with the shapes and the counts the workload sent, and the server's own
 * counters agree with the proxy's on the commands.
 */
@RealDatabase
class StatementPatternsIT {
  static final int PARENTS = 6;
  static final int LOOP_TRANSACTIONS = 6;
  static final int INSERT_TRANSACTIONS = 5;
  static final int CHILDREN_PER_INSERT = 4;
  private final DatabaseServer server;

  StatementPatternsIT(DatabaseServer server) {
    this.server = server;
  }

  @ParameterizedTest
  @ValueSource(strings = {"useServerPrepStmts=false", "useServerPrepStmts=true&cachePrepStmts=true"})
  void theReportNamesTheNPlusOneLoopAndTheUpdateAfterInsertWithTheCountsSent(String properties)
      throws Exception {
    String db = server.createDatabase("patterns");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE parent (id INT PRIMARY KEY, owner INT NOT NULL)");
      s.execute("CREATE TABLE child (id INT PRIMARY KEY, parent_id INT NULL, v VARCHAR(20))");
      for (int i = 1; i <= PARENTS; i++) {
        s.execute("INSERT INTO parent VALUES (" + i + ", 1)");
        s.execute("INSERT INTO child VALUES (" + (1000 + i) + ", " + i + ", 'c" + i + "')");
      }
    }
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()).withAdmin("127.0.0.1", 0);
    int loads = 0;
    int rowsLoaded = 0;
    int updates = 0;
    CounterSnapshot before;
    CounterSnapshot after;
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      try (Connection c = p.connect(db, properties + "&sslMode=DISABLED")) {
        c.setAutoCommit(false);
        before = server.counters().snapshot();
        // N+1: the parents, then each parent's children by its id (one row each).
        for (int t = 0; t < LOOP_TRANSACTIONS; t++) {
          List<Integer> ids = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement("SELECT p1_0.id FROM parent p1_0 WHERE p1_0.owner = ?")) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                ids.add(rs.getInt(1));
              }
            }
          }
          for (int id : ids) {
            try (PreparedStatement ps =
                c.prepareStatement("SELECT c1_0.id, c1_0.v FROM child c1_0 WHERE c1_0.parent_id = ?")) {
              ps.setInt(1, id);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  rowsLoaded++;
                }
              }
            }
            loads++;
          }
          c.commit();
        }
        // Unidirectional @OneToMany @JoinColumn: INSERT each child, then UPDATE its foreign key.
        int next = 2000;
        for (int t = 0; t < INSERT_TRANSACTIONS; t++) {
          int first = next;
          for (int i = 0; i < CHILDREN_PER_INSERT; i++) {
            try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO child (id, parent_id, v) VALUES (?, NULL, ?)")) {
              ps.setInt(1, next++);
              ps.setString(2, "n" + i);
              ps.executeUpdate();
            }
          }
          for (int id = first; id < next; id++) {
            try (PreparedStatement ps =
                c.prepareStatement("UPDATE child SET parent_id = ? WHERE id = ?")) {
              ps.setInt(1, 1 + t % PARENTS);
              ps.setInt(2, id);
              updates += ps.executeUpdate() > 0 ? 1 : 0;
            }
          }
          c.commit();
        }
        after = server.counters().snapshot();
      }
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      TrafficProfile profile = p.proxy.profile();
      CounterSnapshot d = after.minus(before);
      // The oracle: the statements the workload ran reached the server as the proxy counted them.
      int statements = LOOP_TRANSACTIONS * (1 + PARENTS) + INSERT_TRANSACTIONS * 2 * CHILDREN_PER_INSERT;
      assertThat(d.get(Commands.COM_QUERY) + d.get(Commands.COM_STMT_EXECUTE))
          .isEqualTo(statements + LOOP_TRANSACTIONS + INSERT_TRANSACTIONS); // and the COMMITs
      assertThat(loads).isEqualTo(LOOP_TRANSACTIONS * PARENTS);
      assertThat(rowsLoaded).isEqualTo(loads);
      assertThat(updates).isEqualTo(INSERT_TRANSACTIONS * CHILDREN_PER_INSERT);

      ShapeStats child = shape(profile, "select c1_0.id, c1_0.v from child c1_0 where c1_0.parent_id = ?");
      ShapeStats parents = shape(profile, "select p1_0.id from parent p1_0 where p1_0.owner = ?");
      PatternStats n = child.pattern(PatternStats.Kind.N_PLUS_ONE, parents.digest());
      assertThat(n).as("N+1 of %s in %s", child.digestText(), child.patterns()).isNotNull();
      assertThat(n.transactions()).isEqualTo(LOOP_TRANSACTIONS);
      assertThat(n.executions()).isEqualTo(loads);
      assertThat(n.rows()).isEqualTo(rowsLoaded);
      assertThat(child.rowsCounted()).isEqualTo(loads);
      assertThat(parents.rows()).isEqualTo((long) LOOP_TRANSACTIONS * PARENTS);
      ShapeStats update = shape(profile, "update child set parent_id = ? where id = ?");
      ShapeStats insert = shape(profile, "insert into child (id, parent_id, v) values");
      PatternStats u = update.pattern(PatternStats.Kind.INSERT_THEN_UPDATE, insert.digest());
      assertThat(u).as("insert-then-update in %s", update.patterns()).isNotNull();
      assertThat(u.transactions()).isEqualTo(INSERT_TRANSACTIONS);
      assertThat(u.executions()).isEqualTo(updates);
      assertThat(parents.patterns()).isEmpty();
      assertThat(insert.patterns()).isEmpty();
      assertThat(profile.transactions()).isEqualTo(LOOP_TRANSACTIONS + INSERT_TRANSACTIONS);

      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(
              "http://127.0.0.1:" + p.proxy.adminPort() + "/report?format=json")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      JsonNode report = new ObjectMapper().readTree(r.body());
      JsonNode rec = null;
      for (JsonNode x : report.path("recommendations")) {
        if (x.path("id").asText().equals("statement-patterns")) {
          rec = x;
        }
      }
      assertThat(rec).as("statement-patterns in %s", report.path("recommendations")).isNotNull();
      String evidence = rec.path("evidence").toString();
      System.out.println("statement-patterns, " + properties + ":\n" + rec.toPrettyString());
      assertThat(evidence)
          .contains("N+1: select c1_0.id, c1_0.v from child c1_0 where c1_0.parent_id = ? ran " + loads + " times in "
              + LOOP_TRANSACTIONS + " transactions (" + PARENTS + ".0 per transaction, 1.00 rows"
              + " per execution")
          .contains("after select p1_0.id from parent p1_0 where p1_0.owner = ?")
          .contains("UPDATE after INSERT: update child set parent_id = ? where id = ? ran " + updates
              + " times after insert into child")
          .contains("in " + INSERT_TRANSACTIONS + " transactions (" + CHILDREN_PER_INSERT
              + ".0 per transaction");
      assertThat(rec.path("change").toString()).contains("hibernate.default_batch_fetch_size")
          .contains("mappedBy");
      // Every format names them: text, markdown and HTML beside the JSON.
      for (String format : new String[] {"text", "markdown", "html"}) {
        String body = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.proxy.adminPort()
                + "/report?format=" + format)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        // Text and markdown wrap long lines: compare with runs of white space as one.
        assertThat(body.replaceAll("\\s+", " ")).as(format).contains("statement-patterns")
            .contains("ran " + loads + " times in " + LOOP_TRANSACTIONS + " transactions")
            .contains("ran " + updates + " times after insert into child");
        if (format.equals("text")) {
          int at = body.indexOf("statement-patterns");
          System.out.println("text report, " + properties + ":\n"
              + body.substring(Math.max(0, body.lastIndexOf("\n\n", at)),
                  Math.min(body.length(), at + 4000)));
        }
      }
    }
  }

  private static ShapeStats shape(TrafficProfile p, String prefix) {
    for (ShapeStats s : p.shapes().values()) {
      if (s.digestText().startsWith(prefix)) {
        return s;
      }
    }
    throw new AssertionError("no shape " + prefix + " in " + p.shapes().keySet());
  }
}
