package io.wireadvisor.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.proxy.ProxyConfig;
import io.wireadvisor.proxy.WireProxy;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One traffic, two collectors, one profile: an application runs every Connector/J mode
 * ({@link DriverModesApp}) under the agent AND through the proxy, so both collectors see the very
 * same commands. Their profiles must agree on everything the traffic determines (commands by
 * type, shapes and their counts by way of execution, probes, and the per-connection figures the
 * advisor sizes {@code prepStmtCacheSize} from), and both must equal the server's own counters.
 *
 * <p>This is the test that keeps the two adapters honest: a rule recorded one way by the agent and
 * another by the proxy (a failed prepare counted as a prepared statement, say) fails here.
 */
@RealDatabase
class OneTrafficTwoCollectorsIT {
  /** Per-connection figures that the traffic alone determines (lifetime depends on timing). */
  private static final ConnectionMetric[] TRAFFIC_METRICS = {
    ConnectionMetric.PREPARED_STATEMENTS,
    ConnectionMetric.DISTINCT_PREPARED_SHAPES,
    ConnectionMetric.DISTINCT_SHAPES,
    ConnectionMetric.COMMANDS,
  };

  @Test
  void agentAndProxyRecordTheSameProfileOfOneTraffic(DatabaseServer server, @TempDir Path dir)
      throws Exception {
    String db = server.createDatabase("e2e_two");
    WireProxy proxy = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()));
    try {
      Path agentProfile = dir.resolve("agent.json");
      Path done = dir.resolve("done");
      String url = "jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + db;
      CounterSnapshot before = server.counters().snapshot();
      ForkedJvm.Result run =
          ForkedJvm.runWithAgent(
              "profile=" + agentProfile + ",quiet=true",
              DriverModesApp.class,
              url,
              server.user(),
              server.password().isEmpty() ? "-" : server.password(),
              done.toString());
      assertThat(run.exitCode()).as("application output:%n%s", run.output()).isZero();
      assertThat(done).exists();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (proxy.clientConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(proxy.clientConnections()).as("proxy connections closed").isZero();
      CounterSnapshot delta = server.counters().snapshot().minus(before);

      TrafficProfile agent = ProfileJson.readFile(agentProfile);
      TrafficProfile viaProxy = proxy.profile();

      assertThat(commands(viaProxy)).as("commands by type: proxy vs agent").isEqualTo(commands(agent));
      assertThat(agent.count(CommandType.STMT_FETCH)).as("cursor fetch exercised").isPositive();
      assertThat(agent.count(CommandType.STMT_PREPARE)).as("prepares exercised").isPositive();
      assertThat(shapes(viaProxy)).as("shapes and their counts: proxy vs agent").isEqualTo(shapes(agent));
      // What only the JDBC API shows (executeBatch calls and their sizes): the agent's alone.
      assertThat(agent.total(Via.BATCHED_STATEMENTS)).as("agent sees JDBC batches").isEqualTo(40);
      assertThat(viaProxy.total(Via.BATCHES)).as("no JDBC batch is visible on the wire").isZero();
      assertThat(shapes(agent).keySet()).anyMatch(k -> k.contains("no_such_table"));
      assertThat(probes(viaProxy)).as("probes by kind").isEqualTo(probes(agent));
      // Rows per execution and statement patterns, judged per transaction by the same rules
      // from the rows and status flags each collector reads its own way.
      assertThat(rowsAndPatterns(viaProxy)).as("rows and patterns: proxy vs agent")
          .isEqualTo(rowsAndPatterns(agent));
      assertThat(viaProxy.transactions()).as("transactions").isEqualTo(agent.transactions())
          .isPositive();
      assertThat(rowsAndPatterns(agent).values()).as("patterns exercised")
          .anyMatch(v -> v.contains("n+1")).anyMatch(v -> v.contains("insert-then-update"));
      // The JDBC call that caused a probe is, again, only the agent's to know.
      assertThat(agent.probes().values()).allMatch(p -> !p.causes().isEmpty());
      assertThat(viaProxy.connections().connections())
          .as("connections")
          .isEqualTo(agent.connections().connections());
      for (ConnectionMetric m : TRAFFIC_METRICS) {
        assertThat(viaProxy.connections().distribution(m))
            .as("per-connection %s: proxy vs agent", m)
            .isEqualTo(agent.connections().distribution(m));
      }
      // ... and both are what the server counted, for the commands whose server counts mean the
      // same here: not COM_QUERY (MariaDB counts each statement of the multi-statement query),
      // and COM_STMT_CLOSE only where the server counts the closes Connector/J sends after a
      // refused prepare (TiDB does, MariaDB does not).
      Map<String, Long> serverCounts = new TreeMap<>(server.counters().exactDeltas(delta));
      serverCounts.remove("COM_QUERY");
      if (!server.counters().countsClosesOfUnknownStatements()) {
        serverCounts.remove("COM_STMT_CLOSE");
      }
      assertThat(serverCounts).containsKeys("COM_STMT_PREPARE", "COM_STMT_EXECUTE");
      for (TrafficProfile p : new TrafficProfile[] {agent, viaProxy}) {
        Map<String, Long> counted = new TreeMap<>(server.counters().asCounted(c -> p.count(CommandType.fromWireName(c))));
        counted.keySet().retainAll(serverCounts.keySet());
        assertThat(counted).as("%s vs server", p == agent ? "agent" : "proxy").isEqualTo(serverCounts);
      }
    } finally {
      proxy.close();
    }
  }

  private static Map<String, Long> commands(TrafficProfile p) {
    Map<String, Long> m = new TreeMap<>();
    for (CommandType t : CommandType.values()) {
      if (p.count(t) > 0) {
        m.put(t.wireName(), p.count(t));
      }
    }
    return m;
  }

  /** Digest text to its counted rows and its patterns (kind, partner's text, counts). */
  private static Map<String, String> rowsAndPatterns(TrafficProfile p) {
    Map<String, String> m = new TreeMap<>();
    for (ShapeStats s : p.shapes().values()) {
      StringBuilder b = new StringBuilder();
      b.append("rows ").append(s.rows()).append(" of ").append(s.rowsCounted()).append(" executions");
      for (io.wireadvisor.profile.PatternStats x : s.patterns()) {
        ShapeStats partner = p.shape(x.partner());
        b.append("; ").append(x.kind().jsonName()).append(" after ")
            .append(partner == null ? "?" : partner.digestText()).append(": ")
            .append(x.executions()).append(" in ").append(x.transactions()).append(", rows ")
            .append(x.rows());
      }
      m.put(s.digestText(), b.toString());
    }
    return m;
  }

  private static Map<String, Long> probes(TrafficProfile p) {
    Map<String, Long> m = new TreeMap<>();
    p.probes().forEach((kind, stats) -> m.put(kind.name(), stats.count()));
    return m;
  }

  /**
   * Digest text (readable in a failure) to its counts by way of execution on the wire (JDBC
   * batches are an API fact only the agent sees).
   */
  private static Map<String, Map<Via, Long>> shapes(TrafficProfile p) {
    Map<String, Map<Via, Long>> m = new TreeMap<>();
    for (ShapeStats s : p.shapes().values()) {
      Map<Via, Long> counts = new TreeMap<>();
      for (Via v : Via.values()) {
        if (s.count(v) > 0 && v != Via.BATCHES && v != Via.BATCHED_STATEMENTS) {
          counts.put(v, s.count(v));
        }
      }
      m.put(s.digestText(), counts);
    }
    return m;
  }

}
