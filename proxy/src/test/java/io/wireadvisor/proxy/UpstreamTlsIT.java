package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerCounters;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS between proxy and server ({@code --upstream-tls}): the server itself reports the proxied
 * session as encrypted ({@code Ssl_cipher}), results equal a direct connection's, the proxy's
 * per-command counts equal the server's counter deltas, and a certificate that does not verify
 * ends that client with an ERR saying why.
 */
@RealDatabase
class UpstreamTlsIT {
  @TempDir static Path dir;
  private static TestCertificate certificate;
  private final DatabaseServer server;
  private final ServerCounters counters;
  private final String db;

  UpstreamTlsIT(DatabaseServer server) throws SQLException {
    this.server = server;
    this.counters = server.counters();
    try (Connection c = server.connect(null, "sslMode=DISABLED");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW VARIABLES LIKE 'have_ssl'")) {
      Assumptions.assumeTrue(
          rs.next() && rs.getString(2).equalsIgnoreCase("YES"),
          "the server " + server + " has no TLS configured (have_ssl is not YES)");
    }
    this.db = server.createDatabase("proxy_up_tls");
    try (Connection c = server.connect(db, "sslMode=DISABLED");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
      s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }
  }

  @BeforeAll
  static void generateCertificate() throws Exception {
    certificate = TestCertificate.generate(dir);
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void plaintextClientGetsAnEncryptedUpstreamWithIdenticalResultsAndServerCounts() throws Exception {
    String props = "sslMode=DISABLED&useServerPrepStmts=true&cachePrepStmts=false";
    List<String> direct;
    try (Connection c = server.connect(db, props)) {
      assertThat(sslCipher(c)).as("a direct plaintext connection").isEmpty();
      direct = workload(c);
    }
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withUpstreamTls("required", null);
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      CounterSnapshot before = counters.snapshot();
      List<String> proxied;
      CounterSnapshot delta;
      TrafficProfile profile;
      try (Connection c = p.connect(db, props)) {
        assertThat(sslCipher(c)).as("the proxied connection's upstream leg").isNotEmpty();
        proxied = workload(c);
        delta = counters.snapshot().minus(before);
        profile = p.proxy.profile();
      }
      assertThat(proxied).isEqualTo(direct);
      assertThat(profile.count(CommandType.STMT_PREPARE)).isGreaterThanOrEqualTo(4);
      assertThat(profile.count(CommandType.STMT_EXECUTE)).isGreaterThanOrEqualTo(4);
      p.assertCountsEqual(profile, delta);
      assertThat(p.proxy.stats().upstreamTlsConnections.sum()).isEqualTo(1);
      assertThat(p.proxy.stats().tlsConnections.sum()).isZero();
      assertThat(p.proxy.clientProtocolErrors()).isZero();
    }
  }

