package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class HistogramTest {

  @Test
  void everyValueFallsInsideItsBucketBounds() {
    Random r = new Random(42);
    for (int precision : new int[] {1, 3, 7}) {
      for (int i = 0; i < 100_000; i++) {
        long v = i < 5000 ? i : (r.nextLong() >>> 1) >>> r.nextInt(63);
        int index = Histogram.bucketIndex(v, precision);
        assertThat(index).isBetween(0, Histogram.bucketCount(precision) - 1);
        assertThat(Histogram.bucketLowerBound(index, precision)).isLessThanOrEqualTo(v);
        assertThat(Histogram.bucketUpperBound(index, precision)).isGreaterThanOrEqualTo(v);
      }
      assertThat(Histogram.bucketIndex(Long.MAX_VALUE, precision))
          .isEqualTo(Histogram.bucketCount(precision) - 1);
    }
  }

  @Test
  void smallValuesAreExactAndLargeOnesWithinRelativeError() {
    Histogram h = new Histogram(Histogram.COUNT_PRECISION);
    for (int i = 1; i <= 100; i++) {
      h.record(i);
    }
    assertThat(h.quantile(0.5)).isEqualTo(50);
    assertThat(h.quantile(0.99)).isEqualTo(99);
    assertThat(h.quantile(1.0)).isEqualTo(100);

    Histogram lat = new Histogram(Histogram.LATENCY_PRECISION);
    lat.record(1_000_000);
    long q = lat.quantile(0.5);
    assertThat(q).isBetween(1_000_000L, 1_000_000L); // clamped to the recorded max
    lat.record(2_000_000);
    assertThat(lat.quantile(0.5)).isBetween(1_000_000L, 1_125_000L);
  }

  @Test
  void quantilesNeverUnderstateForSizing() {
    Histogram h = new Histogram(Histogram.COUNT_PRECISION);
    for (int i = 0; i < 99; i++) {
      h.record(130);
    }
    h.record(5000);
    assertThat(h.quantile(0.99)).isGreaterThanOrEqualTo(130);
    assertThat(h.quantile(1.0)).isEqualTo(5000);
  }

  @Test
  void negativeValuesCountAsZero() {
    Histogram h = new Histogram(3);
    h.record(-5);
    assertThat(h.count()).isEqualTo(1);
    assertThat(h.min()).isZero();
  }

  @Test
  void histogramsOfDifferentPrecisionDoNotMerge() {
    assertThatThrownBy(() -> new Histogram(3).add(new Histogram(7)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("precision");
  }

  @Test
  void concurrentHistogramSnapshotMatchesSequentialRecording() throws Exception {
    ConcurrentHistogram c = new ConcurrentHistogram(Histogram.LATENCY_PRECISION);
    Histogram expected = new Histogram(Histogram.LATENCY_PRECISION);
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      final int seed = t;
      threads[t] =
          new Thread(
              () -> {
                Random r = new Random(seed);
                for (int i = 0; i < 50_000; i++) {
                  c.record(r.nextInt(10_000_000));
                }
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    for (int t = 0; t < threads.length; t++) {
      Random r = new Random(t);
      for (int i = 0; i < 50_000; i++) {
        expected.record(r.nextInt(10_000_000));
      }
    }
    assertThat(c.snapshot()).isEqualTo(expected);
  }
}
