package io.wireadvisor.profile;

import java.util.Arrays;

/**
 * A log-linear histogram of non-negative longs (latencies in nanoseconds, per-connection counts).
 *
 * <p>Values below {@code 2^precisionBits} are kept exactly; above, each power of two is split into
 * {@code 2^(precisionBits-1)} equal buckets, so a value is known to within a relative error of
 * {@code 2^-(precisionBits-1)}. Bucket boundaries depend only on {@code precisionBits}: histograms of
 * the same precision merge by adding counts, which is exact, associative and commutative.
 *
 * <pre>
 *   precisionBits = 3:  0 1 2 3 4 5 6 7 | 8-9 10-11 12-13 14-15 | 16-19 20-23 ... | ...
 *                       exact            | 4 buckets per octave from here on
 * </pre>
 *
 * <p>Not thread-safe; collectors record into {@link ConcurrentHistogram} and take snapshots.
 */
public final class Histogram {
  /** Precision used for latencies: 12.5% relative error, about 250 buckets. */
  public static final int LATENCY_PRECISION = 3;

  /** Precision used for per-connection distributions: exact below 128, 1.6% above. */
  public static final int COUNT_PRECISION = 7;

  private final int precisionBits;
  private final long[] counts;
  private long count;
  private long sum;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;

  public Histogram(int precisionBits) {
    if (precisionBits < 1 || precisionBits > 10) {
      throw new IllegalArgumentException("precisionBits must be 1..10, was " + precisionBits);
    }
    this.precisionBits = precisionBits;
    this.counts = new long[bucketCount(precisionBits)];
  }

  /** Number of buckets for values 0..Long.MAX_VALUE at this precision. */
  static int bucketCount(int precisionBits) {
    int exact = 1 << precisionBits;
    return exact + (63 - precisionBits) * (exact >> 1);
  }

  /** The bucket holding {@code value} (which must be >= 0). */
  static int bucketIndex(long value, int precisionBits) {
    int exact = 1 << precisionBits;
    if (value < exact) {
      return (int) value;
    }
    int msb = 63 - Long.numberOfLeadingZeros(value);
    int shift = msb - precisionBits + 1;
    int mantissa = (int) (value >>> shift); // in [exact/2, exact)
    return exact + (msb - precisionBits) * (exact >> 1) + (mantissa - (exact >> 1));
  }

  /** The smallest value that falls into {@code index}. */
  static long bucketLowerBound(int index, int precisionBits) {
    int exact = 1 << precisionBits;
    if (index < exact) {
      return index;
    }
    int k = index - exact;
    int half = exact >> 1;
    int msb = k / half + precisionBits;
    long mantissa = (k % half) + half;
    return mantissa << (msb - precisionBits + 1);
  }

  /** The largest value that falls into {@code index}. */
  static long bucketUpperBound(int index, int precisionBits) {
    if (index + 1 >= bucketCount(precisionBits)) {
      return Long.MAX_VALUE;
    }
    return bucketLowerBound(index + 1, precisionBits) - 1;
  }

  public int precisionBits() {
    return precisionBits;
  }

  /** Records one value; negative values are recorded as 0 (a clock that went backwards). */
  public void record(long value) {
    recordMany(value, 1);
  }

  void recordMany(long value, long times) {
    long v = Math.max(0, value);
    counts[bucketIndex(v, precisionBits)] += times;
    count += times;
    sum += v * times;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }

  /** Restores a bucket from its serialized form; {@code lowerBound} must be a bucket boundary. */
  void addBucket(long lowerBound, long bucketCount) {
    int index = bucketIndex(lowerBound, precisionBits);
    if (bucketLowerBound(index, precisionBits) != lowerBound) {
      throw new IllegalArgumentException(
          lowerBound + " is not a bucket boundary at precision " + precisionBits);
    }
    counts[index] += bucketCount;
  }

  /** Sets the exact summary fields after {@link #addBucket} (used when reading JSON). */
  void setSummary(long count, long sum, long min, long max) {
    this.count = count;
    this.sum = sum;
    this.min = count == 0 ? Long.MAX_VALUE : min;
    this.max = count == 0 ? Long.MIN_VALUE : max;
  }

  /** Adds {@code other} into this histogram. */
  public void add(Histogram other) {
    if (other.precisionBits != precisionBits) {
      throw new IllegalArgumentException(
          "cannot merge histograms of precision " + precisionBits + " and " + other.precisionBits);
    }
    for (int i = 0; i < counts.length; i++) {
      counts[i] += other.counts[i];
    }
    count += other.count;
    sum += other.sum;
    min = Math.min(min, other.min);
    max = Math.max(max, other.max);
  }

  /**
   * A histogram of {@code n} values distributed as this one's (each bucket scaled by {@code n /
   * count()}, the rounding remainder put in the median's bucket; the sum scaled alike, min and max
   * kept): a part of a histogram recorded for several clients together, when only the part's count
   * is known. {@code n} at most {@link #count()}; 0 gives an empty histogram.
   */
  public Histogram share(long n) {
    Histogram h = new Histogram(precisionBits);
    if (n <= 0 || count == 0) {
      return h;
    }
    if (n >= count) {
      h.add(this);
      return h;
    }
    double f = (double) n / count;
    long given = 0;
    for (int i = 0; i < counts.length; i++) {
      h.counts[i] = (long) Math.floor(counts[i] * f);
      given += h.counts[i];
    }
    h.counts[bucketIndex(quantile(0.5), precisionBits)] += n - given;
    h.count = n;
    h.sum = Math.round(sum * f);
    h.min = min;
    h.max = max;
    return h;
  }

  public Histogram copy() {
    Histogram copy = new Histogram(precisionBits);
    copy.add(this);
    return copy;
  }

  public long count() {
    return count;
  }

  public long sum() {
    return sum;
  }

  /** Smallest recorded value, or 0 when empty. */
  public long min() {
    return count == 0 ? 0 : min;
  }

  /** Largest recorded value, or 0 when empty. */
  public long max() {
    return count == 0 ? 0 : max;
  }

  public double mean() {
    return count == 0 ? 0 : (double) sum / count;
  }

  /**
   * The value at quantile {@code q} (0..1), reported as the upper bound of its bucket (clamped to
   * the recorded maximum): a size derived from it is never too small.
   */
  public long quantile(double q) {
    if (count == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(Math.max(0, Math.min(1, q)) * count);
    rank = Math.max(1, rank);
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(max, Math.max(min, bucketUpperBound(i, precisionBits)));
      }
    }
    return max;
  }

  /** Visits non-empty buckets in ascending order. */
  public void forEachBucket(BucketVisitor visitor) {
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] != 0) {
        visitor.visit(
            bucketLowerBound(i, precisionBits), bucketUpperBound(i, precisionBits), counts[i]);
      }
    }
  }

  /** Receives one non-empty bucket. */
  public interface BucketVisitor {
    void visit(long lowerBound, long upperBound, long count);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Histogram)) {
      return false;
    }
    Histogram h = (Histogram) o;
    return precisionBits == h.precisionBits
        && count == h.count
        && sum == h.sum
        && min() == h.min()
        && max() == h.max()
        && Arrays.equals(counts, h.counts);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(counts) + Long.hashCode(count);
  }

  @Override
  public String toString() {
    return "Histogram{count=" + count + ", mean=" + mean() + ", max=" + max() + "}";
  }
}
