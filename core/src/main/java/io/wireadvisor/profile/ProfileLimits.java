package io.wireadvisor.profile;

/**
 * What a profile reader accepts, so that a forged or corrupt file cannot exhaust the reader's
 * memory: every limit is checked while streaming, before the value it limits is kept. The
 * defaults are far above what the collectors write (see {@code docs/profile.md}, "Limits").
 */
public final class ProfileLimits {
  /** Default largest profile file: 64 MiB. */
  public static final long DEFAULT_MAX_BYTES = 64L << 20;

  /** Default most shapes in one profile (collectors keep 5,000 by default). */
  public static final int DEFAULT_MAX_SHAPES = 20_000;

  /** Longest string value, in characters (digest texts and samples are single SQL statements). */
  public static final int MAX_STRING_CHARS = 4 << 20;

  /** Longest field name (JDBC property names, probe causes, command names). */
  public static final int MAX_NAME_CHARS = 1024;

  /** Deepest nesting a profile has: {@code shapes[i].latencyNanos.buckets[j][k]}. */
  public static final int MAX_DEPTH = 6;

  /** Most sources in one profile (one per collector instance and driver configuration). */
  public static final int MAX_SOURCES = 10_000;

  /** Most elements of any other array or fields of any object. */
  public static final int MAX_ELEMENTS = 10_000;

  /** Most JSON values in one source, shape, or the commands, probes or connections section. */
  public static final int MAX_VALUES_PER_ENTRY = 100_000;

  private static final ProfileLimits DEFAULTS = new ProfileLimits(DEFAULT_MAX_BYTES, DEFAULT_MAX_SHAPES);

  private final long maxBytes;
  private final int maxShapes;

  private ProfileLimits(long maxBytes, int maxShapes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("the profile size limit must be at least 1 byte");
    }
    if (maxShapes < 1) {
      throw new IllegalArgumentException("the shape limit must be at least 1");
    }
    this.maxBytes = maxBytes;
    this.maxShapes = maxShapes;
  }

  public static ProfileLimits defaults() {
    return DEFAULTS;
  }

  public ProfileLimits withMaxBytes(long bytes) {
    return new ProfileLimits(bytes, maxShapes);
  }

  public ProfileLimits withMaxShapes(int shapes) {
    return new ProfileLimits(maxBytes, shapes);
  }

  /** Largest profile accepted, in bytes of UTF-8 JSON. */
  public long maxBytes() {
    return maxBytes;
  }

  /** Most shapes accepted in one profile. */
  public int maxShapes() {
    return maxShapes;
  }
}
