package io.wireadvisor.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few Docker Engine API calls the probe needs (ping, version, is an image there, pull one),
 * made without Testcontainers so that a refusal can be told apart from a missing engine, an engine
 * too old for the client, or an image that cannot be pulled. Plain HTTP/1.0 over the engine's Unix
 * socket or a {@code tcp://} {@code DOCKER_HOST}; an engine behind TLS is left to Testcontainers.
 */
final class DockerEngine {
  /** Engine answers are small; a pull's progress stream is kept only as its last bytes. */
  static final int MAX_ANSWER_BYTES = 64 * 1024;

  private static final Pattern MESSAGE = Pattern.compile("\"(?:message|error)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** An HTTP status and the body (its last {@link #MAX_ANSWER_BYTES} bytes when longer). */
  record Answer(int status, String body) {
    /** The engine's own error text, when the body carries one. */
    Optional<String> message() {
      Matcher m = MESSAGE.matcher(body);
      String last = null;
      while (m.find()) {
        last = m.group(1).replace("\\\"", "\"");
      }
      return Optional.ofNullable(last);
    }
  }

  private final String description;
  private final Path unixSocket;
  private final String tcpHost;
  private final int tcpPort;

  private DockerEngine(String description, Path unixSocket, String tcpHost, int tcpPort) {
    this.description = description;
    this.unixSocket = unixSocket;
    this.tcpHost = tcpHost;
    this.tcpPort = tcpPort;
  }

  /**
   * The engine {@code DOCKER_HOST} names, else the default socket; empty when it is one this class
   * cannot talk to (TLS, ssh, npipe) or no socket exists.
   */
  static Optional<DockerEngine> locate(String dockerHost, boolean tlsVerify) {
    if (dockerHost == null || dockerHost.isBlank()) {
      Path sock = Path.of("/var/run/docker.sock");
      return Files.exists(sock) ? Optional.of(new DockerEngine("unix://" + sock, sock, null, 0)) : Optional.empty();
    }
    URI uri;
    try {
      uri = URI.create(dockerHost.trim());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if ("unix".equals(uri.getScheme()) && uri.getPath() != null) {
      return Optional.of(new DockerEngine(dockerHost, Path.of(uri.getPath()), null, 0));
    }
    if ("tcp".equals(uri.getScheme()) && !tlsVerify && uri.getHost() != null) {
      return Optional.of(new DockerEngine(dockerHost, null, uri.getHost(), uri.getPort() < 0 ? 2375 : uri.getPort()));
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return description;
  }

  /** {@code GET /version}: the engine's version and the API version it speaks. */
  String[] version() throws IOException {
    Answer a = call("GET", "/version");
    if (a.status() != 200) {
      throw new IOException("GET /version answered " + a.status() + a.message().map(m -> ": " + m).orElse(""));
    }
    return new String[] {field(a.body(), "Version"), field(a.body(), "ApiVersion")};
  }

  /** Whether the engine holds the image (by name and tag, as given). */
  boolean hasImage(String image) throws IOException {
    Answer a = call("GET", "/images/" + image + "/json");
    if (a.status() == 200 || a.status() == 404) {
      return a.status() == 200;
    }
    throw new IOException("GET /images/" + image + "/json answered " + a.status() + a.message().map(m -> ": " + m).orElse(""));
  }

  /**
   * Pulls the image; empty when it arrived, else why not (the registry's or the engine's words).
   * The engine reports a failed pull either as an error status or as an error line in its stream.
   */
  Optional<String> pull(String image) throws IOException {
    int colon = image.lastIndexOf(':');
    boolean tagged = colon > image.lastIndexOf('/');
    String from = tagged ? image.substring(0, colon) : image;
    String tag = tagged ? image.substring(colon + 1) : "latest";
    Answer a =
        call("POST", "/images/create?fromImage=" + URLEncoder.encode(from, StandardCharsets.UTF_8)
            + "&tag=" + URLEncoder.encode(tag, StandardCharsets.UTF_8));
    if (a.status() != 200 || a.body().contains("\"error\"")) {
      return Optional.of(a.message().orElse("the engine answered " + a.status()));
    }
    return hasImage(image) ? Optional.empty() : Optional.of("the pull ended without the image");
  }

  /** One request, the connection closed after it (HTTP/1.0: no chunked bodies to undo). */
  Answer call(String method, String path) throws IOException {
    byte[] request =
        (method + " " + path + " HTTP/1.0\r\nHost: docker\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    if (unixSocket != null) {
      try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        ch.connect(UnixDomainSocketAddress.of(unixSocket));
        ch.write(ByteBuffer.wrap(request));
        return read(Channels.newInputStream(ch));
      }
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(tcpHost, tcpPort), 5_000);
      s.setSoTimeout(600_000);
      OutputStream out = s.getOutputStream();
      out.write(request);
      out.flush();
      return read(s.getInputStream());
    }
  }

  private static Answer read(InputStream in) throws IOException {
    // Keeps the head (status line) and the last MAX_ANSWER_BYTES of the rest: bounded whatever the engine streams.
    byte[] ring = new byte[MAX_ANSWER_BYTES];
    long total = 0;
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      for (int i = 0; i < n; i++) {
        if (head.size() < 1024) {
          head.write(buf[i]);
        }
        ring[(int) (total++ % MAX_ANSWER_BYTES)] = buf[i];
      }
    }
    String status = head.toString(StandardCharsets.ISO_8859_1);
    if (!status.startsWith("HTTP/")) {
      throw new IOException("not an HTTP answer from the engine");
    }
    int code = Integer.parseInt(status.substring(9, 12));
    String text;
    if (total <= MAX_ANSWER_BYTES) {
      text = new String(ring, 0, (int) total, StandardCharsets.UTF_8);
      int bodyAt = text.indexOf("\r\n\r\n");
      text = bodyAt < 0 ? "" : text.substring(bodyAt + 4);
    } else {
      int start = (int) (total % MAX_ANSWER_BYTES);
      byte[] tail = new byte[MAX_ANSWER_BYTES];
      System.arraycopy(ring, start, tail, 0, MAX_ANSWER_BYTES - start);
      System.arraycopy(ring, 0, tail, MAX_ANSWER_BYTES - start, start);
      text = new String(tail, StandardCharsets.UTF_8);
    }
    return new Answer(code, text);
  }

  private static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : "?";
  }
}
