package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client TLS terminated at the proxy, with a certificate generated at test time by the JDK's
 * keytool; the upstream connection stays plaintext.
 */
@RealDatabase
class TlsTerminationIT {
  @TempDir static Path dir;
  private static File cert;
  private static File key;
  private final DatabaseServer server;

  TlsTerminationIT(DatabaseServer server) {
    this.server = server;
  }

  @BeforeAll
  static void generateCertificate() throws Exception {
    TestCertificate generated = TestCertificate.generate(dir);
    cert = generated.cert();
    key = generated.key();
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void clientRequiringTlsTalksTlsToTheProxyAndIsClassifiedAsUsual() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()).withTls(cert, key);
    String db = server.createDatabase("proxy_tls");
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      try (Connection c = p.connect(db, "sslMode=REQUIRED&useServerPrepStmts=true");
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
        s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
          ps.setInt(1, 2);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("two");
          }
        }
        // The server itself saw a plaintext connection: TLS ended at the proxy.
        try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
          rs.next();
          assertThat(rs.getString(2)).isEmpty();
        }
      }
      assertThat(p.proxy.stats().tlsConnections.sum()).isEqualTo(1);
      assertThat(p.proxy.profile().count(CommandType.STMT_EXECUTE)).isEqualTo(1);
      // A client that does not ask for TLS still gets in.
      try (Connection c = p.connect(db, "sslMode=DISABLED");
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(2);
      }
      assertThat(p.proxy.stats().tlsConnections.sum()).isEqualTo(1);
      assertThat(p.proxy.clientProtocolErrors()).isZero();
    }
  }
}
