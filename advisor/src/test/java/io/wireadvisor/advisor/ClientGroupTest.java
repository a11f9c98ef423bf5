package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.report.Reports;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Traffic of two clients through one proxy: each judged with its own settings and estimate. */
class ClientGroupTest {
  /** A proxy profile of {@code base}'s traffic, every shape and command attributed to the client. */
  static TrafficProfile attributed(TrafficProfile base, String clientName, String program) {
    TrafficProfile p = ClientSpeechTest.proxied(base, clientName, program);
    String key = p.sources().get(0).clientKey();
    TrafficProfile out = new TrafficProfile();
    out.addSource(p.sources().get(0));
    for (ShapeStats s : p.shapes().values()) {
      ShapeStats c = s.copy();
      for (Via via : Via.values()) {
        c.addClient(key, via, s.count(via));
      }
      out.addShape(c);
    }
    for (Map.Entry<CommandType, CommandStats> e : p.commands().entrySet()) {
      out.addCommand(e.getKey(), e.getValue());
      out.addClientCommands(key, e.getKey(), e.getValue().count());
    }
    for (Map.Entry<io.wireadvisor.sql.ProbeKind, io.wireadvisor.profile.ProbeStats> e :
        p.probes().entrySet()) {
      out.addProbe(e.getKey(), e.getValue());
    }
    return out;
  }

  @Test
  void mixedTrafficIsGroupedByClientEachInItsOwnTerms() throws Exception {
    TrafficProfile jdbc = attributed(BankLikeProfiles.scenario(1), "MySQL Connector/J", null);
    TrafficProfile py = attributed(BankLikeProfiles.scenario(1), "pymysql", null);
    TrafficProfile mixed = jdbc.merge(py);
    assertThat(mixed.attributed()).isTrue();
    // Same statements from both: the shapes are shared, the counters per client tell them apart.
    for (ShapeStats s : mixed.shapes().values()) {
      assertThat(s.clients()).containsOnlyKeys("MySQL Connector/J", "pymysql");
    }
    // The JSON keeps the attribution.
    assertThat(ProfileJson.fromJson(ProfileJson.toJson(mixed))).isEqualTo(mixed);

    Analysis a = Advisor.analyze(mixed, null);
    assertThat(a.groups()).hasSize(2);
    ClientGroup j = a.groups().stream().filter(g -> g.kind() == ClientKind.CONNECTOR_J)
        .findFirst().orElseThrow();
    ClientGroup p = a.groups().stream().filter(g -> g.kind() == ClientKind.PYMYSQL)
        .findFirst().orElseThrow();
    // Each part is exactly the client's traffic: its commands and shapes.
    assertThat(j.profile().totalCommands()).isEqualTo(jdbc.totalCommands());
    assertThat(p.profile().totalCommands()).isEqualTo(py.totalCommands());
    assertThat(j.share()).isEqualTo(0.5);
    for (ShapeStats s : jdbc.shapes().values()) {
      for (Via via : Via.values()) {
        assertThat(j.profile().shape(s.digest()).count(via)).isEqualTo(s.count(via));
      }
    }
    // JDBC lines for the JDBC client; the PyMySQL group none, in any of its words.
    Recommendation jt = j.analysis().recommendation(TextProtocolRule.ID);
    assertThat(jt.change().jdbcProperties()).containsKey("useServerPrepStmts");
    Recommendation pt = p.analysis().recommendation(TextProtocolRule.ID);
    assertThat(pt.change().jdbcProperties()).isEmpty();
    assertThat(String.join("\n", pt.change().clients().values().iterator().next()))
        .contains("PyMySQL has no server-side prepared statements");
    for (Recommendation r : p.analysis().recommendations()) {
      String all = r.title() + r.evidence() + r.change().clients() + r.change().notes()
          + r.expectedEffect() + r.risk() + r.verify();
      for (String word : ClientSpeechTest.JDBC_LINES) {
        assertThat(all).as("%s in %s", word, r.id()).doesNotContain(word);
      }
    }
    // Each group's estimate is its own shapes' saving (equal halves of one traffic here).
    assertThat(j.analysis().outlook().roundTripsPerStatementNow())
        .isEqualTo(Advisor.analyze(jdbc, null).outlook().roundTripsPerStatementNow());
    // Reports group by client.
    String text = Reports.text(a);
    assertThat(text).contains("Recommendations by client", "Client: MySQL Connector/J",
        "Client: PyMySQL (pymysql 1.2.4)");
    int pyAt = text.indexOf("Client: PyMySQL");
    int jAt = text.indexOf("Client: MySQL Connector/J");
    String pySection = pyAt > jAt ? text.substring(pyAt, text.indexOf("\nProfile\n", pyAt))
        : text.substring(pyAt, jAt);
    assertThat(pySection).doesNotContain("useServerPrepStmts", "HikariCP", "spring.datasource");
    assertThat(Reports.markdown(a)).contains("## Client: PyMySQL");
    assertThat(Reports.html(a)).contains("Client: PyMySQL");
    // The first screen's top changes per client too: none of PyMySQL's names a JDBC setting.
    String first = text.substring(0, text.indexOf("Wire commands per business statement"));
    String pyTop = first.substring(first.indexOf("Top changes for PyMySQL:"));
    pyTop = pyTop.contains("Top changes for MySQL")
        ? pyTop.substring(0, pyTop.indexOf("Top changes for MySQL")) : pyTop;
    assertThat(pyTop).contains("1. [").doesNotContain("cachePrepStmts", "useServerPrepStmts");
    assertThat(first).contains("Top changes for MySQL Connector/J:");
    // One element per recommendation and client in the HTML: no id twice.
    String html = Reports.html(a);
    assertThat(html).contains("id=\"pymysql-server-prepared-statements\"",
        "id=\"connector_j-server-prepared-statements\"")
        .doesNotContain("id=\"server-prepared-statements\"");
    assertThat(Reports.json(a)).contains("\"byClient\"", "\"kind\" : \"PYMYSQL\"");
  }

