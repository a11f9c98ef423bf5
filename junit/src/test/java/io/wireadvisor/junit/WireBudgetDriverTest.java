package io.wireadvisor.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.StatementKind;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A budget's failure gives the same driver-aware advice as the report (no agent needed). */
class WireBudgetDriverTest {
  @WireBudget(noPreparePerExecution = true, maxRoundTripsPerStatement = 1.5)
  void budget() {}

  static TrafficProfile preparedEveryTime(String driverVersion) {
    TrafficProfile p = new TrafficProfile();
    p.addSource(new Source(Source.AGENT, "0.1.0", "test:1", "MySQL Connector/J", driverVersion, null, null,
        null, Collections.singletonMap("useServerPrepStmts", "true"), 0, 10_000));
    ShapeStats s = new ShapeStats("0123456789abcdef0123456789abcdef", "select * from t where id = ?",
        StatementKind.SELECT, Collections.singletonList("t"), null, null, 30, 30);
    s.add(Via.PREPARES, 200);
    s.add(Via.EXECUTES, 200);
    s.add(Via.CLOSES, 200);
    p.addShape(s);
    p.addCommand(CommandType.STMT_PREPARE, new CommandStats(200, null));
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(200, null));
    p.addCommand(CommandType.STMT_CLOSE, new CommandStats(200, null));
    return p;
  }

  WireBudget budget;

  WireBudgetDriverTest() throws Exception {
    budget = getClass().getDeclaredMethod("budget").getAnnotation(WireBudget.class);
  }

  @Test
  void onConnectorJ8_0_33TheBudgetSaysUpgradeBeforeTheCache() {
    List<String> broken = WireBudgets.check(preparedEveryTime("mysql-connector-j-8.0.33 (Revision: x)"), budget);
    assertThat(broken).hasSize(2);
    assertThat(broken).allMatch(l -> l.contains("upgrade Connector/J to 8.3.0 or later before cachePrepStmts=true"))
        .noneMatch(l -> l.contains("Set cachePrepStmts=true"))
        .noneMatch(l -> l.contains("PREPARE/CLOSE around executions: cachePrepStmts=true"));
  }

  @Test
  void onConnectorJ9_5_0TheBudgetSaysCachePrepStmts() {
    List<String> broken = WireBudgets.check(preparedEveryTime("mysql-connector-j-9.5.0 (Revision: x)"), budget);
    assertThat(broken).hasSize(2);
    assertThat(broken.get(0)).contains("PREPARE/CLOSE around executions: cachePrepStmts=true");
    assertThat(broken.get(1)).contains("Set cachePrepStmts=true");
  }
}
