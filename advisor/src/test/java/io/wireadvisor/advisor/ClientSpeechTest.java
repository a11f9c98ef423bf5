package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.Reports;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientSpeechTest {
  /** What a JDBC user pastes: none of it may reach another client's report. */
  static final List<String> JDBC_LINES =
      List.of("useServerPrepStmts", "cachePrepStmts", "prepStmtCache", "dataSource.",
          "spring.datasource", "HikariCP", "JDBC URL", "Connector/J", " PreparedStatement", "useConfigs", "maxPerformance");

  @Test
  void eachClientGetsItsOwnTermsForTextStatementsAndNoJdbcLine() {
    Object[][] clients = {
      {"Go-MySQL-Driver", null, ClientKind.GO_SQL_DRIVER, "interpolateParams=false"},
      {"pymysql", null, ClientKind.PYMYSQL, "PyMySQL has no server-side prepared statements"},
      {"Node-MySQL-2", null, ClientKind.NODE_MYSQL2, "connection.execute(sql, values)"},
      {"mysqlnd", null, ClientKind.PHP_MYSQLND, "PDO::ATTR_EMULATE_PREPARES => false"},
      {"libmariadb", null, ClientKind.C_API, "mysql_stmt_prepare"},
      {"libmariadb", "mysql", ClientKind.MYSQL_CLI, "PREPARE s FROM"},
      {null, null, ClientKind.UNKNOWN, "sent no connection attributes"},
      {"some-new-driver", null, ClientKind.UNKNOWN, "sent no connection attributes"},
    };
    for (Object[] c : clients) {
      TrafficProfile p = proxied(BankLikeProfiles.scenario(1), (String) c[0], (String) c[1]);
      ClientKind kind = (ClientKind) c[2];
      assertThat(Clients.of(p).kinds()).containsExactly(kind);
      Analysis a = Advisor.analyze(p, null);
      Recommendation r = a.recommendation(TextProtocolRule.ID);
      assertThat(r).as("%s", c[0]).isNotNull();
      assertThat(r.change().jdbcProperties()).isEmpty();
      String label = Clients.of(p).label(kind);
      assertThat(r.change().clients()).containsKey(label);
      assertThat(String.join("\n", r.change().clients().get(label))).contains((String) c[3]);
      // TiDB: the server-side change for any client.
      assertThat(r.change().sql()).contains("SET GLOBAL tidb_enable_non_prepared_plan_cache = ON;");
      for (String report :
          List.of(Reports.text(a), Reports.markdown(a), Reports.html(a), Reports.json(a))) {
        for (String jdbc : JDBC_LINES) {
          assertThat(report).as("%s report of %s", jdbc, c[0]).doesNotContain(jdbc);
        }
        assertThat(report).contains(kind.label());
      }
      for (Recommendation any : a.recommendations()) {
        assertThat(any.change().poolSettings()).isEmpty();
        assertThat(any.change().hibernateProperties()).isEmpty();
      }
    }
  }

  @Test
  void clientsThatCannotPrepareAreNotToldToCacheStatements() {
    for (String[] c : new String[][] {{"pymysql", null}, {"libmariadb", "mysql"}}) {
      Analysis a = Advisor.analyze(proxied(BankLikeProfiles.scenario(1), c[0], c[1]), null);
      assertThat(a.ids()).contains(TextProtocolRule.ID).doesNotContain(StatementCacheRule.ID);
      assertThat(a.recommendation(TextProtocolRule.ID).change().notes())
          .noneMatch(n -> n.contains(StatementCacheRule.ID));
      Recommendation probes = a.recommendation(SessionProbeRule.ID);
      assertThat(probes.expectedEffect()).doesNotContain("getTransactionIsolation").isNotEmpty();
      assertThat(probes.risk()).isNotEmpty();
    }
    Analysis go = Advisor.analyze(proxied(BankLikeProfiles.scenario(1), "Go-MySQL-Driver", null), null);
    assertThat(go.ids()).contains(TextProtocolRule.ID, StatementCacheRule.ID);
  }

  @Test
  void preparingEveryExecutionIsToldPerClient() {
    Map<String, String> expected = new HashMap<>();
    expected.put("Go-MySQL-Driver", "db.Prepare");
    expected.put("Node-MySQL-2", "connection.unprepare()");
    expected.put("mysqlnd", "keep the statement object");
    expected.put("libmariadb", "mysql_stmt_execute on it again");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      TrafficProfile p = proxied(BankLikeProfiles.scenario(3), e.getKey(), null);
      Analysis a = Advisor.analyze(p, null);
      Recommendation r = a.recommendation(StatementCacheRule.ID);
      assertThat(r).as(e.getKey()).isNotNull();
      assertThat(r.title()).doesNotContain("cachePrepStmts");
      assertThat(r.change().jdbcProperties()).isEmpty();
      assertThat(r.change().clients().values().iterator().next().toString()).contains(e.getValue());
      assertThat(Reports.text(a)).doesNotContain("prepStmtCacheSize").doesNotContain("dataSource.");
    }
  }

  @Test
  void connectorJThroughTheProxyKeepsItsJdbcLinesUnchanged() {
    TrafficProfile agent = BankLikeProfiles.scenario(1);
    TrafficProfile proxied = proxied(agent, "MySQL Connector/J", null);
    Analysis viaAgent = Advisor.analyze(agent, null);
    Analysis viaProxy = Advisor.analyze(proxied, null);
    Recommendation r = viaProxy.recommendation(TextProtocolRule.ID);
    assertThat(r.change().jdbcProperties()).containsEntry("useServerPrepStmts", "true");
    assertThat(r.change().clients()).isEmpty();
    assertThat(r.change().notes())
        .isEqualTo(viaAgent.recommendation(TextProtocolRule.ID).change().notes());
    assertThat(Reports.text(viaProxy)).contains("dataSource.useServerPrepStmts=true");
    assertThat(viaProxy.ids()).isEqualTo(viaAgent.ids());
  }

  @Test
  void mixedTrafficNamesEveryClientInTheChange() {
    TrafficProfile p = proxied(BankLikeProfiles.scenario(1), "pymysql", null);
    p.addSource(BankLikeProfiles.scenario(1).sources().get(0)); // and a Connector/J agent
    Analysis a = Advisor.analyze(p, null);
    Recommendation r = a.recommendation(TextProtocolRule.ID);
    assertThat(r.change().jdbcProperties()).containsEntry("useServerPrepStmts", "true");
    assertThat(r.change().clients().keySet())
        .anySatisfy(k -> assertThat(k).startsWith("MySQL Connector/J"))
        .anySatisfy(k -> assertThat(k).startsWith("PyMySQL (pymysql 1.2.4)"));
    String text = Reports.text(a);
    assertThat(text).contains("For PyMySQL (pymysql 1.2.4):").contains("For MySQL Connector/J")
        .contains("useServerPrepStmts=true");
  }

  @Test
  void labelsAreBoundedAndMasked() {
    TrafficProfile p = new TrafficProfile();
    for (int i = 0; i < 10; i++) {
      p.addSource(new Source(Source.PROXY, "0.1.0", "proxy", "pymysql", "1." + i,
          BankLikeProfiles.TIDB_VERSION, null, null,
          Map.of("program_name", "app password=s3cret"), 0, 1));
    }
    String label = Clients.of(p).label(ClientKind.PYMYSQL);
    assertThat(label).contains("pymysql 1.0").contains("…").doesNotContain("s3cret")
        .doesNotContain("1.9");
  }

  /** {@code base}'s traffic as a proxy saw it from one client. */
  static TrafficProfile proxied(TrafficProfile base, String clientName, String program) {
    TrafficProfile p = new TrafficProfile();
    Source s = base.sources().get(0);
    Map<String, String> attrs = program == null
        ? Collections.<String, String>emptyMap()
        : Collections.singletonMap("program_name", program);
    p.addSource(new Source(Source.PROXY, "0.1.0", "127.0.0.1:4001", clientName,
        clientName == null ? null : "pymysql".equals(clientName) ? "1.2.4" : "1.0",
        s.serverVersion(), null, null, attrs, s.startMillis(), s.endMillis()));
    TrafficProfile copy = new TrafficProfile();
    copy.addAll(base);
    for (ShapeStats sh : copy.shapes().values()) {
      p.addShape(sh);
    }
    for (Map.Entry<CommandType, CommandStats> e : copy.commands().entrySet()) {
      p.addCommand(e.getKey(), e.getValue());
    }
    for (Map.Entry<ProbeKind, ProbeStats> e : copy.probes().entrySet()) {
      p.addProbe(e.getKey(), e.getValue());
    }
    return p;
  }
}
