package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.TableInfo;
import io.wireadvisor.sql.StatementKind;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 14's judgment: time, evidence minimums, isolation by traffic, the server from the profile. */
class JudgmentTest {
  @Test
  void outlookSplitsProbesOutAndEstimatesTheRoundTripsAfter() {
    TrafficProfile p = BankLikeProfiles.scenario(1);
    Analysis a = Advisor.analyze(p, BankLikeProfiles.tidb(1));
    Outlook o = a.outlook();
    assertThat(o).isNotNull();
    assertThat(o.commandsNow()).containsEntry("probes", p.totalProbes());
    assertThat(o.commandsNow().get("COM_QUERY") + o.commandsNow().get("probes"))
        .isEqualTo(p.count(CommandType.QUERY));
    assertThat(o.serverKind()).isEqualTo(Outlook.ServerKind.TIDB);
    assertThat(o.roundTripsPerStatementNow()).isEqualTo(1.5);
    // After: the reads of session state are gone, text became one EXECUTE each, prepares once.
    assertThat(o.commandsAfter().get("probes")).isEqualTo(p.totalProbes() - 2 * 100_000L);
    assertThat(o.commandsAfter()).containsKey("COM_STMT_EXECUTE");
    assertThat(o.roundTripsPerStatementAfter()).isLessThan(o.roundTripsPerStatementNow());
    assertThat(a.topStatements()).hasSizeLessThanOrEqualTo(Estimates.TOP_STATEMENTS).isNotEmpty();
    assertThat(a.combinedChange().jdbcProperties()).containsEntry("useServerPrepStmts", "true")
        .containsEntry("cachePrepStmts", "true");
  }

  @Test
  void recommendationsAreRankedByTheTimeTheySave() {
    TrafficProfile p = BankLikeProfiles.scenario(1);
    // Give the probes (and nothing else) a measured time: their rule must come first.
    for (ShapeStats s : p.shapes().values()) {
      if (s.probe() != null) {
        Histogram h = new Histogram(Histogram.LATENCY_PRECISION);
        for (int i = 0; i < 1000; i++) {
          h.record(2_000_000); // 2 ms
        }
        s.setLatency(h);
      }
    }
    Analysis a = Advisor.analyze(p, null);
    assertThat(a.ids().get(0)).isEqualTo(SessionProbeRule.ID);
    Saving s = a.recommendation(SessionProbeRule.ID).saving();
    assertThat(s.roundTripsSaved()).isEqualTo(200_000);
    assertThat(s.secondsSaved()).isGreaterThan(0);
    assertThat(s.assumption()).contains("round trips at the time measured");
    assertThat(a.outlook().secondsSaved()).isLessThanOrEqualTo(a.outlook().measuredSeconds());
  }

  @Test
  void theProfilesServerVersionMakesTheAdviceSpeakTiDBWithoutAConnection() {
    Analysis a = Advisor.analyze(BankLikeProfiles.scenario(1), null);
    assertThat(a.outlook().serverKind()).isEqualTo(Outlook.ServerKind.TIDB);
    assertThat(a.recommendation(TextProtocolRule.ID).verify()).contains("tidb_server_query_total")
        .doesNotContain("Com_stmt_execute");
  }

  @Test
  void tableCacheNeedsAWindowReadsAndStatisticsAndDdlIsNoWrite() {
    ServerView tidb7 = BankLikeProfiles.tidb(6);
    // A 5-second window: too short to judge caching at all.
    TrafficProfile shortWindow = withWindow(BankLikeProfiles.scenario(6), 5_000);
    Analysis a = Advisor.analyze(shortWindow, tidb7);
    assertThat(a.recommendation(TableCacheRule.ID)).isNull();
    assertThat(a.withheld()).extracting(Withheld::message)
        .anyMatch(m -> m.startsWith("not enough traffic to judge which tables to cache (need a window of at least 10 s"));

    // A table the server has no statistics for (0 rows) is not advised, whatever it reads.
    ServerView noStats = ServerView.builder(BankLikeProfiles.TIDB_VERSION).isolation("READ-COMMITTED")
        .table(new TableInfo("bank", "branch", 24, 0, false, false, false, false, 0)).build();
    TrafficProfile reads = readsOf("bank.branch", 100_000, StatementKind.SELECT);
    assertThat(new TableCacheRule().evaluate(reads, noStats)).isNull();
    assertThat(new TableCacheRule().withheld(reads, noStats)).extracting(Withheld::message)
        .anyMatch(m -> m.contains("ANALYZE TABLE bank.branch"));

    ServerView analysed = ServerView.builder(BankLikeProfiles.TIDB_VERSION).isolation("READ-COMMITTED")
        .table(new TableInfo("bank", "branch", 8192, 0, false, false, false, false, 100)).build();
    assertThat(new TableCacheRule().evaluate(reads, analysed)).isNotNull();
    // Few reads: withheld, with what it had.
    TrafficProfile few = traffic("bank.branch", 15, StatementKind.SELECT, true, 10_000); // 90/min
    assertThat(new TableCacheRule().evaluate(few, analysed)).isNull();
    assertThat(new TableCacheRule().withheld(few, analysed)).extracting(Withheld::message)
        .anyMatch(m -> m.contains("need at least 20 reads of it") && m.contains("have 15 reads in 0.2"));
    // CREATE TABLE run often (a test suite's set-up) is not a write to the table's data.
    TrafficProfile withDdl = readsOf("bank.branch", 100_000, StatementKind.SELECT);
    withDdl.addAll(writesOf("bank.branch", 10_000, StatementKind.DDL));
    assertThat(new TableCacheRule().evaluate(withDdl, analysed)).isNotNull();
    TrafficProfile withWrites = readsOf("bank.branch", 100_000, StatementKind.SELECT);
    withWrites.addAll(writesOf("bank.branch", 10_000, StatementKind.UPDATE));
    assertThat(new TableCacheRule().evaluate(withWrites, analysed)).isNull();
  }

