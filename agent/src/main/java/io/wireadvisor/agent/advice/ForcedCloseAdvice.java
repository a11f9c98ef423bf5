package io.wireadvisor.agent.advice;

import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code NativeProtocol.releaseResources()}, which only {@code
 * NativeSession.forceClose()} calls, right after it closed the socket without COM_QUIT
 * ({@code Connection.abort}, a forced close, a failed connect or reconnect; Connector/J 8.0.13 to
 * 9.x).
 */
public final class ForcedCloseAdvice {
  private ForcedCloseAdvice() {}

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.This Object self) {
    Hooks.closedWithoutQuit(self);
  }
}
