package io.wireadvisor.profile;

import java.util.Objects;

/** How often one command type went on the wire, and how long the server took to answer. */
public final class CommandStats {
  private long count;
  private Histogram latency;

  public CommandStats(long count, Histogram latency) {
    this.count = count;
    this.latency = latency;
  }

  public long count() {
    return count;
  }

  /** Request-to-response latency in nanoseconds, or null when the collector cannot time it. */
  public Histogram latency() {
    return latency;
  }

  public void add(CommandStats other) {
    count += other.count;
    if (other.latency != null) {
      if (latency == null) {
        latency = other.latency.copy();
      } else {
        latency.add(other.latency);
      }
    }
  }

  public CommandStats copy() {
    return new CommandStats(count, latency == null ? null : latency.copy());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CommandStats
        && count == ((CommandStats) o).count
        && Objects.equals(latency, ((CommandStats) o).latency);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(count);
  }

  @Override
  public String toString() {
    return "CommandStats{count=" + count + ", latency=" + latency + "}";
  }
}
