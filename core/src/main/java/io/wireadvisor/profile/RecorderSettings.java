package io.wireadvisor.profile;

/**
 * Bounds and privacy settings of a {@link ProfileRecorder}. The defaults are safe for production:
 * bounded memory, no SQL text with literals kept.
 */
public final class RecorderSettings {
  private final int maxShapes;
  private final int maxTexts;
  private final boolean sampleSql;
  private final long maxTextBytes;
  private final long maxShapeBytes;

  /** Default bound of the remembered texts' accounted bytes: 4 MiB. */
  public static final long DEFAULT_MAX_TEXT_BYTES = 4L << 20;
  /** Default bound of the shapes' accounted bytes (counters, histogram, texts): 16 MiB. */
  public static final long DEFAULT_MAX_SHAPE_BYTES = 16L << 20;

  /**
   * @param maxShapes distinct digests kept before new shapes go to the overflow bucket (>= 2: one
   *     slot is the overflow bucket itself)
   * @param maxTexts distinct SQL texts remembered for a map-lookup-only fast path; when full the
   *     memory is forgotten and refilled (nothing counted is lost)
   * @param sampleSql keep one original text per shape: off by default, literals may hold personal
   *     data
   */
  public RecorderSettings(int maxShapes, int maxTexts, boolean sampleSql) {
    this(maxShapes, maxTexts, sampleSql, DEFAULT_MAX_TEXT_BYTES, DEFAULT_MAX_SHAPE_BYTES);
  }

  /**
   * @param maxTextBytes accounted bytes of remembered texts (2 per char plus a fixed cost per
   *     entry); when exceeded the memory is forgotten and refilled, like {@code maxTexts}
   * @param maxShapeBytes accounted bytes of the shapes (a fixed cost each for counters and
   *     histogram, 2 per char of digest text, table names and sample); past it, new shapes go to
   *     the overflow bucket, like {@code maxShapes}
   */
  public RecorderSettings(
      int maxShapes, int maxTexts, boolean sampleSql, long maxTextBytes, long maxShapeBytes) {
    if (maxTextBytes < 1 || maxShapeBytes < 1) {
      throw new IllegalArgumentException("byte bounds must be >= 1");
    }
    this.maxTextBytes = maxTextBytes;
    this.maxShapeBytes = maxShapeBytes;
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

  public long maxTextBytes() {
    return maxTextBytes;
  }

  public long maxShapeBytes() {
    return maxShapeBytes;
  }

  public RecorderSettings withMaxShapes(int max) {
    return new RecorderSettings(max, maxTexts, sampleSql, maxTextBytes, maxShapeBytes);
  }

  public RecorderSettings withSampleSql(boolean sample) {
    return new RecorderSettings(maxShapes, maxTexts, sample, maxTextBytes, maxShapeBytes);
  }

  /** The byte bounds of the remembered texts and of the shapes (each at least 1). */
  public RecorderSettings withMaxBytes(long textBytes, long shapeBytes) {
    return new RecorderSettings(maxShapes, maxTexts, sampleSql, textBytes, shapeBytes);
  }
}
