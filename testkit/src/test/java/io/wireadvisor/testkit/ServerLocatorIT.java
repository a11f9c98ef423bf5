package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class ServerLocatorIT {
  @Test
  void withoutUrlOrDockerTheSharedServerIsEmbeddedMariaDb() {
    assumeTrue(ServerLocator.setting("WIRE_ADVISOR_JDBC_URL") == null, "a URL is configured");
    assumeTrue(DockerProbe.unavailableReason() != null, "Docker is available");
    DatabaseServer server = ServerLocator.shared();
    assertThat(server.source()).isEqualTo("embedded-mariadb");
    assertThat(server.kind()).isEqualTo(ServerKind.MARIADB);
    assertThat(server.version()).startsWith(TestVersions.MARIADB_VERSION + "-MariaDB");
    assertThat(server.statusUrl()).isEmpty();
  }

  @Test
  void embeddedServerAcceptsLargePacketsAndManyConnections() throws Exception {
    DatabaseServer server = ServerLocator.shared();
    assumeTrue(server.source().equals("embedded-mariadb"), "settings only ours to choose when embedded");
    try (var c = server.connect(null, null);
        var s = c.createStatement();
        var rs = s.executeQuery("SELECT @@max_allowed_packet, @@max_connections")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(256L * 1024 * 1024);
      assertThat(rs.getLong(2)).isEqualTo(500L);
    }
  }
}
