package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/** The certificate the proxy makes for client TLS when none is given (issue 28). */
class GeneratedCertificateTest {
  @Test
  void aSelfSignedRsaCertificateValidNowWithItsFingerprint() throws Exception {
    GeneratedCertificate g = GeneratedCertificate.generate("wire-advisor test");
    X509Certificate c = g.certificate();
    c.verify(c.getPublicKey()); // self-signed: signed by its own key
    c.checkValidity(new Date());
    c.checkValidity(Date.from(Instant.now().plusSeconds(9L * 365 * 86400)));
    assertThat(c.getVersion()).isEqualTo(3);
    assertThat(c.getSubjectX500Principal().getName()).isEqualTo("CN=wire-advisor test");
    assertThat(c.getIssuerX500Principal()).isEqualTo(c.getSubjectX500Principal());
    assertThat(c.getSigAlgName()).isEqualTo("SHA256withRSA");
    assertThat(c.getSerialNumber().signum()).isPositive();
    assertThat(g.privateKey().getAlgorithm()).isEqualTo("RSA");
    String expected =
        HexFormat.ofDelimiter(":").withUpperCase()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(c.getEncoded()));
    assertThat(g.sha256Fingerprint()).isEqualTo(expected);
    assertThat(GeneratedCertificate.generate("wire-advisor test").sha256Fingerprint())
        .isNotEqualTo(expected);
  }

  @Test
  void longDerLengthsAreEncodedInLongForm() {
    assertThat(GeneratedCertificate.tlv(0x04, new byte[0x7f])).startsWith(0x04, 0x7f);
    assertThat(GeneratedCertificate.tlv(0x04, new byte[0x80])).startsWith(0x04, 0x81, 0x80);
    assertThat(GeneratedCertificate.tlv(0x04, new byte[0x100])).startsWith(0x04, 0x82, 0x01, 0x00);
    assertThat(GeneratedCertificate.tlv(0x04, new byte[0x10000])).startsWith(0x04, 0x83, 0x01, 0x00, 0x00);
  }

  /** The proxy's server context built from it completes a handshake with a client that pins it. */
  @Test
  void aClientTrustingTheCertificateCompletesATlsHandshake() throws Exception {
    GeneratedCertificate g = GeneratedCertificate.generate(GeneratedCertificate.DEFAULT_NAME);
    SSLEngine server =
        io.netty.handler.ssl.SslContextBuilder.forServer(g.privateKey(), g.certificate())
            .build()
            .newEngine(ByteBufAllocator.DEFAULT);
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry("proxy", g.certificate());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    SSLEngine client = ctx.createSSLEngine();
    client.setUseClientMode(true);
    handshake(client, server);
    assertThat(client.getSession().getPeerCertificates()[0]).isEqualTo(g.certificate());
  }

  private static void handshake(SSLEngine client, SSLEngine server) throws Exception {
    int size = 1 << 17;
    ByteBuffer toServer = ByteBuffer.allocate(size);
    ByteBuffer toClient = ByteBuffer.allocate(size);
    ByteBuffer app = ByteBuffer.allocate(size);
    ByteBuffer empty = ByteBuffer.allocate(0);
    client.beginHandshake();
    server.beginHandshake();
    for (int i = 0; i < 200 && !(done(client) && done(server)); i++) {
      step(client, empty, toServer, toClient, app);
      step(server, empty, toClient, toServer, app);
    }
    assertThat(done(client) && done(server)).as("handshake completed").isTrue();
  }

  private static boolean done(SSLEngine e) {
    SSLEngineResult.HandshakeStatus s = e.getHandshakeStatus();
    return s == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
        || s == SSLEngineResult.HandshakeStatus.FINISHED;
  }

  /** One round for {@code e}: wrap into {@code out}, unwrap what {@code in} holds. */
  private static void step(SSLEngine e, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer app)
      throws Exception {
    while (true) {
      SSLEngineResult.HandshakeStatus s = e.getHandshakeStatus();
      if (s == SSLEngineResult.HandshakeStatus.NEED_TASK) {
        Runnable t;
        while ((t = e.getDelegatedTask()) != null) {
          t.run();
        }
      } else if (s == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
        e.wrap(empty, out);
      } else if (s == SSLEngineResult.HandshakeStatus.NEED_UNWRAP) {
        in.flip();
        SSLEngineResult r = e.unwrap(in, app);
        in.compact();
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW || r.bytesConsumed() == 0) {
          return;
        }
      } else {
        return;
      }
    }
  }

}
