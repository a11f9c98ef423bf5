package io.wireadvisor.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureRun;
import io.wireadvisor.capture.CaptureSlot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The proxy's capture of a window of traffic to a file (docs/replay.md): at most one at a time
 * ({@link CaptureSlot}), started at start-up ({@code --capture FILE}) or by the admin endpoint
 * ({@code POST /capture/start}, only into {@code --capture-dir}), ended by its size or time limit
 * or by {@code POST /capture/stop}. Connections write through their {@link
 * io.wireadvisor.capture.CaptureSession}. Thread-safe.
 */
final class ProxyCapture extends CaptureSlot {
  /** A file name an admin call may give: no path, no leading dot, no surprises. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  private final CaptureSettings settings;
  private volatile String server;
  /** The upstream {@code host:port}, for the header: replay refuses to replay into it by default. */
  private final String upstream;

  ProxyCapture(CaptureSettings settings, ProxyLimits limits, String upstream) {
    super(limits.statementBytesPerConnection(), limits.statementBytesTotal());
    this.settings = settings;
    this.upstream = upstream;
  }

  /** Whether connections keep what a capture needs (statement texts), now or for a later one. */
  boolean enabled() {
    return settings.enabled();
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
   * capture is off, a capture is running, the name is not a plain file name, or the disk is short.
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
    if (bytes > settings.maxBytes() || seconds > settings.maxSeconds() || bytes < 4096 || seconds < 1) {
      throw new IllegalArgumentException(
          "maxBytes (at least 4096) and maxSeconds (at least 1) may lower the proxy's limits ("
              + settings.maxBytes() + " bytes, " + settings.maxSeconds() + " s), not raise them");
    }
    // Masked when the proxy says so, whatever the call asks.
    boolean masked = settings.maskValues() || Boolean.TRUE.equals(mask);
    // Repeated captures must not fill the disk the proxy (or the database) lives on.
    long free = Files.getFileStore(settings.dir()).getUsableSpace();
    if (free < 2 * bytes) {
      throw new IllegalStateException(
          settings.dir() + " has " + free + " bytes free; a capture of up to " + bytes
              + " bytes needs twice that: remove old captures or lower maxBytes");
    }
    return start(settings.dir().resolve(name), bytes, seconds, masked);
  }

  private CaptureRun start(Path file, long maxBytes, long maxSeconds, boolean masked) throws IOException {
    return start(file,
        CaptureHeader.builder("proxy", WireProxy.VERSION).server(server)
            .startedAtMillis(System.currentTimeMillis()).valuesMasked(masked).upstream(upstream).build(),
        maxBytes, maxSeconds);
  }

  static String json(Summary s) {
    return AdminJson.write(node(s));
  }

  private static ObjectNode node(Summary s) {
    ObjectNode o = AdminJson.object();
    o.put("file", s.file().toString());
    o.put("events", s.events());
    o.put("dropped", s.dropped());
    o.put("bytes", s.bytes());
    o.put("connections", s.connections());
    o.put("ended", s.ended());
    return o;
  }

  /** The admin endpoint's view: the capture running, or the last one. */
  String statusJson() {
    ObjectNode o = AdminJson.object();
    CaptureRun a = active();
    if (a != null) {
      o.put("running", true);
      o.put("file", a.file().toString());
      o.put("events", a.writer().events());
      o.put("bytes", a.writer().bytes());
      o.put("connections", a.connections());
      o.put("valuesMasked", a.masked());
      return AdminJson.write(o);
    }
    Summary s = last();
    o.put("running", false);
    o.put("adminCapture", settings.dir() != null);
    if (s != null) {
      o.set("last", node(s));
    }
    return AdminJson.write(o);
  }

}
