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
public record CaptureSettings(Path startFile, Path dir, long maxBytes, long maxSeconds, boolean maskValues) {
  public static final long DEFAULT_MAX_BYTES = 64L << 20;
  public static final long DEFAULT_MAX_SECONDS = 300;
  /** A week: longer is a mistake (and past 2^63 microseconds the writer's clock would overflow). */
  public static final long MAX_SECONDS = 7L * 24 * 3600;
  static final CaptureSettings OFF = new CaptureSettings(null, null, DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, false);

  public CaptureSettings {
    if (maxBytes < 4096) {
      throw new IllegalArgumentException("--capture-max-bytes must be at least 4096, was " + maxBytes);
    }
    if (maxSeconds <= 0 || maxSeconds > MAX_SECONDS) {
      throw new IllegalArgumentException(
          "--capture-max-seconds must be 1.." + MAX_SECONDS + " (a week), was " + maxSeconds);
    }
  }

  /** Capture from start-up into {@code file} (created new, 0600), within the default limits. */
  public static CaptureSettings toFile(Path file) {
    return new CaptureSettings(file, null, DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, false);
  }

  /** Whether connections keep their prepared statements' texts for a capture (now or later). */
  boolean enabled() {
    return startFile != null || dir != null;
  }
}
