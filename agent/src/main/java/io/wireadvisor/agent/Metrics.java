package io.wireadvisor.agent;

/** Micrometer meters and the Prometheus endpoint (see docs/agent.md). */
final class Metrics {
  private Metrics() {}

  static void start(AgentOptions options) {
    // Filled in below.
  }
}
