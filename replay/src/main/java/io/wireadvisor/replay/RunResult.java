package io.wireadvisor.replay;

import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.TrafficProfile;
import java.util.Map;

/**
 * What one replay under one configuration measured.
 *
 * @param config the configuration
 * @param elapsedNanos wall time from the first session's start to the last one's end
 * @param businessStatements statements of the application's own work replayed (text statements
 *     that are not session chatter, and executions of prepared statements)
 * @param latencyMicros per business statement, as the replaying application saw it
 * @param wire the wire traffic of the replay, counted by an in-process proxy
 * @param newErrors errors the replay got where the captured statement succeeded, by message
 * @param expectedErrors errors the replay got where the captured statement failed too
 * @param skipped events not replayed, by reason
 * @param wrappedWrites autocommitted writes wrapped in a transaction that was rolled back
 * @param errorExamples for each key of {@code newErrors}, the first message of that group
 * @param driverVersion the Connector/J version replay ran
 */
public record RunResult(
    ReplayConfig config,
    long elapsedNanos,
    long businessStatements,
    Histogram latencyMicros,
    TrafficProfile wire,
    Map<String, Long> newErrors,
    long expectedErrors,
    Map<String, Long> skipped,
    long wrappedWrites,
    Map<String, String> errorExamples,
    String driverVersion) {

  /** Business statements per second of wall time. */
  public double throughput() {
    return elapsedNanos <= 0 ? 0 : businessStatements * 1e9 / elapsedNanos;
  }

  /** Wire commands (all types, session chatter and pool traffic included) per business statement. */
  public double commandsPerStatement() {
    return businessStatements == 0 ? 0 : (double) wire.totalCommands() / businessStatements;
  }

  public long newErrorCount() {
    long n = 0;
    for (long v : newErrors.values()) {
      n += v;
    }
    return n;
  }
}
