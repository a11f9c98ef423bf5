package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * What clients see of the capabilities the proxy withdraws: TLS (not terminated) and compression
 * (never negotiated).
 */
@RealDatabase
class TlsAndCompressionIT {
  private final DatabaseServer server;

  TlsAndCompressionIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void clientThatPrefersTlsFallsBackToPlaintext() throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection c = p.connect(null, "sslMode=PREFERRED");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(2)).isEmpty();
      assertThat(p.proxy.profile().count(CommandType.QUERY)).isPositive();
    }
  }

  @Test
  void clientThatRequiresTlsFailsWithAClearMessage() throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server)) {
      assertThatThrownBy(() -> p.connect(null, "sslMode=REQUIRED").close())
          .isInstanceOf(SQLException.class)
          .hasStackTraceContaining("SSL");
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      FaultsIT.waitFor(p.proxy::upstreamConnections, 0);
    }
  }

  @Test
  void compressionIsNotNegotiatedAndTrafficIsStillClassified() throws Exception {
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection c = p.connect(null, "useCompression=true");
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Compression'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(2)).isEqualToIgnoringCase("OFF");
      }
      try (ResultSet rs = s.executeQuery("SELECT REPEAT('z', 100000)")) {
        rs.next();
        assertThat(rs.getString(1)).hasSize(100000);
      }
      assertThat(p.proxy.clientProtocolErrors()).isZero();
    }
  }
}
