package io.wireadvisor.agent;

import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;

/**
 * The agent's hooks driven by hand, as Connector/J's advice drives them: one call per command with
 * its payload, its first reply packet and whether it failed. For tests outside the agent's package
 * that feed both collectors the same traffic.
 */
public final class AgentFeed {
  private final Object protocol = new Object();

  /** A fresh window (and connection table entries stay): activates the hooks. */
  public AgentFeed() {
    Hooks.configure(RecorderSettings.defaults());
    Hooks.activate();
  }

  /** One command went out and its reply began with {@code firstReply} (null: none was read). */
  public void command(byte[] payload, byte[] firstReply, boolean failed) {
    Hooks.command(protocol, payload, payload.length, System.nanoTime(), firstReply, failed, false);
  }

  /**
   * As {@link #command(byte[], byte[], boolean)}, with the failure's error code and SQLSTATE as the
   * driver's exception carries them (from the ERR that ended the reply; -1 and null when none).
   */
  public void command(byte[] payload, byte[] firstReply, boolean failed, int errorCode, String sqlState) {
    Hooks.command(protocol, payload, payload.length, System.nanoTime(), firstReply, failed, false,
        errorCode, sqlState);
  }

  /** COM_QUIT. */
  public void quit() {
    Hooks.quit(protocol, System.nanoTime());
  }

  public TrafficProfile profile() {
    return Hooks.snapshot();
  }

  /** Turns the hooks off again (the JVM is shared with other tests). */
  public void close() {
    Hooks.deactivate();
  }
}
