package io.wireadvisor.agent.advice;

import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code NativeProtocol.invokeQueryInterceptorsPre(Message, boolean)}, which
 * {@code sendCommand} calls only when {@code queryInterceptors} are configured: a non-null
 * packet from it is returned by {@code sendCommand} as the response and nothing goes on the wire,
 * and an exception from it leaves {@code sendCommand} before anything is sent.
 */
public final class InterceptorsPreAdvice {
  private InterceptorsPreAdvice() {}

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.Return Object packet, @Advice.Thrown Throwable thrown) {
    Hooks.interceptorsAnswered(packet, thrown != null);
  }
}