  /**
   * spring-petclinic-rest on TiDB: the agent's window was the JVM's life (187 s, a 2-minute start-up
   * in it) while the traffic ran 56.5 s; the pets table, written 28 times, looked rarely written.
   * spring-petclinic: pets, written 6.8 times a minute, was advised, and the transactions that
   * inserted a pet then took 1.6 s to commit. A table the traffic writes is never advised; it is
   * named, with its writes, as withheld.
   */
  @Test
  void aTableTheTrafficWritesIsNotCachedAndIsNamedWithItsWrites() {
    ServerView server = ServerView.builder(BankLikeProfiles.TIDB_VERSION).isolation("READ-COMMITTED")
        .table(new TableInfo("petclinic", "pets", 1126, 0, false, false, false, false, 13)).build();
    TrafficProfile jvmLife = traffic("petclinic.pets", 1_119, StatementKind.SELECT, true, 187_065);
    jvmLife.addAll(traffic("petclinic.pets", 28, StatementKind.INSERT, false, 187_065));
    assertThat(new TableCacheRule().evaluate(jvmLife, server)).as("9.0 writes/min over the window").isNull();
    assertThat(new TableCacheRule().withheld(jvmLife, server)).extracting(Withheld::message)
        .anyMatch(m -> m.contains("caching table petclinic.pets") && m.contains("28 writes, 9.0/min")
            && m.contains("tidb_table_cache_lease"));

    TrafficProfile traffic = traffic("petclinic.pets", 1_119, StatementKind.SELECT, true, 187_065);
    traffic.addAll(traffic("petclinic.pets", 28, StatementKind.INSERT, false, 187_065));
    traffic.observeTraffic(130_000, 186_500); // 56.5 s: 29.7 writes/min
    assertThat(traffic.trafficSeconds()).isEqualTo(56.5);
    assertThat(new TableCacheRule().evaluate(traffic, server)).as("written 29.7 times/min").isNull();

    TrafficProfile rarely = traffic("petclinic.pets", 1_119, StatementKind.SELECT, true, 187_065);
    rarely.addAll(traffic("petclinic.pets", 5, StatementKind.INSERT, false, 187_065));
    rarely.observeTraffic(130_000, 186_500);
    assertThat(new TableCacheRule().evaluate(rarely, server)).as("written 5 times").isNull();

    // Read often and never written over the traffic's span: advised, with the span named.
    TrafficProfile readOnly = traffic("petclinic.pets", 1_119, StatementKind.SELECT, true, 187_065);
    readOnly.observeTraffic(130_000, 186_500);
    Recommendation r = new TableCacheRule().evaluate(readOnly, server);
    assertThat(r.title()).isEqualTo("Cache a small table the traffic only reads in TiDB (ALTER TABLE ... CACHE)");
    assertThat(r.evidence().get(0)).startsWith("1 table of at most 64 MiB is read at least 60 times/min and never written")
        .contains("over the 0.9 minutes from the first statement to the last");
    assertThat(new TableCacheRule().withheld(readOnly, server)).isEmpty();
  }

