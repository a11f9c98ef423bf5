package io.wireadvisor.agent.advice;

import io.wireadvisor.agent.internal.Causes;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into driver methods that send session probes ({@code getTransactionIsolation},
 * {@code setAutoCommit}, {@code loadServerVariables}, ...): marks the thread as inside that call.
 */
public final class DriverCauseAdvice {
  private DriverCauseAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static int enter(@CauseId int cause) {
    return Causes.enterDriver(cause);
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.Enter int previous) {
    Causes.exitDriver(previous);
  }
}
