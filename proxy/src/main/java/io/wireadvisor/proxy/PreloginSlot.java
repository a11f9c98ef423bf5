package io.wireadvisor.proxy;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client's place among those not logged in yet ({@link PreloginLimiter}): given back once,
 * when the client logs in (the server's OK to its login) or when its connection closes, whichever
 * comes first.
 */
final class PreloginSlot {
  private final PreloginLimiter limiter;
  private final InetAddress source;
  private final AtomicBoolean held = new AtomicBoolean(true);

  PreloginSlot(PreloginLimiter limiter, InetAddress source) {
    this.limiter = limiter;
    this.source = source;
  }

  void release() {
    if (held.compareAndSet(true, false)) {
      limiter.release(source);
    }
  }

  boolean held() {
    return held.get();
  }
}