  @Test
  void readCommittedIsJudgedOnTheStatementsNotOnHowManySourcesDisagree() {
    TrafficProfile p = BankLikeProfiles.scenario(5);
    // A migration connection at the server's default beside the READ COMMITTED pool.
    p.addSource(new Source(Source.AGENT, "0.1.0", "app-1:4242", "MySQL Connector/J", "9.5.0",
        BankLikeProfiles.TIDB_VERSION, "REPEATABLE-READ", "jdbc:mysql://tidb:4000/bank",
        Collections.<String, String>emptyMap(), 0, 1));
    ServerView server = BankLikeProfiles.tidb(5);
    assertThat(RcReadCheckRule.isolation(p, server)).isEqualTo("MIXED");
    assertThat(new RcReadCheckRule().evaluate(p, server)).as("by sources alone: silent").isNull();

    p.addStatementsUnder("READ-COMMITTED", 990_000);
    p.addStatementsUnder("REPEATABLE-READ", 10_000);
    Recommendation r = new RcReadCheckRule().evaluate(p, server);
    assertThat(r).as("99% of the statements ran under READ COMMITTED").isNotNull();
    assertThat(r.evidence().get(0)).contains("99.0% of 1,000,000 statements ran under READ-COMMITTED")
        .contains("REPEATABLE-READ 10,000");

    TrafficProfile half = BankLikeProfiles.scenario(5);
    half.addStatementsUnder("READ-COMMITTED", 500_000);
    half.addStatementsUnder("REPEATABLE-READ", 500_000);
    assertThat(new RcReadCheckRule().evaluate(half, server)).isNull();
  }

  @Test
  void theProxysStatementsAtTheLoginDefaultRunUnderTheServersGlobalIsolation() {
    // The proxy counts statements of sessions that never set an isolation as "default".
    TrafficProfile p = BankLikeProfiles.scenario(5);
    p.addStatementsUnder("READ-COMMITTED", 990_000);
    p.addStatementsUnder("default", 10_000);
    ServerView rc = BankLikeProfiles.tidb(5).toBuilder().isolation("READ-COMMITTED").build();
    Recommendation r = new RcReadCheckRule().evaluate(p, rc);
    assertThat(r).as("the default is the server's READ-COMMITTED").isNotNull();
    assertThat(r.evidence().get(0)).contains("100.0% of 1,000,000 statements ran under READ-COMMITTED");

    TrafficProfile atDefault = BankLikeProfiles.scenario(5);
    atDefault.addStatementsUnder("default", 1_000_000);
    assertThat(new RcReadCheckRule().evaluate(atDefault, rc)).isNotNull();
    ServerView rr = rc.toBuilder().isolation("REPEATABLE-READ").build();
    assertThat(new RcReadCheckRule().evaluate(atDefault, rr)).as("the default is REPEATABLE-READ").isNull();
    assertThat(RcReadCheckRule.resolveDefault(atDefault.statementsByIsolation(), null))
        .as("without a server view the default stays unresolved").containsOnlyKeys("default");
  }

  private static TrafficProfile withWindow(TrafficProfile p, long millis) {
    TrafficProfile out = new TrafficProfile();
    for (Source s : p.sources()) {
      out.addSource(new Source(s.collector(), s.collectorVersion(), s.instance(), s.driverName(),
          s.driverVersion(), s.serverVersion(), s.isolation(), s.jdbcUrl(), s.properties(),
          s.startMillis(), s.startMillis() + millis));
    }
    TrafficProfile rest = new TrafficProfile();
    for (Map.Entry<CommandType, CommandStats> e : p.commands().entrySet()) {
      rest.addCommand(e.getKey(), e.getValue());
    }
    for (ShapeStats s : p.shapes().values()) {
      rest.addShape(s);
    }
    out.addAll(rest);
    return out;
  }

  private static TrafficProfile readsOf(String table, long n, StatementKind kind) {
    return traffic(table, n, kind, true, 600_000);
  }

  private static TrafficProfile writesOf(String table, long n, StatementKind kind) {
    return traffic(table, n, kind, false, 600_000);
  }

  private static TrafficProfile traffic(String table, long n, StatementKind kind, boolean read, long windowMillis) {
    TrafficProfile p = new TrafficProfile();
    p.addSource(new Source(Source.PROXY, "0.1.0", "proxy", null, null, BankLikeProfiles.TIDB_VERSION,
        null, null, Collections.<String, String>emptyMap(), 0, windowMillis));
    String text = kind + " " + table + " " + read;
    ShapeStats s = new ShapeStats(String.format("%032x", text.hashCode() & 0xffffffffL), text, kind,
        read ? Collections.singletonList(table) : Collections.<String>emptyList(),
        read ? Collections.<String>emptyList() : Collections.singletonList(table), null, 40, 40);
    s.add(Via.TEXT_EXECUTES, n);
    p.addShape(s);
    p.addCommand(CommandType.QUERY, new CommandStats(n, null));
    return p;
  }
}
