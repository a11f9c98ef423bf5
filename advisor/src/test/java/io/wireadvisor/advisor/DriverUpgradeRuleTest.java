package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerVersion;
import io.wireadvisor.server.ServerView;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriverUpgradeRuleTest {
  static final ServerView TIDB_1 = BankLikeProfiles.tidb(1);

  /** The bank profile of a scenario as recorded with another Connector/J (traffic unchanged). */
  static TrafficProfile withDriver(int scenario, String driverVersion) {
    TrafficProfile base = BankLikeProfiles.scenario(scenario);
    TrafficProfile p = RulesTest.withProps(base, base.sources().get(0).properties());
    Source s = p.sources().get(0);
    TrafficProfile q = new TrafficProfile();
    q.addSource(new Source(s.collector(), s.collectorVersion(), s.instance(), s.driverName(),
        driverVersion, s.serverVersion(), s.isolation(), s.jdbcUrl(), s.properties(),
        s.startMillis(), s.endMillis()));
    TrafficProfile traffic = new TrafficProfile();
    traffic.addAll(p);
    for (ShapeStats sh : traffic.shapes().values()) {
      q.addShape(sh);
    }
    for (Map.Entry<CommandType, CommandStats> e : traffic.commands().entrySet()) {
      q.addCommand(e.getKey(), e.getValue());
    }
    q.connections().add(traffic.connections());
    return q;
  }

  @Test
  void versionsWithTheResetAreThe8_0To8_2Releases() {
    assertThat(ConnectorJ.resetsCachedStatements(ServerVersion.parse("mysql-connector-java-8.0.30 (Revision: x)"))).isTrue();
    assertThat(ConnectorJ.resetsCachedStatements(ServerVersion.parse("mysql-connector-j-8.0.33 (Revision: x)"))).isTrue();
    assertThat(ConnectorJ.resetsCachedStatements(ServerVersion.parse("8.2.0"))).isTrue();
    assertThat(ConnectorJ.resetsCachedStatements(ServerVersion.parse("8.3.0"))).isFalse();
    assertThat(ConnectorJ.resetsCachedStatements(ServerVersion.parse("mysql-connector-j-9.5.0 (Revision: x)"))).isFalse();
    assertThat(ConnectorJ.resetsCachedStatements(null)).isFalse();
  }

  @Test
  void aTextApplicationOn8_0_33IsToldToUpgradeFirstAndGetsNoStatementCache() {
    Analysis a = Advisor.analyze(withDriver(1, "mysql-connector-j-8.0.33 (Revision: x)"), TIDB_1);

    assertThat(a.recommendations().get(0).id()).isEqualTo(DriverUpgradeRule.ID);
    Recommendation up = a.recommendations().get(0);
    assertThat(up.severity()).isEqualTo(Severity.HIGH);
    assertThat(up.title()).contains("8.3.0");
    assertThat(up.evidence()).anyMatch(e -> e.contains("Connector/J 8.0.33"))
        .anyMatch(e -> e.contains("Withheld until the upgrade: useServerPrepStmts=true"));
    assertThat(up.change().notes()).anyMatch(n -> n.contains("mysql-connector-j to 8.3.0 or later"));
    assertThat(a.ids()).doesNotContain(TextProtocolRule.ID, StatementCacheRule.ID,
        CloseStmtRule.ID, PlanCacheRule.ID);
    assertThat(a.withheld()).extracting(Withheld::message)
        .anyMatch(m -> m.startsWith("withheld useServerPrepStmts=true: Connector/J 8.0.33")
            && m.endsWith("(need Connector/J 8.3.0 or later; have 8.0.33)"))
        .anyMatch(m -> m.startsWith("withheld the statement cache (cachePrepStmts): Connector/J 8.0.33"));
    // No change the report offers turns the cache on (maxPerformance included: text protocol).
    for (Recommendation r : a.recommendations()) {
      assertThat(r.change().jdbcProperties()).doesNotContainKey("useServerPrepStmts");
    }
    assertThat(Metric.RESETS_PER_EXECUTE.compute(withDriver(1, "8.0.33"))).isNaN();
  }

  @Test
  void theSameApplicationOn9_5_0GetsTheStatementCache() {
    Analysis a = Advisor.analyze(withDriver(1, "mysql-connector-j-9.5.0 (Revision: x)"), TIDB_1);
    assertThat(a.ids()).contains(TextProtocolRule.ID, StatementCacheRule.ID).doesNotContain(DriverUpgradeRule.ID);
    assertThat(a.withheld()).noneMatch(w -> w.because() != null);
  }

  @Test
  void serverPreparesWithoutTheCacheOn8_0_33DoNotGetMaxPerformance() {
    // Scenario 3 has maxPerformance already; take its traffic with server prepares and no cache.
    TrafficProfile p = RulesTest.withProps(withDriver(3, "8.0.33"),
        RulesTest.props("useServerPrepStmts", "true", "cachePrepStmts", "false"));
    Analysis a = Advisor.analyze(p, TIDB_1);
    assertThat(a.recommendations().get(0).id()).isEqualTo(DriverUpgradeRule.ID);
    assertThat(a.ids()).doesNotContain(StatementCacheRule.ID);
    // Until the upgrade the note weighs the text protocol against the plan cache; it does not
    // call the text protocol better (SmallBank on TiDB with 8.0.30: about 10% slower).
    assertThat(a.recommendations().get(0).change().notes())
        .anyMatch(n -> n.contains("useServerPrepStmts=false") && n.contains("weigh the two")
            && n.contains("plan cache") && !n.contains("fewer round trips"));
  }

  @Test
  void withoutADriverVersionTheCacheAdviceSaysWhichDriversMustUpgradeFirst() {
    TrafficProfile agent = withDriver(1, "9.5.0");
    TrafficProfile proxy = withDriver(1, null);
    assertThat(new StatementCacheRule().evaluate(agent, TIDB_1).change().notes())
        .noneMatch(n -> n.contains("recorded no driver version"));
    assertThat(new StatementCacheRule().evaluate(proxy, TIDB_1).change().notes())
        .anyMatch(n -> n.startsWith("The collector recorded no driver version: Connector/J 8.0.x to 8.2.0"));
  }

  @Test
  void withoutADriverVersionTheTrafficTells() {
    TrafficProfile p = BankLikeProfiles.scenario(5);
    TrafficProfile proxy = new TrafficProfile();
    proxy.addSource(new Source(Source.PROXY, "0.1.0", "proxy:6000", null, null, BankLikeProfiles.TIDB_VERSION,
        null, null, null, BankLikeProfiles.START, BankLikeProfiles.START + BankLikeProfiles.WINDOW_MILLIS));
    for (ShapeStats sh : p.shapes().values()) {
      proxy.addShape(sh);
    }
    for (Map.Entry<CommandType, CommandStats> e : p.commands().entrySet()) {
      proxy.addCommand(e.getKey(), e.getValue());
    }
    long executes = p.count(CommandType.STMT_EXECUTE);
    assertThat(new DriverUpgradeRule().evaluate(proxy, TIDB_1)).isNull();

    proxy.addCommand(CommandType.STMT_RESET, new CommandStats(executes - 21, null));
    Recommendation r = new DriverUpgradeRule().evaluate(proxy, TIDB_1);
    assertThat(r).isNotNull();
    assertThat(r.evidence()).anyMatch(e -> e.contains("COM_STMT_RESET for " + Fmt.count(executes)));
    assertThat(r.expectations().get(0).metric()).isEqualTo(Metric.RESETS_PER_EXECUTE);
    assertThat(Advisor.analyze(proxy, TIDB_1).recommendations().get(0).id()).isEqualTo(DriverUpgradeRule.ID);

    // Long data is the legitimate reason for a reset per execution.
    proxy.addCommand(CommandType.STMT_SEND_LONG_DATA, new CommandStats(executes, null));
    assertThat(new DriverUpgradeRule().evaluate(proxy, TIDB_1)).isNull();
  }
}