  @Test
  void connectorJsSqlLimitIsShownForJdbcShapesOnly() {
    TrafficProfile jdbc = attributed(BankLikeProfiles.scenario(1), "MySQL Connector/J", null);
    TrafficProfile py = attributed(BankLikeProfiles.scenario(1), "pymysql", null);
    Analysis pa = Advisor.analyze(py, null);
    assertThat(pa.topStatements()).isNotEmpty()
        .allMatch(t -> !t.hasSqlLimit() && !t.aboveSqlLimit());
    assertThat(Reports.text(pa)).doesNotContain("length/limit").doesNotContain("/256");
    assertThat(Reports.markdown(pa)).doesNotContain("length / limit").doesNotContain("/ 256");
    assertThat(Reports.html(pa)).doesNotContain("length / limit");
    assertThat(Reports.json(pa)).doesNotContain("sqlLimit");
    Analysis ja = Advisor.analyze(jdbc, null);
    assertThat(ja.topStatements()).allMatch(t -> t.sqlLimit() == 256);
    assertThat(Reports.text(ja)).contains("length/limit");
    // Mixed: the whole table marks the limit on the shapes a JDBC client sent.
    Analysis mixed = Advisor.analyze(
        attributed(BankLikeProfiles.scenario(1), "MySQL Connector/J", null)
            .merge(attributed(BankLikeProfiles.scenario(2), "pymysql", null)), null);
    for (ClientGroup g : mixed.groups()) {
      assertThat(g.analysis().topStatements())
          .allMatch(t -> t.hasSqlLimit() == g.kind().jdbc());
    }
  }

