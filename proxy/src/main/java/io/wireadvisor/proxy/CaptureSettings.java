package io.wireadvisor.proxy;

import java.nio.file.Path;

/**
 * How the proxy may capture traffic (docs/replay.md). Off unless {@code startFile} (capture from
 * the start) or {@code dir} (the directory an admin call may start a capture in) is set.
 *
 * @param startFile capture from start-up into this new file, or null
 * @param dir where {@code POST /capture/start?name=…} writes, or null (admin capture off)
 * @param maxBytes a capture's size limit (file bytes)
 * @param maxSeconds a capture's time limit
 * @param maskValues write values as type and length only
 */
record CaptureSettings(Path startFile, Path dir, long maxBytes, long maxSeconds, boolean maskValues) {
  static final long DEFAULT_MAX_BYTES = 64L << 20;
  static final long DEFAULT_MAX_SECONDS = 300;
  static final CaptureSettings OFF = new CaptureSettings(null, null, DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, false);

  CaptureSettings {
    if (maxBytes < 4096) {
      throw new IllegalArgumentException("--capture-max-bytes must be at least 4096, was " + maxBytes);
    }
    if (maxSeconds <= 0) {
      throw new IllegalArgumentException("--capture-max-seconds must be positive, was " + maxSeconds);
    }
  }

  /** Whether connections keep their prepared statements' texts for a capture (now or later). */
  boolean enabled() {
    return startFile != null || dir != null;
  }
}
