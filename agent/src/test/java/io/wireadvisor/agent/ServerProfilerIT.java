package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.wireadvisor.profile.ServerCpuProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TiDBOnly;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A real TiDB's CPU profile (the agent's {@code serverCpuProfile}) read into where its CPU went:
 * text statements, each a new SQL text, are parsed and compiled on client connections.
 */
@RealDatabase
class ServerProfilerIT {
  @Test
  @TiDBOnly
  void aTextWorkloadsParseAndCompileShowInTidbsCpuProfile(DatabaseServer server) throws Exception {
    assumeThat(server.statusUrl()).as("TiDB's status port (for its CPU profile)").isPresent();
    String db = server.createDatabase("profiler");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
      s.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong statements = new AtomicLong();
    Thread load = new Thread(() -> {
      try (Connection c = server.connect(db, "useServerPrepStmts=false"); Statement s = c.createStatement()) {
        for (long i = 0; !stop.get(); i++) {
          s.executeQuery("SELECT v FROM t WHERE id = " + (i % 3 + 1) + " AND v <> 'x" + (i % 97) + "'").close();
          statements.incrementAndGet();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    load.start();
    ServerCpuProfile p;
    try {
      p = ServerProfiler.take(server.statusUrl().get(), 5);
    } finally {
      stop.set(true);
      load.join();
    }
    System.out.println("TiDB CPU profile over " + statements.get() + " text statements: " + p
        + ", parse + compile + digests " + p.optimizerShare());
    assertThat(statements.get()).isPositive();
    assertThat(p.slices()).isEqualTo(1);
    assertThat(p.sampledNanos()).isPositive();
    assertThat(p.connectionNanos()).isPositive().isLessThanOrEqualTo(p.sampledNanos());
    assertThat(p.parseNanos()).isPositive();
    assertThat(p.compileNanos()).isPositive();
    assertThat(p.optimizerShare()).isGreaterThan(0).isLessThan(1);
  }
}
