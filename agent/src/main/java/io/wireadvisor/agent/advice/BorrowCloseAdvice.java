package io.wireadvisor.agent.advice;

import io.wireadvisor.agent.internal.Causes;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into HikariCP's {@code ProxyConnection.close()}: the pool takes the connection back
 * (after its rollback of a dirty transaction and its state reset). Marks the thread, so that the
 * driver connection's {@code clearWarnings} (HikariCP's last call on it in {@code close}, see
 * {@link BorrowReturnedAdvice}) tells the connection's session that the borrow ended. HikariCP's
 * classes are not referenced: the advice only touches the agent's thread state.
 */
public final class BorrowCloseAdvice {
  private BorrowCloseAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static int enter() {
    return Causes.enterBorrowClose();
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.Enter int previous) {
    Causes.exitBorrowClose(previous);
  }
}