  @Test
  void bothLegsTlsWork() throws Exception {
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withTls(certificate.cert(), certificate.key())
            .withUpstreamTls("preferred", null);
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      try (Connection c = p.connect(db, "sslMode=REQUIRED&useServerPrepStmts=true")) {
        assertThat(sslCipher(c)).isNotEmpty();
        assertThat(workload(c)).contains("2 two");
      }
      assertThat(p.proxy.stats().tlsConnections.sum()).isEqualTo(1);
      assertThat(p.proxy.stats().upstreamTlsConnections.sum()).isEqualTo(1);
      assertThat(p.proxy.profile().count(CommandType.STMT_EXECUTE)).isGreaterThanOrEqualTo(4);
      // A plaintext client of the same proxy: client leg plain, upstream leg still TLS.
      try (Connection c = p.connect(db, "sslMode=DISABLED")) {
        assertThat(sslCipher(c)).isNotEmpty();
      }
      assertThat(p.proxy.stats().upstreamTlsConnections.sum()).isEqualTo(2);
      assertThat(p.proxy.clientProtocolErrors()).isZero();
    }
  }

  @Test
  void aServerCertificateThatDoesNotVerifyEndsOnlyThatClientWithAClearError() throws Exception {
    // The CA is the test's own self-signed certificate, which did not sign the server's.
    ProxyConfig config =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withUpstreamTls("required", certificate.cert());
    try (ProxiedServer p = ProxiedServer.start(server, config)) {
      for (int attempt = 1; attempt <= 2; attempt++) {
        assertThatThrownBy(() -> p.connect(db, "sslMode=DISABLED").close())
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("TLS to upstream " + server.host() + ":" + server.port() + " failed")
            .hasMessageContaining("does not verify against --upstream-ca " + certificate.cert());
        assertThat(p.proxy.stats().upstreamTlsFailures.sum()).isEqualTo(attempt);
      }
      assertThat(p.proxy.stats().upstreamTlsConnections.sum()).isZero();
    }
    // The proxy refused; nothing else was affected: the same server through a proxy without a
    // CA still works.
    try (ProxiedServer p =
            ProxiedServer.start(
                server,
                ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
                    .withUpstreamTls("required", null));
        Connection c = p.connect(db, "sslMode=DISABLED")) {
      assertThat(sslCipher(c)).isNotEmpty();
    }
  }

  @Test
  void aServerCertificateThatVerifiesAgainstTheCaIsAcceptedAndItsNameIsCheckedUnlessVerifyCa()
      throws Exception {
    String chain = serverCertificateChain();
    Path ca = dir.resolve("server-ca.pem");
    Files.writeString(ca, chain);
    ProxyConfig chainOnly =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withUpstreamTls("verify-ca", ca.toFile());
    try (ProxiedServer p = ProxiedServer.start(server, chainOnly);
        Connection c = p.connect(db, "sslMode=DISABLED")) {
      assertThat(sslCipher(c)).isNotEmpty();
      assertThat(p.proxy.stats().upstreamTlsFailures.sum()).isZero();
    }
    // With a CA file, required checks the host name too: MariaDB's generated certificate
    // (checked: CN=MariaDB Server, no subject alternative names) does not name 127.0.0.1.
    ProxyConfig identity =
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
            .withUpstreamTls("required", ca.toFile());
    X509Certificate leaf =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(chain.getBytes(StandardCharsets.US_ASCII)));
    try (ProxiedServer p = ProxiedServer.start(server, identity)) {
      if (names(leaf).contains(server.host())) {
        try (Connection c = p.connect(db, "sslMode=DISABLED")) {
          assertThat(sslCipher(c)).isNotEmpty();
        }
      } else {
        assertThatThrownBy(() -> p.connect(db, "sslMode=DISABLED").close())
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("not issued for host name '" + server.host() + "'")
            .hasMessageContaining("--upstream-tls verify-ca");
        assertThat(p.proxy.stats().upstreamTlsFailures.sum()).isEqualTo(1);
      }
    }
  }

  /** The DNS and IP subject alternative names of a certificate. */
  private static List<String> names(X509Certificate c) throws Exception {
    List<String> out = new ArrayList<>();
    if (c.getSubjectAlternativeNames() != null) {
      for (List<?> san : c.getSubjectAlternativeNames()) {
        out.add(String.valueOf(san.get(1)));
      }
    }
    return out;
  }

  /**
   * The server's own certificate chain as PEM, fetched the way a client starts TLS (greeting,
   * SSLRequest, handshake) without verifying it: trusting what it sent makes it verify.
   */
  private String serverCertificateChain() throws Exception {
    try (Socket socket = new Socket(server.host(), server.port())) {
      socket.setSoTimeout(10_000);
      DataInputStream in = new DataInputStream(socket.getInputStream());
      byte[] header = new byte[4];
      in.readFully(header);
      in.readFully(new byte[(header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16]);
      socket.getOutputStream().write(
          Wire.packet(
              1,
              Wire.concat(
                  Wire.int4(TrackerHarness.BASE_CAPS | Capabilities.CLIENT_SSL),
                  Wire.int4(1 << 24), Wire.bytes(33), new byte[23])));
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
      try (SSLSocket s =
          (SSLSocket)
              tls.getSocketFactory().createSocket(socket, server.host(), server.port(), false)) {
        s.startHandshake();
        StringBuilder pem = new StringBuilder();
        for (Certificate c : s.getSession().getPeerCertificates()) {
          pem.append(TestCertificate.pem("CERTIFICATE", c.getEncoded()));
        }
        return pem.toString();
      }
    }
  }

  private static String sslCipher(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
      assertThat(rs.next()).isTrue();
      return rs.getString(2);
    }
  }

  /** Text queries, server prepares, an error: the same on every path. */
  private static List<String> workload(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT id, v FROM t WHERE id = ?")) {
      for (int i = 1; i <= 3; i++) {
        ps.setInt(1, i);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(rs.getInt(1) + " " + rs.getString(2));
          }
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE t SET v = v WHERE id = ?")) {
      ps.setInt(1, 2);
      out.add("updated " + ps.executeUpdate());
    }
    try (Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), MAX(v) FROM t")) {
        rs.next();
        out.add(rs.getInt(1) + " " + rs.getString(2));
      }
      try {
        s.executeQuery("SELECT nope FROM t");
      } catch (SQLException e) {
        out.add("error " + e.getErrorCode());
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id IN (?, ?) ORDER BY id")) {
      ps.setInt(1, 1);
      ps.setInt(2, 3);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM no_such_table WHERE id = ?")) {
      ps.setInt(1, 1);
      ps.executeQuery();
    } catch (SQLException e) {
      out.add("error " + e.getErrorCode());
    }
    return out;
  }
}
