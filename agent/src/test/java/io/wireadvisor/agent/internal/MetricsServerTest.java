package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MetricsServerTest {
  private final List<Socket> sockets = new ArrayList<>();
  private MetricsServer server;

  @AfterEach
  void close() throws Exception {
    for (Socket s : sockets) {
      s.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aClientThatStallsMidRequestDoesNotBlockAScrape() throws Exception {
    server = MetricsServer.start("127.0.0.1", 0, () -> "wireadvisor_active 1\n");
    Socket stalled = open();
    stalled.getOutputStream().write("GET /hea".getBytes(StandardCharsets.US_ASCII));
    stalled.getOutputStream().flush();

    // Generous timeouts: the point is that the answer arrives at all, not how fast.
    assertThat(get("/metrics")).isEqualTo("200 wireadvisor_active 1\n");
    assertThat(get("/metrics")).as("and again").isEqualTo("200 wireadvisor_active 1\n");
  }

  @Test
  void aSilentClientIsDroppedAfterTheReadTimeout() throws Exception {
    server = MetricsServer.start("127.0.0.1", 0, () -> "x\n");
    Socket stalled = open();
    stalled.getOutputStream().write("GET /metrics HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
    stalled.setSoTimeout(60_000);
    // The server closes it (read returns -1) rather than waiting for the rest forever.
    assertThat(stalled.getInputStream().read()).isEqualTo(-1);
  }

  @Test
  void anOversizedRequestHeadIsRefused() throws Exception {
    server = MetricsServer.start("127.0.0.1", 0, () -> "x\n");
    Socket s = open();
    OutputStream out = s.getOutputStream();
    StringBuilder head = new StringBuilder("GET /metrics HTTP/1.1\r\n");
    while (head.length() <= MetricsServer.MAX_REQUEST_BYTES) {
      head.append("X-Filler: 0123456789012345678901234567890123456789\r\n");
    }
    out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
    out.flush();
    s.setSoTimeout(60_000);
    assertThat(readAll(s.getInputStream())).startsWith("HTTP/1.1 431 ");
  }

  @Test
  void otherPathsAndMethodsGetNoPage() throws Exception {
    server = MetricsServer.start("127.0.0.1", 0, () -> "x\n");
    assertThat(get("/")).startsWith("404");
    Socket s = open();
    s.getOutputStream().write("POST /metrics HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    s.setSoTimeout(60_000);
    assertThat(readAll(s.getInputStream())).startsWith("HTTP/1.1 405 ");
  }

  @Test
  void connectionsHeldOpenAtOnceAreBounded() throws Exception {
    server = MetricsServer.start("127.0.0.1", 0, () -> "x\n");
    for (int i = 0; i < 3 * MetricsServer.MAX_CONNECTIONS; i++) {
      Socket s = open();
      s.getOutputStream().write('G');
    }
    // Connections beyond the bound are closed at accept: each of these ends with EOF or a reset.
    int closedByServer = 0;
    for (Socket s : sockets) {
      s.setSoTimeout(60_000);
      try {
        if (s.getInputStream().read() == -1) {
          closedByServer++;
        }
      } catch (java.io.IOException reset) {
        closedByServer++;
      }
    }
    assertThat(closedByServer).isEqualTo(sockets.size());
    assertThat(server.mostOpenConnections()).isBetween(1, MetricsServer.MAX_CONNECTIONS);
  }

  private Socket open() throws Exception {
    Socket s = new Socket("127.0.0.1", server.port());
    sockets.add(s);
    return s;
  }

  private String get(String path) throws Exception {
    HttpURLConnection c =
        (HttpURLConnection) new URL("http://127.0.0.1:" + server.port() + path).openConnection();
    c.setConnectTimeout(30_000);
    c.setReadTimeout(30_000);
    int code = c.getResponseCode();
    InputStream in = code == 200 ? c.getInputStream() : c.getErrorStream();
    return code + " " + readAll(in);
  }

  private static String readAll(InputStream in) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    for (int r; (r = in.read(buf)) >= 0; ) {
      b.write(buf, 0, r);
    }
    return new String(b.toByteArray(), StandardCharsets.UTF_8);
  }
}
