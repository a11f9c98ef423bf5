package io.wireadvisor.agent.advice;

import io.wireadvisor.agent.internal.Causes;
import net.bytebuddy.asm.Advice;

/** Inlined into HikariCP's {@code PoolBase} validation, reset and setup methods. */
public final class PoolCauseAdvice {
  private PoolCauseAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static int enter(@CauseId int cause) {
    return Causes.enterPool(cause);
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.Enter int previous) {
    Causes.exitPool(previous);
  }
}
