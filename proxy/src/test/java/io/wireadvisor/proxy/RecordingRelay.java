package io.wireadvisor.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay that records every byte it passes, per direction and per connection: what an
 * eavesdropper on that leg would see. Bounded: at most {@link #MAX_RECORDED} bytes per
 * direction of each connection; past it {@link #overflowed()} is true and a test must not
 * conclude anything from the recording.
 */
final class RecordingRelay implements AutoCloseable {
  static final int MAX_RECORDED = 8 << 20;

  private final ServerSocket listener;
  private final String targetHost;
  private final int targetPort;
  private final List<Socket> sockets = new ArrayList<>();
  private final List<Leg> legs = new ArrayList<>();
  private boolean overflowed;

  /** One accepted connection: what the connecting side sent, what the target sent back. */
  static final class Leg {
    final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
    final ByteArrayOutputStream fromServer = new ByteArrayOutputStream();

    /**
     * True when the connecting side switched to TLS: its second packet, after the 4-byte header
     * and 32-byte SSLRequest, is a TLS handshake record (0x16 0x03).
     */
    synchronized boolean clientSentTls() {
      byte[] b = fromClient.toByteArray();
      return b.length > 38 && (b[3] & 0xff) == 1 && (b[0] & 0xff) == 32 && b[36] == 0x16 && b[37] == 0x03;
    }
  }

  RecordingRelay(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::acceptLoop, "recording-relay-" + listener.getLocalPort());
    accept.setDaemon(true);
    accept.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** The connections accepted so far, oldest first. */
  synchronized List<Leg> legs() {
    return new ArrayList<>(legs);
  }

  synchronized boolean overflowed() {
    return overflowed;
  }

  /** True when every connection this relay opened or accepted is closed. */
  synchronized boolean allClosed() {
    return sockets.stream().allMatch(Socket::isClosed);
  }

  /** Forgets what was recorded (between two logins of a test). */
  synchronized void clear() {
    legs.clear();
  }

  /** True when {@code secret} (UTF-8) occurs in any recorded byte, either direction. */
  synchronized boolean saw(String secret) {
    String needle = new String(secret.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    for (Leg leg : legs) {
      synchronized (leg) {
        if (leg.fromClient.toString(StandardCharsets.ISO_8859_1).contains(needle)
            || leg.fromServer.toString(StandardCharsets.ISO_8859_1).contains(needle)) {
          return true;
        }
      }
    }
    return false;
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket();
        server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
        Leg leg = new Leg();
        synchronized (this) {
          sockets.add(client);
          sockets.add(server);
          legs.add(leg);
        }
        pump(client, server, leg, leg.fromClient);
        pump(server, client, leg, leg.fromServer);
      } catch (IOException e) {
        // closed, or the target refused: the client sees its connection close
      }
    }
  }

  private void pump(Socket from, Socket to, Leg leg, ByteArrayOutputStream record) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                  synchronized (leg) {
                    if (record.size() + n <= MAX_RECORDED) {
                      record.write(buffer, 0, n);
                    } else {
                      synchronized (RecordingRelay.this) {
                        overflowed = true;
                      }
                    }
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "recording-relay-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing
    }
  }

  @Override
  public synchronized void close() {
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing
    }
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
