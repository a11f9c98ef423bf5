package io.wireadvisor.agent.internal;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;

/**
 * One recording window: a recorder and the caches that point into it. {@code AgentApi.reset()}
 * replaces the current window as a whole, so nothing recorded after a reset lands in the old one
 * and per-connection state notices the change by comparing references.
 */
public final class Window {
  public final ProfileRecorder recorder;
  public final TextCache texts;
  public final long startMillis;
  /** Distinct per window: what outlives a window (a prepared statement) keeps this, not the window. */
  public final long id = IDS.incrementAndGet();

  private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();

  public Window(RecorderSettings settings) {
    this.recorder = new ProfileRecorder(settings);
    this.texts = new TextCache(this, recorder, 4096);
    this.startMillis = System.currentTimeMillis();
  }
}
