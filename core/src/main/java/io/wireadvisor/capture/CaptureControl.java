package io.wireadvisor.capture;

import io.wireadvisor.profile.WireSession;

/**
 * What a collector's connections need to take part in captures: the capture running now (if any)
 * and the byte bounds of the statement texts every connection keeps for one. The proxy's and the
 * agent's capture control implement it; {@link CaptureSession} is the per-connection part.
 */
public interface CaptureControl {
  /** The capture running now, or null. */
  CaptureRun active();

  /** Statement-text bytes held by every connection (see {@link CaptureSession}). */
  WireSession.Budget textBudget();

  /** At most this many text bytes per connection. */
  long textBytesPerConnection();

  /** At most this many text bytes over all connections. */
  long textBytesTotal();
}
