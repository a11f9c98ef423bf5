package io.wireadvisor.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.TiDBOnly;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The advised configuration's server-side changes exist on the server for its runs only: applied
 * with the previous values read first, undone on close; what is not a global or a table cache of
 * the replayed database is never run.
 */
@RealDatabase
class ServerChangesIT {
  private static long global(DatabaseServer server, String name) throws SQLException {
    try (Connection c = server.connect(null, null);
        ResultSet rs = c.createStatement().executeQuery("SELECT @@GLOBAL." + name)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aGlobalIsSetForTheRunAndRestoredAfterIt(DatabaseServer server) throws Exception {
    String db = server.createDatabase("server_changes");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE keep_me (id INT PRIMARY KEY)");
    }
    long before = global(server, "max_prepared_stmt_count");
    // TiDB's default is -1 (no limit), MariaDB's 16382: a value each accepts and that differs.
    long changed = before < 0 ? 100_000 : before + 1;
    List<String> log = new ArrayList<>();
    ReplayTarget target = new ReplayTarget(server.host(), server.port(), db, server.user(), server.password());
    try (ServerChanges changes =
        ServerChanges.apply(
            List.of("SET GLOBAL max_prepared_stmt_count = " + changed + ";",
                "DROP TABLE keep_me;",
                "ALTER TABLE other_schema.t CACHE;"),
            target, db, log::add)) {
      assertThat(global(server, "max_prepared_stmt_count")).isEqualTo(changed);
      assertThat(changes.applied()).containsExactly(
          "SET GLOBAL max_prepared_stmt_count = " + changed + " (was " + before + ")");
      assertThat(changes.notApplied()).containsExactly("DROP TABLE keep_me;", "ALTER TABLE other_schema.t CACHE;");
    }
    assertThat(global(server, "max_prepared_stmt_count")).isEqualTo(before);
    try (Connection c = server.connect(db, null);
        ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM keep_me")) {
      assertThat(rs.next()).as("never dropped").isTrue();
    }
    assertThat(log).isEmpty();
  }

  @Test
  @TiDBOnly
  void aTableIsCachedForTheRunAndNotAfterIt(DatabaseServer server) throws Exception {
    String db = server.createDatabase("server_cache");
    try (Connection c = server.connect(db, null); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE currency (code CHAR(3) PRIMARY KEY, name VARCHAR(40))");
    }
    ReplayTarget target = new ReplayTarget(server.host(), server.port(), db, server.user(), server.password());
    try (ServerChanges changes =
        ServerChanges.apply(List.of("ALTER TABLE `" + db + "`.`currency` CACHE;"), target, db, line -> {})) {
      assertThat(changes.applied()).hasSize(1);
      assertThat(createOptions(server, db)).contains("cached=on");
    }
    assertThat(createOptions(server, db)).doesNotContain("cached=on");
  }

  private static String createOptions(DatabaseServer server, String db) throws SQLException {
    try (Connection c = server.connect(db, null);
        ResultSet rs = c.createStatement().executeQuery(
            "SELECT LOWER(create_options) FROM information_schema.tables WHERE table_schema = DATABASE()"
                + " AND table_name = 'currency'")) {
      rs.next();
      String v = rs.getString(1);
      return v == null ? "" : v;
    }
  }
}
