package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The probe's own engine client, against a loopback HTTP peer that answers as the Docker Engine API
 * does (the real engine is {@link DockerProbeIT}'s).
 */
class DockerEngineTest {
  @Test
  void dockerHostFormsItCanAndCannotFollow() {
    assertThat(DockerEngine.locate("unix:///run/user/1000/docker.sock", false)).map(Object::toString)
        .contains("unix:///run/user/1000/docker.sock");
    assertThat(DockerEngine.locate("tcp://127.0.0.1:2375", false)).isPresent();
    // TLS and ssh are Testcontainers' to follow; the probe then only asks Testcontainers.
    assertThat(DockerEngine.locate("tcp://127.0.0.1:2376", true)).isEmpty();
    assertThat(DockerEngine.locate("ssh://user@host", false)).isEmpty();
    assertThat(DockerEngine.locate("not a uri", false)).isEmpty();
  }

  @Test
  void versionAndApiVersionAreReadFromTheEngine() throws Exception {
    try (Peer peer = new Peer("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"
        + "{\"Version\":\"20.10.24+dfsg1\",\"ApiVersion\":\"1.41\",\"MinAPIVersion\":\"1.12\"}")) {
      assertThat(peer.engine().version()).containsExactly("20.10.24+dfsg1", "1.41");
      assertThat(peer.request()).startsWith("GET /version HTTP/1.0\r\n");
    }
  }

  @Test
  void aMissingImageIsNotAnError() throws Exception {
    try (Peer peer = new Peer("HTTP/1.0 404 Not Found\r\n\r\n{\"message\":\"No such image: x:1\"}")) {
      assertThat(peer.engine().hasImage("x:1")).isFalse();
      assertThat(peer.request()).startsWith("GET /images/x:1/json ");
    }
  }

  @Test
  void aRefusedPullSaysTheRegistrysWords() throws Exception {
    String refused = "{\"message\":\"Get \\\"https://registry-1.docker.io/v2/\\\": dial tcp: no such host\"}";
    try (Peer peer = new Peer("HTTP/1.0 500 Internal Server Error\r\n\r\n" + refused)) {
      assertThat(peer.engine().pull("pingcap/tidb:v8.5.3"))
          .contains("Get \"https://registry-1.docker.io/v2/\": dial tcp: no such host");
      assertThat(peer.request()).startsWith("POST /images/create?fromImage=pingcap%2Ftidb&tag=v8.5.3 ");
    }
  }

  @Test
  void aPullThatFailsMidStreamIsAFailure() throws Exception {
    try (Peer peer = new Peer("HTTP/1.0 200 OK\r\n\r\n{\"status\":\"Pulling from x\"}\n"
        + "{\"errorDetail\":{\"message\":\"unauthorized\"},\"error\":\"unauthorized: authentication required\"}\n")) {
      assertThat(peer.engine().pull("private/x:1")).contains("unauthorized: authentication required");
    }
  }

  @Test
  void anEndlessAnswerIsKeptOnlyAsItsLastBytes() throws Exception {
    // A pull streams progress for as long as it runs: the client must not hold it all.
    StringBuilder body = new StringBuilder();
    while (body.length() < 4 * DockerEngine.MAX_ANSWER_BYTES) {
      body.append("{\"status\":\"Downloading\",\"progress\":\"[=====>      ]\"}\n");
    }
    body.append("{\"error\":\"the last line\"}");
    try (Peer peer = new Peer("HTTP/1.0 200 OK\r\n\r\n" + body)) {
      DockerEngine.Answer a = peer.engine().call("POST", "/images/create?fromImage=x&tag=1");
      assertThat(a.status()).isEqualTo(200);
      assertThat(a.body().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(DockerEngine.MAX_ANSWER_BYTES);
      assertThat(a.message()).contains("the last line");
    }
  }

  @Test
  void somethingThatIsNotAnEngineIsNamedSo() throws Exception {
    try (Peer peer = new Peer("SSH-2.0-OpenSSH_9.2\r\n")) {
      assertThatThrownBy(() -> peer.engine().version()).hasMessageContaining("not an HTTP answer");
    }
  }

  @Test
  void noEngineThereIsReportedWithWhatToDo() {
    // Port 1 on loopback refuses at once.
    DockerEngine none = DockerEngine.locate("tcp://127.0.0.1:1", false).orElseThrow();
    assertThatThrownBy(() -> DockerProbe.engineVersion(none))
        .hasMessageContaining("no Docker engine answers on tcp://127.0.0.1:1")
        .hasMessageContaining("start it (dockerd, or the Docker service) or point DOCKER_HOST at one");
  }

  @Test
  void apiVersionsBelowWhatTestcontainersFallsBackToAreTold() {
    assertThat(DockerProbe.olderThan("1.31", 1, 32)).isTrue();
    assertThat(DockerProbe.olderThan("1.32", 1, 32)).isFalse();
    assertThat(DockerProbe.olderThan("1.41", 1, 32)).isFalse();
    assertThat(DockerProbe.olderThan("2.0", 1, 32)).isFalse();
    assertThat(DockerProbe.olderThan("?", 1, 32)).isFalse();
  }

  @Test
  void theRyukImageIsTheOneTestcontainersStarts() throws Exception {
    // Testcontainers names it only in a package-private class, whose getter would pull the image:
    // read the name from that class's constants, so an upgrade that moves Ryuk to another image
    // fails here instead of the probe checking the wrong one.
    byte[] bytes;
    try (InputStream in = org.testcontainers.DockerClientFactory.class.getClassLoader()
        .getResourceAsStream("org/testcontainers/utility/RyukContainer.class")) {
      assertThat(in).as("RyukContainer.class").isNotNull();
      bytes = in.readAllBytes();
    }
    String constants = new String(bytes, StandardCharsets.ISO_8859_1);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("testcontainers/ryuk:[0-9A-Za-z._-]+").matcher(constants);
    assertThat(m.find()).as("an image name in RyukContainer").isTrue();
    assertThat(m.group()).isEqualTo(DockerProbe.RYUK_IMAGE);
  }

  /** One connection: reads the request head, writes the canned answer, closes. */
  private static final class Peer implements AutoCloseable {
    private final ServerSocket server;
    private final AtomicReference<String> request = new AtomicReference<>();
    private final Thread thread;

    Peer(String answer) throws IOException {
      server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      thread = new Thread(() -> serve(answer), "fake-engine");
      thread.setDaemon(true);
      thread.start();
    }

    private void serve(String answer) {
      try (Socket s = server.accept()) {
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
          int b = in.read();
          if (b < 0) {
            break;
          }
          head.append((char) b);
        }
        request.set(head.toString());
        OutputStream out = s.getOutputStream();
        out.write(answer.getBytes(StandardCharsets.UTF_8));
        out.flush();
      } catch (IOException ignored) {
        // The test's assertion says what went wrong.
      }
    }

    DockerEngine engine() {
      return DockerEngine.locate("tcp://127.0.0.1:" + server.getLocalPort(), false).orElseThrow();
    }

    String request() throws InterruptedException {
      thread.join(5_000);
      return request.get();
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
