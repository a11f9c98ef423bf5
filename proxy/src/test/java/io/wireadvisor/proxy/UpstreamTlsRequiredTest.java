package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@code --upstream-tls required} in front of a server that offers no TLS (a socket that sends a
 * MySQL greeting without CLIENT_SSL, which the embedded MariaDB cannot be made to do without
 * restarting it): every client gets an ERR instead of the greeting, saying why, and the proxy
 * goes on serving the next one.
 */
class UpstreamTlsRequiredTest {
  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void clientsGetAnErrSayingTheServerOffersNoTlsAndTheProxyGoesOn() throws Exception {
    byte[] greeting =
        Wire.packet(0, Wire.greeting("8.0.36-no-tls", TrackerHarness.BASE_CAPS, "mysql_native_password"));
    try (ServerSocket plaintextServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> serveGreetings(plaintextServer, greeting), "no-tls-server");
      acceptor.setDaemon(true);
      acceptor.start();
      ProxyConfig config =
          ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", plaintextServer.getLocalPort())
              .withUpstreamTls("required", null);
      try (WireProxy proxy = WireProxy.start(config)) {
        for (int attempt = 0; attempt < 2; attempt++) {
          try (RawClient client = new RawClient(proxy.port(), 10_000)) {
            byte[] err = client.readPacket();
            assertThat(err).isNotNull();
            assertThat(err[0] & 0xff).isEqualTo(0xff);
            assertThat(client.lastSeq).isZero();
            String message = new String(err, 3, err.length - 3, StandardCharsets.UTF_8);
            assertThat(message)
                .contains("8.0.36-no-tls does not offer TLS")
                .contains("--upstream-tls required");
            assertThat(client.closedByPeer()).isTrue();
          }
        }
        assertThat(proxy.stats().upstreamTlsConnections.sum()).isZero();
      }
    }
  }

  /** Sends the greeting to each connection, then reads until the proxy closes it. */
  private static void serveGreetings(ServerSocket server, byte[] greeting) {
    while (!server.isClosed()) {
      try (Socket s = server.accept()) {
        s.getOutputStream().write(greeting);
        InputStream in = s.getInputStream();
        byte[] sink = new byte[256];
        while (in.read(sink) >= 0) {
          // drain until the proxy closes
        }
      } catch (IOException e) {
        // closed: the test is over, or the proxy dropped the connection
      }
    }
  }
}
