package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The TiDB container as the harness starts it: TLS offered, published on loopback only. */
class TiDBContainerIT {
  private static DatabaseServer containerServer() {
    DatabaseServer server = ServerLocator.shared();
    assumeTrue(server.source().equals("testcontainers"), "the harness chose " + server.source() + ", not a container");
    return server;
  }

  @Test
  void offersTlsAsADeploymentDoes() throws Exception {
    DatabaseServer server = containerServer();
    try (Connection c = server.connect(null, "sslMode=REQUIRED");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW STATUS LIKE 'Ssl_cipher'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(2)).isNotBlank();
    }
  }

  @Test
  void rootWithoutPasswordIsPublishedOnLoopbackOnly() throws Exception {
    DatabaseServer server = containerServer();
    assumeTrue(TiDBContainerServer.isLoopback(server.host()), "the engine is reached at " + server.host());
    DockerEngine engine =
        DockerEngine.locate(System.getenv("DOCKER_HOST"), "1".equals(System.getenv("DOCKER_TLS_VERIFY"))).orElseThrow();
    String filter = URLEncoder.encode("{\"label\":[\"" + TiDBContainerServer.LABEL + "\"]}", StandardCharsets.UTF_8);
    DockerEngine.Answer a = engine.call("GET", "/containers/json?filters=" + filter);
    assertThat(a.status()).isEqualTo(200);
    // Every published port of the harness's containers, e.g. {"IP":"127.0.0.1","PrivatePort":4000,"PublicPort":32769,...}
    assertThat(a.body()).contains("\"PublicPort\":" + server.port());
    String[] afterIp = a.body().split("\"IP\":\"", -1);
    assertThat(afterIp.length).as("published ports").isGreaterThan(1);
    for (int i = 1; i < afterIp.length; i++) {
      assertThat(afterIp[i]).as("published on").startsWith("127.0.0.1\"");
    }
  }
}
