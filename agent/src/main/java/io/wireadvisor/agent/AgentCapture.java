package io.wireadvisor.agent;

import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureSlot;
import io.wireadvisor.profile.WireSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The agent's capture of a window of traffic (docs/replay.md), for an application that cannot be
 * put behind the proxy: started by the {@code capture=<file>} option (from start-up) or by {@link
 * AgentApi#startCapture}, ended by its size or time limit, {@link AgentApi#stopCapture} or the
 * JVM's exit; one at a time ({@link CaptureSlot}). Same events as the proxy's ({@link
 * io.wireadvisor.capture.CaptureSession}). Connections keep their prepared statements' texts only
 * once capture was enabled (the option, or a first start).
 */
final class AgentCapture extends CaptureSlot {
  static final long DEFAULT_MAX_BYTES = 64L << 20;
  static final long DEFAULT_MAX_SECONDS = 300;
  static final long MAX_SECONDS = 7L * 24 * 3600;

  private static final AgentCapture INSTANCE = new AgentCapture();

  private volatile boolean enabled;

  private AgentCapture() {
    super(WireSession.DEFAULT_BYTES_PER_SESSION, WireSession.DEFAULT_BYTES_TOTAL);
  }

  static AgentCapture get() {
    return INSTANCE;
  }

  /** Whether connections take part (keep texts, write events): once a capture was asked for. */
  boolean enabled() {
    return enabled;
  }

  /**
   * Starts a capture into {@code file} (created new, 0600).
   *
   * @param jdbcProperties the application's JDBC properties for the header (secrets dropped there)
   * @throws IllegalStateException when one is running
   */
  void start(Path file, long maxBytes, long maxSeconds, boolean masked, String server,
      Map<String, String> jdbcProperties) throws IOException {
    if (maxSeconds <= 0 || maxSeconds > MAX_SECONDS) {
      throw new IllegalArgumentException("captureMaxSeconds must be 1.." + MAX_SECONDS + ", was " + maxSeconds);
    }
    enabled = true;
    start(file,
        CaptureHeader.builder("agent", AgentIdentity.version()).server(server)
            .startedAtMillis(System.currentTimeMillis()).valuesMasked(masked).jdbcProperties(jdbcProperties).build(),
        maxBytes, maxSeconds);
  }
}
