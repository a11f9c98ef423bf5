package io.wireadvisor.profile;

/**
 * Bounds and privacy settings of a {@link ProfileRecorder}. The defaults are safe for production:
 * bounded memory, no SQL text with literals kept.
 */
public final class RecorderSettings {
  private final int maxShapes;
  private final int maxTexts;
  private final boolean sampleSql;

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

  public RecorderSettings withMaxShapes(int max) {
    return new RecorderSettings(max, maxTexts, sampleSql);
  }

  public RecorderSettings withSampleSql(boolean sample) {
    return new RecorderSettings(maxShapes, maxTexts, sample);
  }
}
