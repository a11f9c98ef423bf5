package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.TableInfo;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Synthetic profiles of the bank-like OLTP workload of TiDB's seven-scenario study (facts §1): 200
 * statement shapes (180 SELECT, 20 writes), 60 tables of which 12 are written and 48 read-only and
 * small, READ COMMITTED, most SQL longer than 256 chars; one profile per scenario, with the server
 * view each scenario leaves behind.
 */
final class BankLikeProfiles {
  static final String TIDB_VERSION = "8.0.11-TiDB-v8.5.3";
  static final String MARIADB_VERSION = "11.4.5-MariaDB";
  static final int TABLES = 60;
  static final int WRITTEN_TABLES = 12;
  static final int SELECT_SHAPES = 180;
  static final int WRITE_SHAPES = 20;
  static final long EXECUTIONS_PER_SHAPE = 5_000;
  static final long TRANSACTIONS = 100_000;
  static final int CONNECTIONS = 50;
  /** Distinct statements per connection range over 70..85: p99 is 85. */
  static final int MAX_SHAPES_PER_CONNECTION = 85;
  /** The longest SQL of any shape. */
  static final int LONGEST_SQL = 1_800;
  /** Shapes shorter than Connector/J's default prepStmtCacheSqlLimit (256). */
  static final int SHORT_SHAPES = 20;
  static final long WINDOW_MILLIS = 600_000;
  static final long START = 1_700_000_000_000L;

  private BankLikeProfiles() {}

  static String table(int i) {
    return String.format("t%02d", i);
  }

  /** The 48 tables no statement writes. */
  static List<String> readOnlyTables() {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (int i = WRITTEN_TABLES; i < TABLES; i++) {
      names.add("bank." + table(i));
    }
    return names;
  }

  /** SQL length of shape {@code i}: the first SHORT_SHAPES short, the rest 300..1800. */
  static int sqlLength(int i) {
    if (i < SHORT_SHAPES) {
      return 120 + i;
    }
    return 300 + (int) ((long) (i - SHORT_SHAPES) * (LONGEST_SQL - 300) / (SELECT_SHAPES + WRITE_SHAPES - SHORT_SHAPES - 1));
  }

