package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A profile with every field the schema has, written and read back: equal, and written to the
 * same bytes as {@code rich-profile.json} (the file this test wrote before the writer and reader
 * were split), so the format stays the one older and newer readers share.
 */
class ProfileJsonRoundTripTest {

  static TrafficProfile rich() {
    TrafficProfile p = new TrafficProfile();
    p.addSource(new Source(Source.AGENT, "0.1.0", "app-1:101", "MySQL Connector/J", "9.5.0",
        "8.0.11-TiDB-v8.5.3", "READ-COMMITTED", "jdbc:mysql://db:4000/bank?cachePrepStmts=true",
        Map.of("cachePrepStmts", "true", "program_name", "bank"), 1_795_693_200_000L,
        1_795_693_260_000L));
    p.addSource(new Source(Source.PROXY, null, null, null, null, null, null, null, Map.of(),
        1_795_693_210_000L, 1_795_693_250_000L));

    Histogram latency = new Histogram(Histogram.LATENCY_PRECISION);
    for (long v : new long[] {900, 12_000, 12_500, 480_000, 3_100_000}) {
      latency.record(v);
    }
    p.addCommand(CommandType.QUERY, new CommandStats(1234, latency.copy()));
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(77, null));
    p.addClientCommands("MySQL Connector/J", CommandType.QUERY, 1200);
    p.addClientCommands(Source.clientKey("pymysql", "etl"), CommandType.QUERY, 34);
    p.addClientCommands(Source.clientKey("pymysql", "etl"), CommandType.PING, 3);

    ShapeStats select = new ShapeStats("d1", "select * from account where id = ?",
        StatementKind.SELECT, List.of("account"), List.of(), null, 0, 0);
    select.observeSqlLength(38);
    select.observeSqlLength(41);
    select.setSample("select * from account where id = 7");
    select.markLockingRead();
    select.add(Via.TEXT_EXECUTES, 900);
    select.add(Via.EXECUTES, 60);
    select.add(Via.ERRORS, 3);
    select.addClient("MySQL Connector/J", Via.TEXT_EXECUTES, 880);
    select.addClient(Source.clientKey("pymysql", "etl"), Via.TEXT_EXECUTES, 20);
    select.setLatency(latency.copy());
    select.addRows(960, 1020);
    select.addPattern(PatternStats.Kind.N_PLUS_ONE, "", 12, 48, 48, 40, 1_200_000);
    select.addError(1213, "40001", 2, 2, 9_000_000);
    select.addError(1205, null, 1, 0, 0);
    p.addShape(select);

    ShapeStats update = new ShapeStats("d2", "update account set balance = ? where id = ?",
        StatementKind.UPDATE, List.of(), List.of("account"), null, 0, 0);
    update.observeSqlLength(60);
    update.add(Via.PREPARES, 5);
    update.add(Via.BATCHES, 2);
    update.add(Via.BATCHED_STATEMENTS, 200);
    update.addPattern(PatternStats.Kind.INSERT_THEN_UPDATE, "d3", 4, 4, 4, 4, 80_000);
    p.addShape(update);

    ShapeStats probe = new ShapeStats("d4", "select @@session.transaction_isolation",
        StatementKind.SELECT, List.of(), List.of(), ProbeKind.ISOLATION_READ, 0, 0);
    probe.observeSqlLength(38);
    probe.add(Via.TEXT_EXECUTES, 250);
    p.addShape(probe);

    ProbeStats isolation = new ProbeStats();
    isolation.add(250);
    isolation.addCause("getTransactionIsolation", 200);
    isolation.addCause("hikari.reset", 50);
    p.addProbe(ProbeKind.ISOLATION_READ, isolation);

    long[] connection = new long[ConnectionMetric.values().length];
    for (int i = 0; i < connection.length; i++) {
      connection[i] = 10L * (i + 1);
    }
    p.connections().recordConnection(connection);
    p.connections().recordConnection(connection);

    p.addTransactions(40);
    p.addStatementsUnder("READ-COMMITTED", 990);
    p.addStatementsUnder("unknown", 10);
    p.observeTraffic(1_795_693_200_500L, 1_795_693_256_500L);
    return p;
  }

  private static String golden() throws Exception {
    try (InputStream in = ProfileJsonRoundTripTest.class.getResourceAsStream("rich-profile.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void everyFieldRoundTripsThroughTextStreamAndFile(@TempDir Path dir) throws Exception {
    TrafficProfile p = rich();
    String json = ProfileJson.toJson(p);
    for (String field : List.of("\"sample\"", "\"lockingRead\"", "\"clients\"", "\"rows\"",
        "\"patterns\"", "\"errors\"", "\"sqlState\"", "\"commandsByClient\"", "\"transactions\"",
        "\"statementsByIsolation\"", "\"traffic\"", "\"causes\"", "\"distributions\"",
        "\"latencyNanos\"", "\"properties\"")) {
      assertThat(json).as("the rich profile writes %s", field).contains(field);
    }
    assertThat(ProfileJson.fromJson(json)).isEqualTo(p);
    assertThat(ProfileJson.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))))
        .isEqualTo(p);
    Path file = dir.resolve("p.json");
    ProfileJson.writeFile(p, file);
    assertThat(ProfileJson.readFile(file)).isEqualTo(p);
    assertThat(ProfileJson.toJson(ProfileJson.readFile(file))).isEqualTo(json);
  }

  @Test
  void theFormatIsTheOneWrittenBeforeTheSplit() throws Exception {
    String before = golden();
    assertThat(ProfileJson.toJson(rich())).isEqualTo(before);
    assertThat(ProfileJson.fromJson(before)).isEqualTo(rich());
  }
}
