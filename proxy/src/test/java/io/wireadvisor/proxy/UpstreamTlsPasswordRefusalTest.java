package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the running proxy (client TLS terminated, upstream plaintext): a TLS client whose
 * HandshakeResponse carries a clear password gets ERR 1045 naming the plugin, and the upstream
 * (a plaintext socket recording every byte) never receives the password; a challenge–response
 * login on the same proxy still works.
 */
class UpstreamTlsPasswordRefusalTest {
  private static final String SECRET = "S3cr3t-pa55word";

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void aClearPasswordFromATlsClientNeverReachesAPlaintextUpstream(@TempDir Path dir)
      throws Exception {
    TestCertificate certificate = TestCertificate.generate(dir);
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    try (ServerSocket upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> serve(upstream, received), "plaintext-upstream");
      t.setDaemon(true);
      t.start();
      ProxyConfig config =
          ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", upstream.getLocalPort())
              .withTls(certificate.cert(), certificate.key());
      try (WireProxy proxy = WireProxy.start(config)) {
        byte[] err = login(proxy.port(), "mysql_clear_password", Wire.nul(SECRET));
        assertThat(err[0] & 0xff).isEqualTo(0xff);
        assertThat((err[1] & 0xff) | (err[2] & 0xff) << 8).isEqualTo(Packets.ER_ACCESS_DENIED);
        assertThat(new String(err, 9, err.length - 9, StandardCharsets.UTF_8))
            .contains("'mysql_clear_password'")
            .contains("--upstream-tls required")
            .contains("--allow-plaintext-upstream-passwords");
        byte[] ok = login(proxy.port(), "mysql_native_password", new byte[20]);
        assertThat(ok[0]).isEqualTo((byte) 0x00);
      }
    }
    synchronized (received) {
      String sent = new String(received.toByteArray(), StandardCharsets.ISO_8859_1);
      assertThat(sent).contains("mysql_native_password").doesNotContain(SECRET);
    }
  }

  /** Greeting, SSLRequest, TLS, a HandshakeResponse naming {@code plugin}: the proxy's answer. */
  private static byte[] login(int port, String plugin, byte[] auth) throws Exception {
    int caps = TrackerHarness.BASE_CAPS | Capabilities.CLIENT_SSL;
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      DataInputStream in = new DataInputStream(socket.getInputStream());
      readPacket(in); // greeting
      socket.getOutputStream().write(
          Wire.packet(1, Wire.concat(Wire.int4(caps), Wire.int4(1 << 24), Wire.bytes(45), new byte[23])));
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
      try (SSLSocket s =
          (SSLSocket) tls.getSocketFactory().createSocket(socket, "127.0.0.1", port, false)) {
        s.startHandshake();
        s.getOutputStream().write(Wire.packet(2, Wire.handshakeResponse(caps, "app", auth, plugin)));
        s.getOutputStream().flush();
        return readPacket(new DataInputStream(s.getInputStream()));
      }
    }
  }

  /** Sends a greeting (no CLIENT_SSL), records what arrives, answers a first packet with OK. */
  private static void serve(ServerSocket server, ByteArrayOutputStream received) {
    while (!server.isClosed()) {
      try (Socket s = server.accept()) {
        s.getOutputStream().write(
            Wire.packet(0, Wire.greeting("8.0.36-plain", TrackerHarness.BASE_CAPS, "mysql_native_password")));
        InputStream in = s.getInputStream();
        byte[] buffer = new byte[4096];
        boolean answered = false;
        int n;
        while ((n = in.read(buffer)) >= 0) {
          synchronized (received) {
            received.write(buffer, 0, n);
          }
          if (!answered) {
            answered = true;
            s.getOutputStream().write(Wire.packet(2, Wire.ok(2)));
          }
        }
      } catch (IOException e) {
        // closed: the test is over, or the proxy dropped the connection
      }
    }
  }

  private static byte[] readPacket(DataInputStream in) throws IOException {
    byte[] header = new byte[4];
    in.readFully(header);
    byte[] payload = new byte[(header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16];
    in.readFully(payload);
    return payload;
  }
}
