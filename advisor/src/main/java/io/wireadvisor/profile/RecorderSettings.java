package io.wireadvisor.profile;

/**
 * Bounds and privacy settings of a {@link ProfileRecorder}. The defaults are safe for production:
 * bounded memory, no SQL text with literals kept.
 */
public final class RecorderSettings {
  private final int maxShapes;
  private final int maxTexts;
  private final boolean sampleSql;
  /** Default {@link #maxTextBytes()}: 32 MiB. */
  public static final long DEFAULT_MAX_TEXT_BYTES = 32L << 20;
  /** Default {@link #maxShapeBytes()}: 64 MiB. */
  public static final long DEFAULT_MAX_SHAPE_BYTES = 64L << 20;
  private long maxTextBytes = DEFAULT_MAX_TEXT_BYTES;
  private long maxShapeBytes = DEFAULT_MAX_SHAPE_BYTES;

  /**
   * @param maxShapes distinct digests kept before new shapes go to the overflow bucket (>= 2: one
   *     slot is the overflow bucket itself)
   * @param maxTexts distinct SQL texts remembered for a map-lookup-only fast path; when full the
   *     memory is forgotten and refilled (nothing counted is lost)
   * @param sampleSql keep one original text per shape: off by default, literals may hold personal
   *     data
   */
  public RecorderSettings(int maxShapes, int maxTexts, boolean sampleSql) {
    if (maxShapes < 2) {
      throw new IllegalArgumentException("maxShapes must be >= 2, was " + maxShapes);
    }
    if (maxTexts < 1) {
      throw new IllegalArgumentException("maxTexts must be >= 1, was " + maxTexts);
    }
    this.maxShapes = maxShapes;
    this.maxTexts = maxTexts;
    this.sampleSql = sampleSql;
  }

  public static RecorderSettings defaults() {
    return new RecorderSettings(TrafficProfile.DEFAULT_MAX_SHAPES, 20_000, false);
  }

  public int maxShapes() {
    return maxShapes;
  }

  public int maxTexts() {
    return maxTexts;
  }

  public boolean sampleSql() {
    return sampleSql;
  }

  /**
   * Bytes (estimated, UTF-16) of the remembered texts and their classifications; when full the
   * memory is forgotten and refilled, like {@link #maxTexts()}.
   */
  public long maxTextBytes() {
    return maxTextBytes;
  }

  /**
   * Bytes (estimated) of what shapes hold besides their counters: digest texts, table names,
   * samples. Past it, new shapes count in the overflow bucket, as past {@link #maxShapes()}.
   */
  public long maxShapeBytes() {
    return maxShapeBytes;
  }

  public RecorderSettings withMaxShapes(int max) {
    return copyBytes(new RecorderSettings(max, maxTexts, sampleSql));
  }

  public RecorderSettings withSampleSql(boolean sample) {
    return copyBytes(new RecorderSettings(maxShapes, maxTexts, sample));
  }

  /** The byte bounds of the text memory and of the shapes (each at least 1). */
  public RecorderSettings withMaxBytes(long textBytes, long shapeBytes) {
    if (textBytes < 1 || shapeBytes < 1) {
      throw new IllegalArgumentException("byte bounds must be >= 1");
    }
    RecorderSettings s = new RecorderSettings(maxShapes, maxTexts, sampleSql);
    s.maxTextBytes = textBytes;
    s.maxShapeBytes = shapeBytes;
    return s;
  }

  private RecorderSettings copyBytes(RecorderSettings s) {
    s.maxTextBytes = maxTextBytes;
    s.maxShapeBytes = maxShapeBytes;
    return s;
  }
}
