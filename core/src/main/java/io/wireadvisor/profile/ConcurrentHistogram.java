package io.wireadvisor.profile;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The recording side of {@link Histogram}: lock-free and allocation-free per value, for the
 * collectors' hot paths. A snapshot taken while values are recorded may be off by the values in
 * flight; it is never torn in a way that loses a value for good.
 */
public final class ConcurrentHistogram {
  private final int precisionBits;
  private final AtomicLongArray counts;
  private final LongAdder sum = new LongAdder();
  private final AtomicLong min = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong max = new AtomicLong(Long.MIN_VALUE);

  public ConcurrentHistogram(int precisionBits) {
    this.precisionBits = precisionBits;
    this.counts = new AtomicLongArray(Histogram.bucketCount(precisionBits));
  }

  public void record(long value) {
    long v = Math.max(0, value);
    counts.incrementAndGet(Histogram.bucketIndex(v, precisionBits));
    sum.add(v);
    // Reads first: after warm-up min/max rarely change, so the CAS loop almost never runs.
    long m = min.get();
    while (v < m && !min.compareAndSet(m, v)) {
      m = min.get();
    }
    m = max.get();
    while (v > m && !max.compareAndSet(m, v)) {
      m = max.get();
    }
  }

  /** Whether no value was recorded yet (as a snapshot, it may miss a value in flight). */
  public boolean isEmpty() {
    return max.get() == Long.MIN_VALUE;
  }

  /** A consistent-enough copy for reporting. */
  public Histogram snapshot() {
    Histogram h = new Histogram(precisionBits);
    long total = 0;
    for (int i = 0; i < counts.length(); i++) {
      long c = counts.get(i);
      if (c != 0) {
        h.addBucket(Histogram.bucketLowerBound(i, precisionBits), c);
        total += c;
      }
    }
    h.setSummary(total, sum.sum(), min.get(), max.get());
    return h;
  }
}
