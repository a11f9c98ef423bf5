package io.wireadvisor.agent.advice;

import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code NativeProtocol.quit()}, which sends COM_QUIT with {@code send(...)} rather
 * than {@code sendCommand}: when it returns normally the packet went out. Either way it closes the
 * socket; when it throws (the socket was already gone), the connection ended without COM_QUIT.
 */
public final class QuitAdvice {
  private QuitAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static long enter() {
    return System.nanoTime();
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(
      @Advice.This Object self, @Advice.Enter long start, @Advice.Thrown Throwable thrown) {
    if (thrown == null) {
      Hooks.quit(self, start);
    } else {
      Hooks.closedWithoutQuit(self);
    }
  }
}