  /** The JDBC properties in effect in a scenario (1..7), as the agent records them. */
  static Map<String, String> properties(int scenario) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("useServerPrepStmts", scenario >= 3 ? "true" : "false");
    if (scenario >= 2) {
      p.put("useConfigs", "maxPerformance");
    }
    if (scenario >= 5) {
      p.put("cachePrepStmts", "true");
      p.put("prepStmtCacheSize", "1000");
      p.put("prepStmtCacheSqlLimit", "20480");
    }
    p.put("rewriteBatchedStatements", "false");
    return p;
  }

  /** The traffic of a scenario (1..7) with the study's settings. */
  static TrafficProfile scenario(int scenario) {
    return profile(properties(scenario), scenario >= 3, scenario >= 5 ? 20480 : 256,
        scenario >= 5 ? 1000 : 25, scenario == 1);
  }

  /**
   * Traffic under given settings.
   *
   * @param prepared useServerPrepStmts in effect
   * @param sqlLimit effective prepStmtCacheSqlLimit (with cachePrepStmts on)
   * @param cacheSize effective prepStmtCacheSize
   * @param probes session probes sent (no useLocalSessionState)
   */
  static TrafficProfile profile(
      Map<String, String> properties, boolean prepared, int sqlLimit, int cacheSize,
      boolean probes) {
    TrafficProfile p = new TrafficProfile();
    p.addSource(
        new Source(Source.AGENT, "0.1.0", "app-1:4242", "MySQL Connector/J",
            "mysql-connector-j-9.5.0 (Revision: abc)", TIDB_VERSION, "READ-COMMITTED",
            "jdbc:mysql://tidb:4000/bank", properties, START, START + WINDOW_MILLIS));
    EnumMap<CommandType, Long> commands = new EnumMap<>(CommandType.class);
    int shapes = SELECT_SHAPES + WRITE_SHAPES;
    for (int i = 0; i < shapes; i++) {
      boolean select = i < SELECT_SHAPES;
      int len = sqlLength(i);
      String t = "bank." + table(select ? WRITTEN_TABLES + (i % (TABLES - WRITTEN_TABLES)) : i % WRITTEN_TABLES);
      // Some SELECTs also join a written table: they read both.
      List<String> read = select
          ? (i % 3 == 0 ? java.util.Arrays.asList(t, "bank." + table(i % WRITTEN_TABLES)) : java.util.Collections.singletonList(t))
          : java.util.Collections.<String>emptyList();
      List<String> written = select ? java.util.Collections.<String>emptyList() : java.util.Collections.singletonList(t);
      StatementKind kind = select ? StatementKind.SELECT : (i % 2 == 0 ? StatementKind.UPDATE : StatementKind.INSERT);
      String text = (select ? "select " : kind == StatementKind.UPDATE ? "update " : "insert into ")
          + t + " /* shape " + i + " */";
      ShapeStats s = new ShapeStats(String.format("%032x", i + 1), text, kind, read, written, null, len - 10, len);
      long n = EXECUTIONS_PER_SHAPE;
      if (!prepared) {
        s.add(Via.TEXT_EXECUTES, n);
        add(commands, CommandType.QUERY, n);
      } else {
        s.add(Via.EXECUTES, n);
        add(commands, CommandType.STMT_EXECUTE, n);
        boolean cached = len < sqlLimit && cacheSize >= MAX_SHAPES_PER_CONNECTION
            || len < sqlLimit && i < SHORT_SHAPES;
        // Cached: prepared once per connection that uses it (about 21 of 50); else every time.
        long prepares = cached ? 21 : n;
        long closes = cached ? 0 : n;
        s.add(Via.PREPARES, prepares);
        s.add(Via.CLOSES, closes);
        add(commands, CommandType.STMT_PREPARE, prepares);
        add(commands, CommandType.STMT_CLOSE, closes);
      }
      p.addShape(s);
    }
    // Transaction control: commit() is text in every scenario.
    ShapeStats commit = new ShapeStats("c0mm1t00000000000000000000000000", "commit", StatementKind.COMMIT,
        null, null, null, 6, 6);
    commit.add(Via.TEXT_EXECUTES, TRANSACTIONS);
    p.addShape(commit);
    add(commands, CommandType.QUERY, TRANSACTIONS);
    if (probes) {
      probe(p, commands, ProbeKind.ISOLATION_READ, "getTransactionIsolation", TRANSACTIONS);
      probe(p, commands, ProbeKind.READ_ONLY_READ, "isReadOnly", TRANSACTIONS);
      probe(p, commands, ProbeKind.AUTOCOMMIT_SET, "setAutoCommit", 2 * TRANSACTIONS);
    }
    for (Map.Entry<CommandType, Long> e : commands.entrySet()) {
      p.addCommand(e.getKey(), new CommandStats(e.getValue(), null));
    }
    for (int c = 0; c < CONNECTIONS; c++) {
      long[] v = new long[ConnectionMetric.values().length];
      long distinct = 70 + (c % 16);
      v[ConnectionMetric.DISTINCT_SHAPES.ordinal()] = distinct;
      v[ConnectionMetric.DISTINCT_PREPARED_SHAPES.ordinal()] = prepared ? distinct : 0;
      v[ConnectionMetric.PREPARED_STATEMENTS.ordinal()] = prepared ? distinct * 10 : 0;
      v[ConnectionMetric.COMMANDS.ordinal()] = 30_000;
      v[ConnectionMetric.LIFETIME_MILLIS.ordinal()] = WINDOW_MILLIS;
      p.connections().recordConnection(v);
    }
    return p;
  }

  private static void probe(TrafficProfile p, EnumMap<CommandType, Long> commands, ProbeKind kind,
      String cause, long n) {
    ProbeStats stats = new ProbeStats();
    stats.add(n);
    stats.addCause(cause, n);
    p.addProbe(kind, stats);
    ShapeStats s = new ShapeStats(String.format("%032x", 1000 + kind.ordinal()),
        "select @@session." + kind.name().toLowerCase(), StatementKind.SELECT, null, null, kind, 30, 30);
    s.add(Via.TEXT_EXECUTES, n);
    p.addShape(s);
    add(commands, CommandType.QUERY, n);
  }

  private static void add(EnumMap<CommandType, Long> m, CommandType t, long n) {
    Long old = m.get(t);
    m.put(t, old == null ? n : old + n);
  }

  /** The TiDB server as a scenario (1..7) leaves it. */
  static ServerView tidb(int scenario) {
    ServerView.Builder b = ServerView.builder(TIDB_VERSION)
        .defaultSchema("bank")
        .isolation("READ-COMMITTED")
        .global("tidb_enable_prepared_plan_cache", "ON")
        .global("tidb_session_plan_cache_size", "100")
        .global("tidb_ignore_prepared_cache_close_stmt", scenario >= 4 ? "ON" : "OFF")
        .global("tidb_rc_read_check_ts", scenario >= 6 ? "ON" : "OFF")
        .global("tidb_replica_read", "leader")
        .global("transaction_isolation", "READ-COMMITTED");
    for (int i = 0; i < TABLES; i++) {
      boolean written = i < WRITTEN_TABLES;
      long data = written ? (i + 1) * 512L << 20 : (1 + i % 6) * 1L << 20;
      b.table(new TableInfo("bank", table(i), data, data / 4, false, false, false,
          !written && scenario >= 7));
    }
    return b.build();
  }

  /** The same tables on MariaDB (no TiDB variables). */
  static ServerView mariadb() {
    ServerView.Builder b = ServerView.builder(MARIADB_VERSION).defaultSchema("bank")
        .isolation("READ-COMMITTED").global("transaction_isolation", "READ-COMMITTED");
    for (int i = 0; i < TABLES; i++) {
      b.table(TableInfo.table("bank", table(i), 1L << 20, 0));
    }
    return b.build();
  }
}
