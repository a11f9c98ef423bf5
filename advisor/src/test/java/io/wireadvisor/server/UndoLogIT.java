package io.wireadvisor.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerKind;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One server change with its undo, on the real server: globals of every kind (boolean, number,
 * decimal, enum, string) set through {@link UndoLog#setGlobal}, read back changed, then restored
 * and read back as they were. The quoting it relies on is what these servers were measured to
 * take (see {@code SqlText.settingValue}); {@link #theServerRefusesWhatTheQuotingAvoids} keeps
 * those measurements.
 */
@RealDatabase
class UndoLogIT {
  private static String global(Statement s, String name) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL." + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** Same setting: equal ignoring case, equal numbers ({@code 10} and {@code 10.000000}), or ON and 1. */
  private static boolean same(String a, String b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.equalsIgnoreCase(b)) {
      return true;
    }
    String x = a.equalsIgnoreCase("ON") ? "1" : a.equalsIgnoreCase("OFF") ? "0" : a;
    String y = b.equalsIgnoreCase("ON") ? "1" : b.equalsIgnoreCase("OFF") ? "0" : b;
    try {
      return new BigDecimal(x).compareTo(new BigDecimal(y)) == 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  @Test
  void everyKindOfGlobalIsChangedAndPutBack(DatabaseServer server) throws Exception {
    try (Connection c = server.connect(null, null); Statement s = c.createStatement()) {
      long prepared = Long.parseLong(global(s, "max_prepared_stmt_count"));
      Map<String, String> changes = new LinkedHashMap<>();
      changes.put("log_bin_trust_function_creators", "0".equals(global(s, "log_bin_trust_function_creators")) ? "ON" : "OFF");
      changes.put("max_prepared_stmt_count", String.valueOf(prepared < 0 ? 100_000 : prepared - 1));
      changes.put("long_query_time", "5.5");
      changes.put("transaction_isolation", "READ-COMMITTED");
      if (server.isTiDB()) {
        changes.put("tidb_enable_noop_functions", "WARN");
      } else {
        changes.put("concurrent_insert", "ALWAYS");
      }
      changes.put("init_connect", "SET @wire_advisor_undo = 'it''s'");
      Map<String, String> before = new LinkedHashMap<>();
      for (String name : changes.keySet()) {
        before.put(name, global(s, name));
      }

      UndoLog undo = new UndoLog();
      for (Map.Entry<String, String> e : changes.entrySet()) {
        UndoLog.Global done = undo.setGlobal(s, e.getKey(), e.getValue());
        assertThat(done.changed()).as(e.getKey()).isTrue();
        assertThat(done.previous()).as(e.getKey()).isEqualTo(before.get(e.getKey()));
      }
      for (Map.Entry<String, String> e : changes.entrySet()) {
        assertThat(same(global(s, e.getKey()), e.getValue()))
            .as(e.getKey() + " = " + global(s, e.getKey()) + ", set " + e.getValue()).isTrue();
      }
      UndoLog.Global already = undo.setGlobal(s, "transaction_isolation", "read-committed");
      assertThat(already.changed()).as("already so: nothing to run or undo").isFalse();
      assertThat(already.toString()).isEqualTo("SET GLOBAL transaction_isolation = read-committed (already READ-COMMITTED)");
      String flag = changes.get("log_bin_trust_function_creators");
      assertThat(global(s, "log_bin_trust_function_creators")).as("read back as a number").isIn("0", "1");
      assertThat(undo.setGlobal(s, "log_bin_trust_function_creators", flag.toLowerCase(java.util.Locale.ROOT)).changed())
          .as(flag + " is what the server reads back as " + global(s, "log_bin_trust_function_creators")).isFalse();

      assertThat(undo.restore(() -> server.connect(null, null))).isEmpty();
      for (Map.Entry<String, String> e : before.entrySet()) {
        assertThat(same(global(s, e.getKey()), e.getValue()))
            .as(e.getKey() + " = " + global(s, e.getKey()) + ", was " + e.getValue()).isTrue();
      }
      assertThat(undo.isEmpty()).isTrue();
      assertThat(undo.restore(() -> server.connect(null, null))).as("restoring twice").isEmpty();
    }
  }

  /**
   * A string variable holding digits: MariaDB refuses {@code init_connect = 100} (1232) and takes
   * {@code '100'}; the change falls back to the quoted form, and so does its undo, checked before
   * the change. (TiDB refuses an init_connect that is not a statement, quoted or not.)
   */
  @Test
  void aStringOfDigitsIsQuotedBothWays(DatabaseServer server) throws Exception {
    assumeTrue(server.kind() == ServerKind.MARIADB, "MariaDB's init_connect");
    try (Connection c = server.connect(null, null); Statement s = c.createStatement()) {
      String before = global(s, "init_connect");
      UndoLog outer = new UndoLog();
      outer.setGlobal(s, "init_connect", "100");
      assertThat(global(s, "init_connect")).isEqualTo("100");
      UndoLog inner = new UndoLog();
      inner.setGlobal(s, "init_connect", "SET @x = 1");
      assertThat(inner.restore(() -> server.connect(null, null))).isEmpty();
      assertThat(global(s, "init_connect")).isEqualTo("100");
      assertThat(outer.restore(() -> server.connect(null, null))).isEmpty();
      assertThat(global(s, "init_connect")).isEqualTo(before);
    }
  }

  @Test
  void aNameThatIsNotPlainIsRefusedBeforeAnythingRuns(DatabaseServer server) throws Exception {
    try (Connection c = server.connect(null, null); Statement s = c.createStatement()) {
      UndoLog undo = new UndoLog();
      assertThatThrownBy(() -> undo.setGlobal(s, "max_connections = 1; DROP DATABASE x; --", "1"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(undo.isEmpty()).isTrue();
    }
  }

  /** The measurements behind the quoting: each statement here is refused, with this error code. */
  @Test
  void theServerRefusesWhatTheQuotingAvoids(DatabaseServer server) throws Exception {
    Map<String, Integer> refused = new LinkedHashMap<>();
    refused.put("log_bin_trust_function_creators = 'TRUE'", 1231);
    refused.put("transaction_isolation = READ-COMMITTED", 1064);
    if (server.kind() != ServerKind.TIDB) {
      // MariaDB and MySQL: a quoted number for a numeric variable; TiDB takes it.
      refused.put("max_prepared_stmt_count = '16000'", 1232);
      refused.put("long_query_time = '5.5'", 1232);
      refused.put("log_bin_trust_function_creators = '1'", 1231);
      refused.put("init_connect = 100", 1232);
    }
    try (Connection c = server.connect(null, null); Statement s = c.createStatement()) {
      for (Map.Entry<String, Integer> e : refused.entrySet()) {
        assertThatThrownBy(() -> s.executeUpdate("SET GLOBAL " + e.getKey()))
            .as(e.getKey())
            .isInstanceOfSatisfying(SQLException.class, x -> assertThat(x.getErrorCode()).isEqualTo(e.getValue()));
      }
      // What each takes for the same switch; the value is put back after.
      String before = global(s, "log_bin_trust_function_creators");
      for (String taken : List.of("'OFF'", "OFF", "FALSE", "'ON'", "ON", "TRUE", "0")) {
        s.executeUpdate("SET GLOBAL log_bin_trust_function_creators = " + taken);
      }
      s.executeUpdate("SET GLOBAL log_bin_trust_function_creators = " + before);
    }
  }
}
