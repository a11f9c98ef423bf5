package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServerLocatorTest {
  @AfterEach
  void clear() {
    System.clearProperty("wireadvisor.jdbc.url");
  }

  @Test
  void unitTestsDoNotSeeTheServerTheIntegrationTestsUse() {
    // The root POM's Surefire configuration removes these, so no *Test depends on the environment.
    for (String name : new String[] {
        "WIRE_ADVISOR_JDBC_URL", "WIRE_ADVISOR_JDBC_USER", "WIRE_ADVISOR_JDBC_PASSWORD", "WIRE_ADVISOR_TIDB_STATUS_URL"}) {
      assertThat(System.getenv(name)).as(name).isNull();
    }
  }

  @Test
  void urlWinsOverDocker() {
    ServerLocator.Choice c =
        ServerLocator.choose(Map.of("WIRE_ADVISOR_JDBC_URL", "jdbc:mysql://db:4000/")::get, () -> null);
    assertThat(c.source()).isEqualTo("env");
    assertThat(c.reason()).contains("jdbc:mysql://db:4000/");
  }

  @Test
  void withoutUrlDockerIsUsedWhenAvailable() {
    assertThat(ServerLocator.choose(Map.<String, String>of()::get, () -> null).source()).isEqualTo("testcontainers");
  }

  @Test
  void withoutUrlOrDockerFallsBackToEmbeddedMariaDbAndSaysWhy() {
    ServerLocator.Choice c = ServerLocator.choose(Map.<String, String>of()::get, () -> "Docker not available");
    assertThat(c.source()).isEqualTo("embedded-mariadb");
    assertThat(c.reason()).isEqualTo("no WIRE_ADVISOR_JDBC_URL; Docker not available");
  }

  @Test
  void systemPropertyStandsInForTheEnvironmentVariable() {
    System.setProperty("wireadvisor.jdbc.url", "jdbc:mysql://elsewhere:3306/");
    assertThat(ServerLocator.setting("WIRE_ADVISOR_JDBC_URL")).isEqualTo("jdbc:mysql://elsewhere:3306/");
  }

  @Test
  void unreachableUrlFailsFastNamingTheUrl() {
    // Port 1 on loopback: refused at once, so this proves the error, not the timeout.
    System.setProperty("wireadvisor.jdbc.url", "jdbc:mysql://127.0.0.1:1/");
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThatThrownBy(ServerLocator::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("jdbc:mysql://127.0.0.1:1/"));
  }

  @Test
  void urlOfAnotherDriverIsRejectedNamingTheUrl() {
    System.setProperty("wireadvisor.jdbc.url", "jdbc:postgresql://db/x");
    assertThatThrownBy(ServerLocator::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jdbc:postgresql://db/x");
  }
}
