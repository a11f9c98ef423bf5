package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@RealDatabase
class DatabaseExtensionIT {
  private static DatabaseServer fromBeforeAll;
  private final DatabaseServer fromConstructor;

  DatabaseExtensionIT(DatabaseServer server) {
    this.fromConstructor = server;
  }

  @BeforeAll
  static void remember(DatabaseServer server) {
    fromBeforeAll = server;
  }

  @Test
  void constructorBeforeAllAndMethodGetTheOneSharedServer(DatabaseServer fromMethod) {
    assertThat(fromMethod).isSameAs(fromConstructor).isSameAs(fromBeforeAll).isSameAs(ServerLocator.shared());
  }

  @Test
  void serverReportsWhatItIs(DatabaseServer server) throws SQLException {
    assertThat(server.source()).isIn("env", "testcontainers", "embedded-mariadb");
    assertThat(server.jdbcUrl("x", "a=b")).isEqualTo("jdbc:mysql://" + server.host() + ":" + server.port() + "/x?a=b");
    assertThat(server.jdbcUrl(null, "")).isEqualTo("jdbc:mysql://" + server.host() + ":" + server.port() + "/");
    String db = server.createDatabase("ext");
    try (Connection c = server.connect(db, null);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION(), DATABASE()")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo(server.version());
      assertThat(rs.getString(2)).isEqualTo(db);
    }
    assertThat(server.kind()).isEqualTo(ServerKind.fromVersion(server.version()));
    assertThat(server.statusUrl().isPresent()).isEqualTo(server.isTiDB() && server.statusUrl().isPresent());
  }

  @Test
  void tiDbOnlySkipsWithTheServerNamedOrRuns(DatabaseServer server) {
    Events tests =
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(NeedsTiDB.class)).execute().testEvents();
    if (server.isTiDB()) {
      tests.assertStatistics(s -> s.succeeded(2).skipped(0));
    } else {
      String reason = "needs TiDB; server is " + server.kind() + " " + server.version() + " from " + server.source();
      tests.assertStatistics(s -> s.succeeded(1).skipped(1));
      assertThat(tests.skipped().list()).singleElement()
          .satisfies(e -> assertThat(e.getPayload(String.class)).contains(reason));
    }
  }

  /** Run only through EngineTestKit above (failsafe skips nested classes). */
  @RealDatabase
  static class NeedsTiDB {
    @Test
    @TiDBOnly
    void tidbThing(DatabaseServer server) {
      assertThat(server.isTiDB()).isTrue();
    }

    @Test
    void anyServer(DatabaseServer server) {
      assertThat(server).isNotNull();
    }
  }
}