  @Test
  void diffComparesEachClientWithItself() throws Exception {
    TrafficProfile before = attributed(BankLikeProfiles.scenario(1), "MySQL Connector/J", null)
        .merge(attributed(BankLikeProfiles.scenario(1), "pymysql", null));
    // The JDBC application took its advice; the Python one could not (no server-side prepares).
    TrafficProfile after = attributed(BankLikeProfiles.scenario(5), "MySQL Connector/J", null)
        .merge(attributed(BankLikeProfiles.scenario(1), "pymysql", null));
    Comparison c = Comparison.of(before, after, null);
    assertThat(c.clients()).extracting(Comparison.ClientDiff::kind)
        .containsExactlyInAnyOrder(ClientKind.CONNECTOR_J, ClientKind.PYMYSQL);
    Comparison.ClientDiff j = c.clients().stream()
        .filter(d -> d.kind() == ClientKind.CONNECTOR_J).findFirst().orElseThrow();
    Comparison.ClientDiff p = c.clients().stream()
        .filter(d -> d.kind() == ClientKind.PYMYSQL).findFirst().orElseThrow();
    // The JDBC expectations are checked on the JDBC traffic alone: met; compared whole, the
    // Python client's unchanged text statements would have been counted against them.
    assertThat(j.comparison().items()).isNotEmpty();
    assertThat(j.comparison().allMet()).isTrue();
    Comparison whole = Comparison.of(
        ClientSpeechTest.proxied(BankLikeProfiles.scenario(1), "MySQL Connector/J", null)
            .merge(ClientSpeechTest.proxied(BankLikeProfiles.scenario(1), "pymysql", null)),
        ClientSpeechTest.proxied(BankLikeProfiles.scenario(5), "MySQL Connector/J", null)
            .merge(ClientSpeechTest.proxied(BankLikeProfiles.scenario(1), "pymysql", null)), null);
    assertThat(whole.clients()).isEmpty();
    assertThat(whole.allMet()).isFalse();
    // Unchanged Python traffic: its own expectations are not met, and say so under its name.
    assertThat(p.comparison().allMet()).isFalse();
    assertThat(c.items()).hasSize(j.comparison().items().size() + p.comparison().items().size());
    String text = Reports.text(c);
    java.nio.file.Files.writeString(java.nio.file.Path.of("target", "client-diff.txt"),
        text + "\n----\n" + Reports.text(Comparison.of(before,
            attributed(BankLikeProfiles.scenario(5), "MySQL Connector/J", null), null)));
    assertThat(text).contains("Client: MySQL Connector/J", "Client: PyMySQL (pymysql 1.2.4)");
    assertThat(Reports.json(c.before())).isNotEmpty();

    // A client in one profile only is named, not compared.
    Comparison gone = Comparison.of(before,
        attributed(BankLikeProfiles.scenario(5), "MySQL Connector/J", null), null);
    Comparison.ClientDiff py = gone.clients().stream()
        .filter(d -> d.kind() == ClientKind.PYMYSQL).findFirst().orElseThrow();
    assertThat(py.comparison()).isNull();
    assertThat(py.onlyIn()).isEqualTo("before");
    assertThat(Reports.text(gone)).contains("In the before profile only");
  }

  @Test
  void oneClientChangesNothingVisibly() {
    TrafficProfile py = attributed(BankLikeProfiles.scenario(1), "pymysql", null);
    Analysis a = Advisor.analyze(py, null);
    assertThat(a.groups()).isEmpty();
    assertThat(Reports.text(a)).doesNotContain("by client").contains("Recommendations, most time");
    assertThat(Reports.text(a))
        .isEqualTo(Reports.text(Advisor.analyze(
            ClientSpeechTest.proxied(BankLikeProfiles.scenario(1), "pymysql", null), null)));
  }

  @Test
  void unattributedMixedTrafficIsJudgedAsOneAsBefore() {
    TrafficProfile a = ClientSpeechTest.proxied(BankLikeProfiles.scenario(1), "MySQL Connector/J", null);
    TrafficProfile b = ClientSpeechTest.proxied(BankLikeProfiles.scenario(1), "pymysql", null);
    TrafficProfile mixed = a.merge(b);
    assertThat(mixed.attributed()).isFalse();
    assertThat(Advisor.analyze(mixed, null).groups()).isEmpty();
  }

  @Test
  void clientCountersAreBoundedPerShapeAndPerProfile() {
    ShapeStats s = BankLikeProfiles.scenario(1).shapes().values().iterator().next().copy();
    TrafficProfile p = new TrafficProfile();
    for (int i = 0; i < 40; i++) {
      s.addClient("client-" + i, Via.TEXT_EXECUTES, 1);
      p.addClientCommands("client-" + i, CommandType.QUERY, 1);
    }
    assertThat(s.clients()).hasSize(ShapeStats.MAX_CLIENTS).containsKey(ShapeStats.OTHER_CLIENTS);
    assertThat(p.commandsByClient()).hasSize(ShapeStats.MAX_CLIENTS);
    long sum = 0;
    for (long[] c : s.clients().values()) {
      sum += c[Via.TEXT_EXECUTES.ordinal()];
    }
    assertThat(sum).isEqualTo(40); // folded, never lost
    List<String> keys = List.copyOf(s.clients().keySet());
    assertThat(keys).allMatch(k -> k.length() <= 160);
  }
}
