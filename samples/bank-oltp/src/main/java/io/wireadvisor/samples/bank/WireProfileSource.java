package io.wireadvisor.samples.bank;

import io.wireadvisor.profile.TrafficProfile;

/**
 * A collector's traffic profile of this JVM's own Connector/J traffic, in windows: {@link #reset()}
 * while the application is idle opens one, {@link #profile()} reads what went on the wire since.
 * {@link AgentProfiles} is the implementation (the wire-advisor agent, in-process).
 */
public interface WireProfileSource {
  /** A short description for reports, e.g. {@code wire-advisor agent (attached in-process)}. */
  String describe();

  /** Forgets everything recorded so far. */
  void reset() throws Exception;

  /** Everything recorded since the last {@link #reset()}. */
  TrafficProfile profile() throws Exception;
}
