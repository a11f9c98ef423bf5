package io.wireadvisor.profile;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Session-variable probes of one kind: how many, and which driver or pool call caused them (agent
 * only; a proxy cannot see the caller, so its causes stay empty).
 */
public final class ProbeStats {
  /** Cause recorded when the collector cannot tell which call produced the probe. */
  public static final String UNKNOWN_CAUSE = "unknown";

  private long count;
  private final TreeMap<String, Long> causes = new TreeMap<>();

  public long count() {
    return count;
  }

  /** Count per cause, e.g. {@code getTransactionIsolation}, {@code hikari.reset}. */
  public Map<String, Long> causes() {
    return Collections.unmodifiableMap(causes);
  }

  public void add(long n) {
    count += n;
  }

  public void addCause(String cause, long n) {
    Long old = causes.get(cause);
    causes.put(cause, old == null ? n : old + n);
  }

  public void add(ProbeStats other) {
    count += other.count;
    for (Map.Entry<String, Long> e : other.causes.entrySet()) {
      addCause(e.getKey(), e.getValue());
    }
  }

  public ProbeStats copy() {
    ProbeStats copy = new ProbeStats();
    copy.add(this);
    return copy;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProbeStats
        && count == ((ProbeStats) o).count
        && causes.equals(((ProbeStats) o).causes);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(count) * 31 + causes.hashCode();
  }

  @Override
  public String toString() {
    return "ProbeStats{count=" + count + ", causes=" + causes + "}";
  }
}
