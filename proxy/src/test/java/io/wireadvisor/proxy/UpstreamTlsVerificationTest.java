package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the upstream's certificate is checked, against a small in-test MySQL server that starts
 * TLS after the proxy's SSLRequest and accepts any login, with certificates from a CA made in
 * the test: the right host passes (and is sent as SNI); a certificate for another name, an
 * expired one and a self-signed one end the client with an ERR naming the host, the
 * certificate's names or its dates; {@code verify-ca} checks the chain only.
 */
class UpstreamTlsVerificationTest {
  @TempDir static Path dir;
  private static TestPki pki;
  /** Issued by the CA for localhost and 127.0.0.1. */
  private static SSLContext good;
  /** Issued by the CA for another name only. */
  private static SSLContext otherName;
  /** Issued by the CA, for localhost, expired. */
  private static SSLContext expired;
  /** For localhost, but signed by itself, not by the CA. */
  private static SSLContext selfSigned;

  @BeforeAll
  static void certificates() throws Exception {
    pki = TestPki.create(dir);
    good = pki.server("good", "dns:localhost,ip:127.0.0.1", null, 5, true);
    otherName = pki.server("other", "dns:db.example.com", null, 5, true);
    expired = pki.server("expired", "dns:localhost,ip:127.0.0.1", "-10d", 2, true);
    selfSigned = pki.server("self", "dns:localhost,ip:127.0.0.1", null, 5, false);
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void aCertificateForTheUpstreamHostPassesAndTheHostIsSentAsSni() throws Exception {
    try (TlsServer server = new TlsServer(good)) {
      for (String mode : new String[] {"required", "verify-identity", "verify-ca", "preferred"}) {
        ProxyConfig config =
            ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
                .withUpstreamTls(mode, pki.caPem.toFile());
        assertThat(config.upstreamTls().verifiesHostName()).as(mode).isEqualTo(!mode.equals("verify-ca"));
        try (WireProxy proxy = WireProxy.start(config);
            RawClient client = new RawClient(proxy.port(), 10_000)) {
          client.login("app", "", "db");
          assertThat(proxy.stats().upstreamTlsConnections.sum()).as(mode).isEqualTo(1);
        }
      }
      assertThat(server.sni).containsOnly("localhost");
      // An address: the certificate's IP name matches (no SNI for addresses).
      ProxyConfig byAddress =
          ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", server.port())
              .withUpstreamTls("verify-identity", pki.caPem.toFile());
      try (WireProxy proxy = WireProxy.start(byAddress);
          RawClient client = new RawClient(proxy.port(), 10_000)) {
        client.login("app", "", "db");
      }
    }
  }

  @Test
  void aCertificateForAnotherNameIsRefusedNamingTheHostAndTheCertificatesNames() throws Exception {
    try (TlsServer server = new TlsServer(otherName)) {
      // A CA file alone means the name is checked: required behaves as verify-identity.
      for (String mode : new String[] {"required", "verify-identity", "preferred"}) {
        ProxyConfig config =
            ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
                .withUpstreamTls(mode, pki.caPem.toFile());
        try (WireProxy proxy = WireProxy.start(config);
            RawClient client = new RawClient(proxy.port(), 10_000)) {
          assertThatThrownBy(() -> client.login("app", "", "db"))
              .as(mode)
              .hasMessageContaining("TLS to upstream localhost:" + server.port() + " failed")
              .hasMessageContaining("not issued for host name 'localhost'")
              .hasMessageContaining("DNS:db.example.com")
              .hasMessageContaining("--upstream-tls verify-ca");
          assertThat(proxy.stats().upstreamTlsFailures.sum()).isEqualTo(1);
        }
      }
      // verify-ca: the chain is the CA's, the name is not checked.
      ProxyConfig chainOnly =
          ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
              .withUpstreamTls("verify-ca", pki.caPem.toFile());
      try (WireProxy proxy = WireProxy.start(chainOnly);
          RawClient client = new RawClient(proxy.port(), 10_000)) {
        client.login("app", "", "db");
      }
    }
  }

  @Test
  void anExpiredCertificateIsRefusedWithItsDate() throws Exception {
    try (TlsServer server = new TlsServer(expired)) {
      for (String mode : new String[] {"verify-ca", "verify-identity"}) {
        ProxyConfig config =
            ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
                .withUpstreamTls(mode, pki.caPem.toFile());
        try (WireProxy proxy = WireProxy.start(config);
            RawClient client = new RawClient(proxy.port(), 10_000)) {
          assertThatThrownBy(() -> client.login("app", "", "db"))
              .as(mode)
              .hasMessageContaining("does not verify against --upstream-ca " + pki.caPem)
              .hasMessageContaining("it expired on");
        }
      }
    }
  }

  @Test
  void aSelfSignedCertificateIsRefusedByTheCaAndByTheDefaultCas() throws Exception {
    try (TlsServer server = new TlsServer(selfSigned)) {
      ProxyConfig withCa =
          ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
              .withUpstreamTls("verify-identity", pki.caPem.toFile());
      try (WireProxy proxy = WireProxy.start(withCa);
          RawClient client = new RawClient(proxy.port(), 10_000)) {
        assertThatThrownBy(() -> client.login("app", "", "db"))
            .hasMessageContaining("does not verify against --upstream-ca " + pki.caPem)
            .hasMessageContaining("not issued by a CA there")
            .hasMessageContaining("CN=self");
      }
      // verify modes without a CA file use the JDK's default CAs, which do not know it either.
      ProxyConfig defaults =
          ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
              .withUpstreamTls("verify-ca", null);
      try (WireProxy proxy = WireProxy.start(defaults);
          RawClient client = new RawClient(proxy.port(), 10_000)) {
        assertThatThrownBy(() -> client.login("app", "", "db"))
            .hasMessageContaining("does not verify against the JDK's default CAs");
      }
      // required without a CA file: any certificate (encrypted, not authenticated), as before.
      ProxyConfig unverified =
          ProxyConfig.of("127.0.0.1", 0, "localhost", server.port())
              .withUpstreamTls("required", null);
      assertThat(unverified.upstreamTls().describe()).contains("NOT verified");
      try (WireProxy proxy = WireProxy.start(unverified);
          RawClient client = new RawClient(proxy.port(), 10_000)) {
        client.login("app", "", "db");
      }
    }
  }

  @Test
  void theStartupLineSaysWhatIsVerified() {
    String ca = pki.caPem.toString();
    assertThat(UpstreamTls.of(UpstreamTls.Mode.REQUIRED, pki.caPem.toFile()).describe())
        .contains("server certificate and host name verified against " + ca);
    assertThat(UpstreamTls.of(UpstreamTls.Mode.VERIFY_CA, pki.caPem.toFile()).describe())
        .contains("verified against " + ca + "; host name NOT checked");
    assertThat(UpstreamTls.of(UpstreamTls.Mode.VERIFY_IDENTITY, null).describe())
        .contains("host name verified against the JDK's default CAs");
    assertThat(UpstreamTls.of(UpstreamTls.Mode.PREFERRED, null).describe()).contains("NOT verified");
  }

  /**
   * A MySQL server in miniature: greeting with CLIENT_SSL, then after the SSLRequest a TLS
   * handshake with {@code tls}, then OK to whatever HandshakeResponse, then reads until closed.
   * Records the SNI host names it was sent.
   */
  private static final class TlsServer implements AutoCloseable {
    final List<String> sni = new CopyOnWriteArrayList<>();
    private final ServerSocket socket;
    private final SSLContext tls;

    TlsServer(SSLContext tls) throws IOException {
      this.tls = tls;
      this.socket = new ServerSocket(0); // every address: "localhost" may resolve to ::1
      Thread t = new Thread(this::serve, "tls-mysql-server");
      t.setDaemon(true);
      t.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket s = socket.accept()) {
          s.setSoTimeout(10_000);
          OutputStream out = s.getOutputStream();
          out.write(
              Wire.packet(0, Wire.greeting("8.0.36-tls-test",
                  TrackerHarness.BASE_CAPS | Capabilities.CLIENT_SSL, "mysql_native_password")));
          DataInputStream in = new DataInputStream(s.getInputStream());
          readPacket(in); // SSLRequest
          SSLSocket secure =
              (SSLSocket) tls.getSocketFactory().createSocket(s, (InputStream) null, false);
          secure.setUseClientMode(false);
          try {
            secure.startHandshake();
          } catch (IOException refused) {
            continue; // the proxy refused the certificate
          }
          for (SNIServerName name :
              ((ExtendedSSLSession) secure.getSession()).getRequestedServerNames()) {
            if (name instanceof SNIHostName h) {
              sni.add(h.getAsciiName());
            }
          }
          DataInputStream secureIn = new DataInputStream(secure.getInputStream());
          int seq = readPacket(secureIn); // HandshakeResponse
          secure.getOutputStream().write(Wire.packet(seq + 1, Wire.ok(2)));
          secure.getOutputStream().flush();
          while (readPacket(secureIn) >= 0) {
            // until the proxy closes
          }
        } catch (IOException e) {
          // closed: the test is over, or the proxy dropped the connection
        }
      }
    }

    /** Reads one packet; returns its sequence id, or -1 at the end of the stream. */
    private static int readPacket(DataInputStream in) throws IOException {
      byte[] header = new byte[4];
      try {
        in.readFully(header);
      } catch (java.io.EOFException e) {
        return -1;
      }
      int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
      in.readFully(new byte[length]);
      return header[3] & 0xff;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
