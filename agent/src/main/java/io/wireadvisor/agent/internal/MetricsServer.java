package io.wireadvisor.agent.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A minimal HTTP/1.x server for one read-only page ({@code GET /metrics}), made to run inside
 * someone else's production JVM: a client can hold at most one worker for {@link
 * #REQUEST_DEADLINE_MILLIS}, a request head larger than {@link #MAX_REQUEST_BYTES} is refused,
 * at most {@link #MAX_CONNECTIONS} connections are served or queued at once (further ones are
 * closed at accept), and every thread is a daemon. One connection, one response: {@code
 * Connection: close}.
 *
 * <p>The JDK's {@code HttpServer} with a single-thread executor (what the agent used before) was
 * blocked for good by one client that sent half a request line and stopped.
 */
public final class MetricsServer {
  /** Worker threads: one slow client cannot starve a scrape. */
  public static final int WORKERS = 2;
  /** Connections being served or waiting for a worker; more are closed right after accept. */
  public static final int MAX_CONNECTIONS = 16;
  /** Request line plus headers. */
  public static final int MAX_REQUEST_BYTES = 8 * 1024;
  /** Socket read timeout: a client silent for this long is dropped. */
  public static final int READ_TIMEOUT_MILLIS = 2_000;
  /** A whole request must arrive within this, however slowly it trickles in. */
  public static final int REQUEST_DEADLINE_MILLIS = 5_000;

  private final ServerSocket socket;
  private final Supplier<String> page;
  private final ThreadPoolExecutor workers;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger mostOpen = new AtomicInteger();
  private volatile boolean closed;

  private MetricsServer(ServerSocket socket, Supplier<String> page) {
    this.socket = socket;
    this.page = page;
    this.workers =
        new ThreadPoolExecutor(
            WORKERS, WORKERS, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<Runnable>(MAX_CONNECTIONS - WORKERS),
            r -> daemon(r, "wire-advisor-prometheus"));
  }

  /** Binds {@code host:port} (port 0: any free port) and starts accepting. */
  public static MetricsServer start(String host, int port, Supplier<String> page) throws IOException {
    ServerSocket s = new ServerSocket();
    try {
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port), MAX_CONNECTIONS);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    MetricsServer server = new MetricsServer(s, page);
    daemon(server::acceptLoop, "wire-advisor-prometheus-accept").start();
    return server;
  }

  /** The bound port (the chosen one when started with port 0). */
  public int port() {
    return socket.getLocalPort();
  }

  /** The most connections ever open at once (served or queued). */
  public int mostOpenConnections() {
    return mostOpen.get();
  }

  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    workers.shutdownNow();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue;
      }
      int n = open.incrementAndGet();
      if (n > MAX_CONNECTIONS) {
        release(client);
        continue;
      }
      mostOpen.accumulateAndGet(n, Math::max);
      try {
        workers.execute(() -> serve(client));
      } catch (RejectedExecutionException e) {
        release(client);
      }
    }
  }

  private void release(Socket client) {
    open.decrementAndGet();
    try {
      client.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }

  private void serve(Socket client) {
    try {
      client.setSoTimeout(READ_TIMEOUT_MILLIS);
      String requestLine = readHead(client.getInputStream());
      OutputStream out = client.getOutputStream();
      if (requestLine == null) {
        respond(out, "431 Request Header Fields Too Large", "request too large or too slow\n");
      } else if (!requestLine.startsWith("GET ")) {
        respond(out, "405 Method Not Allowed", "only GET\n");
      } else {
        String path = requestLine.substring(4);
        int sp = path.indexOf(' ');
        path = sp < 0 ? path : path.substring(0, sp);
        if ("/metrics".equals(path) || path.startsWith("/metrics?")) {
          respond(out, "200 OK", page.get());
        } else {
          respond(out, "404 Not Found", "see /metrics\n");
        }
      }
    } catch (IOException | RuntimeException e) {
      // A client that vanished or stalled: drop it.
    } finally {
      release(client);
    }
  }

  /**
   * Reads the request head up to its blank line; returns the request line, or null when the head
   * exceeds {@link #MAX_REQUEST_BYTES} or did not arrive within {@link #REQUEST_DEADLINE_MILLIS}.
   * Throws {@link SocketTimeoutException} for a client silent for {@link #READ_TIMEOUT_MILLIS}.
   */
  static String readHead(InputStream in) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REQUEST_DEADLINE_MILLIS);
    byte[] head = new byte[MAX_REQUEST_BYTES];
    int n = 0;
    while (true) {
      if (n == head.length || System.nanoTime() - deadline > 0) {
        return null;
      }
      int r = in.read(head, n, head.length - n);
      if (r < 0) {
        throw new IOException("closed before the end of the request head");
      }
      int from = Math.max(0, n - 3);
      n += r;
      for (int i = from; i + 3 < n; i++) {
        if (head[i] == '\r' && head[i + 1] == '\n' && head[i + 2] == '\r' && head[i + 3] == '\n') {
          int eol = 0;
          while (head[eol] != '\r') {
            eol++;
          }
          return new String(head, 0, eol, StandardCharsets.ISO_8859_1);
        }
      }
    }
  }

  private static void respond(OutputStream out, String status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 " + status + "\r\n"
            + "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
            + "Content-Length: " + b.length + "\r\n"
            + "Connection: close\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(b);
    out.flush();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
