package io.wireadvisor.proxy;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureWriter;
import io.wireadvisor.profile.WireSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The proxy's capture of a window of traffic to a file (docs/replay.md): at most one at a time,
 * started at start-up ({@code --capture FILE}) or by the admin endpoint ({@code POST
 * /capture/start}, only into {@code --capture-dir}), ended by its size or time limit or by {@code
 * POST /capture/stop}. Connections write through their {@link SessionCapture}. Thread-safe.
 */
final class ProxyCapture {
  /** A file name an admin call may give: no path, no leading dot, no surprises. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  /** One capture under way: its file and clock. */
  static final class Active {
    final CaptureWriter writer;
    final Path file;
    final long startNanos = System.nanoTime();
    final boolean masked;
    final AtomicLong connections = new AtomicLong();
    final AtomicLong writeFailures = new AtomicLong();

    Active(CaptureWriter writer, Path file, boolean masked) {
      this.writer = writer;
      this.file = file;
      this.masked = masked;
    }

    /** Microseconds since this capture started, at {@code nanos}. */
    long micros(long nanos) {
      return Math.max(0, (nanos - startNanos) / 1_000);
    }

    void write(CaptureEvent event) {
      try {
        writer.write(event);
      } catch (IOException e) {
        // The disk filled or the file went away: the capture ends, forwarding goes on.
        writeFailures.incrementAndGet();
        try {
          writer.close();
        } catch (IOException ignored) {
          // already failing
        }
      }
    }
  }

  private final CaptureSettings settings;
  /** Statement texts kept by every connection for replay: bounded in bytes like the statement ids. */
  final WireSession.Budget textBudget = new WireSession.Budget();
  private final long textBytesPerConnection;
  private final long textBytesTotal;
  private volatile Active active;
  private volatile String server;
  private volatile Summary last;

  ProxyCapture(CaptureSettings settings, ProxyLimits limits) {
    this.settings = settings;
    this.textBytesPerConnection = limits.statementBytesPerConnection();
    this.textBytesTotal = limits.statementBytesTotal();
  }

  /** Whether connections keep what a capture needs (statement texts), now or for a later one. */
  boolean enabled() {
    return settings.enabled();
  }

  long textBytesPerConnection() {
    return textBytesPerConnection;
  }

  long textBytesTotal() {
    return textBytesTotal;
  }

  /** The capture under way, or null; one that a limit ended is finished here. */
  Active active() {
    Active a = active;
    if (a != null && (a.writer.ended() || a.writeFailures.get() > 0)) {
      finish(a, a.writeFailures.get() > 0 ? "write failed" : "limit reached");
      return null;
    }
    return a;
  }

  /** The upstream's version (for the capture's header), once known. */
  void server(String version) {
    if (server == null) {
      server = version;
    }
  }

  /** Starts the capture {@code --capture FILE} asks for. */
  Active startAtLaunch() throws IOException {
    return start(settings.startFile(), settings.maxBytes(), settings.maxSeconds(), settings.maskValues());
  }

  /**
   * Starts a capture into {@code name} within {@code --capture-dir}; limits at most the configured
   * ones. Refused (IllegalStateException / IllegalArgumentException with the reason) when admin
   * capture is off, a capture is running, or the name is not a plain file name.
   */
  Active startInDirectory(String name, Long maxBytes, Long maxSeconds, Boolean mask)
      throws IOException {
    if (settings.dir() == null) {
      throw new IllegalStateException(
          "capture by the admin endpoint is off: start the proxy with --capture-dir DIR");
    }
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "name must be a plain file name (letters, digits, '.', '_', '-'; at most 100; not"
              + " starting with '.'), was " + (name == null ? "missing" : "'" + name + "'"));
    }
    long bytes = maxBytes == null ? settings.maxBytes() : maxBytes;
    long seconds = maxSeconds == null ? settings.maxSeconds() : maxSeconds;
    if (bytes > settings.maxBytes() || seconds > settings.maxSeconds()) {
      throw new IllegalArgumentException(
          "maxBytes and maxSeconds may lower the proxy's limits (" + settings.maxBytes() + " bytes, "
              + settings.maxSeconds() + " s), not raise them");
    }
    // Masked when the proxy says so, whatever the call asks.
    boolean masked = settings.maskValues() || Boolean.TRUE.equals(mask);
    return start(settings.dir().resolve(name), bytes, seconds, masked);
  }

  private synchronized Active start(Path file, long maxBytes, long maxSeconds, boolean masked)
      throws IOException {
    if (active() != null) {
      throw new IllegalStateException("a capture is already running: " + active.file);
    }
    CaptureHeader header =
        new CaptureHeader(
            "proxy", WireProxy.VERSION, server, System.currentTimeMillis(), masked, Map.of());
    CaptureWriter writer = CaptureWriter.create(file, header, maxBytes, maxSeconds);
    Active a = new Active(writer, file, masked);
    active = a;
    return a;
  }

  /** Stops the capture under way; returns what it wrote, or null when none was running. */
  synchronized Summary stop() {
    Active a = active;
    if (a == null) {
      return null;
    }
    return finish(a, "stopped");
  }

  private synchronized Summary finish(Active a, String why) {
    if (active != a) {
      return last;
    }
    active = null;
    boolean limit = a.writer.ended();
    try {
      a.writer.close();
    } catch (IOException e) {
      why = why + "; closing the file failed: " + e.getMessage();
    }
    last = new Summary(a.file, a.writer.events(), a.writer.dropped(), a.writer.bytes(),
        a.connections.get(), limit ? "limit reached" : why);
    return last;
  }

  /** What a capture wrote. */
  record Summary(Path file, long events, long dropped, long bytes, long connections, String reason) {
    String json() {
      return "{\"file\":" + quote(file.toString()) + ",\"events\":" + events + ",\"dropped\":"
          + dropped + ",\"bytes\":" + bytes + ",\"connections\":" + connections + ",\"ended\":"
          + quote(reason) + "}";
    }
  }

  /** The admin endpoint's view: the capture running, or the last one. */
  String statusJson() {
    Active a = active();
    if (a != null) {
      return "{\"running\":true,\"file\":" + quote(a.file.toString()) + ",\"events\":"
          + a.writer.events() + ",\"bytes\":" + a.writer.bytes() + ",\"connections\":"
          + a.connections.get() + ",\"valuesMasked\":" + a.masked + "}";
    }
    Summary s = last;
    return "{\"running\":false,\"adminCapture\":" + (settings.dir() != null)
        + (s == null ? "" : ",\"last\":" + s.json()) + "}";
  }

  /** Ends the capture at shutdown. */
  void close() {
    stop();
  }

  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
