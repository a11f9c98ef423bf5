package io.wireadvisor.proxy;

import io.wireadvisor.capture.CaptureControl;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureRun;
import io.wireadvisor.capture.CaptureWriter;
import io.wireadvisor.profile.WireSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The proxy's capture of a window of traffic to a file (docs/replay.md): at most one at a time,
 * started at start-up ({@code --capture FILE}) or by the admin endpoint ({@code POST
 * /capture/start}, only into {@code --capture-dir}), ended by its size or time limit or by {@code
 * POST /capture/stop}. Connections write through their {@link SessionCapture}. Thread-safe.
 */
final class ProxyCapture implements CaptureControl {
  /** A file name an admin call may give: no path, no leading dot, no surprises. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  private final CaptureSettings settings;
  /** Statement texts kept by every connection for replay: bounded in bytes like the statement ids. */
  private final WireSession.Budget textBudget = new WireSession.Budget();
  private final long textBytesPerConnection;
  private final long textBytesTotal;
  private volatile CaptureRun active;
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

  @Override
  public WireSession.Budget textBudget() {
    return textBudget;
  }

  @Override
  public long textBytesPerConnection() {
    return textBytesPerConnection;
  }

  @Override
  public long textBytesTotal() {
    return textBytesTotal;
  }

  /** The capture under way, or null; one that a limit ended is finished here. */
  @Override
  public CaptureRun active() {
    CaptureRun a = active;
    if (a != null && a.over()) {
      finish(a, a.writeFailed() ? "write failed" : "limit reached");
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
  CaptureRun startAtLaunch() throws IOException {
    return start(settings.startFile(), settings.maxBytes(), settings.maxSeconds(), settings.maskValues());
  }

  /**
   * Starts a capture into {@code name} within {@code --capture-dir}; limits at most the configured
   * ones. Refused (IllegalStateException / IllegalArgumentException with the reason) when admin
   * capture is off, a capture is running, or the name is not a plain file name.
   */
  CaptureRun startInDirectory(String name, Long maxBytes, Long maxSeconds, Boolean mask)
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
    // Repeated captures must not fill the disk the proxy (or the database) lives on.
    long free = java.nio.file.Files.getFileStore(settings.dir()).getUsableSpace();
    if (free < 2 * bytes) {
      throw new IllegalStateException(
          settings.dir() + " has " + free + " bytes free; a capture of up to " + bytes
              + " bytes needs twice that: remove old captures or lower maxBytes");
    }
    return start(settings.dir().resolve(name), bytes, seconds, masked);
  }

  private synchronized CaptureRun start(Path file, long maxBytes, long maxSeconds, boolean masked)
      throws IOException {
    if (active() != null) {
      throw new IllegalStateException("a capture is already running: " + active.file());
    }
    CaptureHeader header =
        new CaptureHeader(
            "proxy", WireProxy.VERSION, server, System.currentTimeMillis(), masked, Map.of());
    CaptureWriter writer = CaptureWriter.create(file, header, maxBytes, maxSeconds);
    CaptureRun a = new CaptureRun(writer, file, masked);
    active = a;
    // The time limit holds without traffic too (else an idle capture ran on, found in review).
    timer().schedule(() -> {
      synchronized (this) {
        if (active == a) {
          finish(a, "time limit");
        }
      }
    }, maxSeconds, java.util.concurrent.TimeUnit.SECONDS);
    return a;
  }

  /** Stops the capture under way; returns what it wrote, or null when none was running. */
  synchronized Summary stop() {
    CaptureRun a = active;
    if (a == null) {
      return null;
    }
    return finish(a, "stopped");
  }

  private synchronized Summary finish(CaptureRun a, String why) {
    if (active != a) {
      return last;
    }
    active = null;
    boolean limit = a.writer().ended() && !a.writeFailed();
    try {
      a.writer().close();
    } catch (IOException e) {
      why = why + "; closing the file failed: " + e.getMessage();
    }
    last = new Summary(a.file(), a.writer().events(), a.writer().dropped(), a.writer().bytes(),
        a.connections(), limit ? "limit reached" : why);
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
    CaptureRun a = active();
    if (a != null) {
      return "{\"running\":true,\"file\":" + quote(a.file().toString()) + ",\"events\":"
          + a.writer().events() + ",\"bytes\":" + a.writer().bytes() + ",\"connections\":"
          + a.connections() + ",\"valuesMasked\":" + a.masked() + "}";
    }
    Summary s = last;
    return "{\"running\":false,\"adminCapture\":" + (settings.dir() != null)
        + (s == null ? "" : ",\"last\":" + s.json()) + "}";
  }

  private java.util.concurrent.ScheduledExecutorService timer;

  private synchronized java.util.concurrent.ScheduledExecutorService timer() {
    if (timer == null) {
      timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "wire-advisor-capture-timer");
        t.setDaemon(true);
        return t;
      });
    }
    return timer;
  }

  /** Ends the capture at shutdown. */
  synchronized void close() {
    stop();
    if (timer != null) {
      timer.shutdownNow();
    }
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
