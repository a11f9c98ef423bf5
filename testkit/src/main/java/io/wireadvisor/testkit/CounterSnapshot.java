package io.wireadvisor.testkit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-command counts read from a server at one moment, or the difference of two such readings.
 * Commands the server does not count are absent and read as 0; check {@link
 * ServerCounters#exactCommands()} before trusting a 0.
 */
public final class CounterSnapshot {
  private final Map<String, Long> counts;

  /** @param counts command name (see {@link Commands}) to count; copied */
  public CounterSnapshot(Map<String, Long> counts) {
    this.counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
  }

  /** The count for a command name from {@link Commands}, 0 when the server does not report it. */
  public long get(String command) {
    return counts.getOrDefault(command, 0L);
  }

  /** This snapshot less an earlier one: the commands the server saw in between. */
  public CounterSnapshot minus(CounterSnapshot earlier) {
    Map<String, Long> delta = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      delta.put(e.getKey(), e.getValue() - earlier.get(e.getKey()));
    }
    return new CounterSnapshot(delta);
  }

  /** The counts by command name, in {@link Commands#ALL} order where known; unmodifiable. */
  public Map<String, Long> asMap() {
    return counts;
  }

  @Override
  public String toString() {
    return counts.toString();
  }
}
