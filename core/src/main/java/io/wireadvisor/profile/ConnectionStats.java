package io.wireadvisor.profile;

import java.util.EnumMap;
import java.util.Map;

/**
 * Connections, aggregated: how many were seen and the distribution over connections of each
 * {@link ConnectionMetric}. One sample per connection; a connection still open at snapshot time
 * contributes its values so far.
 */
public final class ConnectionStats {
  private long connections;
  private final EnumMap<ConnectionMetric, Histogram> distributions =
      new EnumMap<>(ConnectionMetric.class);

  public ConnectionStats() {
    for (ConnectionMetric m : ConnectionMetric.values()) {
      distributions.put(m, new Histogram(Histogram.COUNT_PRECISION));
    }
  }

  /** Connections seen in the window. */
  public long connections() {
    return connections;
  }

  public void addConnections(long n) {
    connections += n;
  }

  public Histogram distribution(ConnectionMetric metric) {
    return distributions.get(metric);
  }

  /** Records one connection's values, indexed like {@link ConnectionMetric#values()}. */
  public void recordConnection(long[] values) {
    connections++;
    for (ConnectionMetric m : ConnectionMetric.values()) {
      distributions.get(m).record(values[m.ordinal()]);
    }
  }

  public void add(ConnectionStats other) {
    connections += other.connections;
    for (Map.Entry<ConnectionMetric, Histogram> e : other.distributions.entrySet()) {
      distributions.get(e.getKey()).add(e.getValue());
    }
  }

  public ConnectionStats copy() {
    ConnectionStats copy = new ConnectionStats();
    copy.add(this);
    return copy;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConnectionStats
        && connections == ((ConnectionStats) o).connections
        && distributions.equals(((ConnectionStats) o).distributions);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(connections);
  }
}
