package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which of the agent's sources the advisor judges the pool's settings by. */
class ProveSessionTest {
  private static final String POOL = "jdbc:mysql://127.0.0.1:3306/bank";

  private static Source source(String url, Map<String, String> props) {
    return new Source(Source.AGENT, "0.1", "host:1", "MySQL Connector/J", "9.5.0", "11.4.5-MariaDB", "REPEATABLE-READ",
        url, props, 1000, 2000);
  }

  private static TrafficProfile profile(Source... sources) {
    TrafficProfile p = new TrafficProfile();
    for (Source s : sources) {
      p.addSource(s);
    }
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(500, null));
    return p;
  }

  @Test
  void keepsTheSourceOfThisStepsPoolAndDropsEarlierPoolsAndAdminConnections() {
    ProveConfig step = ProveConfig.baseline("useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=250");
    Source pool = source(POOL, Map.of("useServerPrepStmts", "true", "cachePrepStmts", "true", "prepStmtCacheSize", "250",
        "prepStmtCacheSqlLimit", "256"));
    Source earlierPool = source(POOL, Map.of("useServerPrepStmts", "false", "cachePrepStmts", "false"));
    Source admin = source("jdbc:mysql://127.0.0.1:3306/", Map.of("useServerPrepStmts", "true", "cachePrepStmts", "true"));
    TrafficProfile filtered = ProveSession.poolOnly(profile(pool, earlierPool, admin), POOL + "?x=1", step, null);
    assertThat(filtered.sources()).singleElement().satisfies(s -> assertThat(s.properties()).containsEntry("prepStmtCacheSize", "250"));
    // Traffic is kept whole.
    assertThat(filtered.count(CommandType.STMT_EXECUTE)).isEqualTo(500);
  }

  @Test
  void leavesTheProfileAloneWhenNoSourceLooksLikeThePool() {
    TrafficProfile p = profile(source("jdbc:mysql://elsewhere:4000/x", Map.of("useServerPrepStmts", "false")));
    assertThat(ProveSession.poolOnly(p, POOL, ProveConfig.baseline("useServerPrepStmts=true"), "READ-COMMITTED")).isSameAs(p);
  }

  @Test
  void thePoolsIsolationReplacesTheConnectTimeOneTheAgentRecorded() {
    // The agent reads the isolation when the connection is made, before HikariCP sets READ COMMITTED.
    Source pool = source(POOL, Map.of("useServerPrepStmts", "false"));
    assertThat(pool.isolation()).isEqualTo("REPEATABLE-READ");
    TrafficProfile filtered = ProveSession.poolOnly(profile(pool), POOL, ProveConfig.baseline("useServerPrepStmts=false"), "READ-COMMITTED");
    assertThat(filtered.sources()).singleElement().satisfies(s -> {
      assertThat(s.isolation()).isEqualTo("READ-COMMITTED");
      assertThat(s.properties()).isEqualTo(pool.properties());
      assertThat(s.jdbcUrl()).isEqualTo(POOL);
    });
  }
}
