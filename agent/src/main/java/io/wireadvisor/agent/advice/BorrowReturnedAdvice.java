package io.wireadvisor.agent.advice;

import com.mysql.cj.jdbc.ConnectionImpl;
import io.wireadvisor.agent.Hooks;
import io.wireadvisor.agent.internal.Causes;
import net.bytebuddy.asm.Advice;

/**
 * Inlined at the end of Connector/J's {@code ConnectionImpl.clearWarnings()}: inside HikariCP's
 * {@code ProxyConnection.close} ({@link BorrowCloseAdvice}) it is the pool's last call on the
 * connection before recycling it, after the rollback and reset, so the borrow ends here. Outside
 * {@code close} nothing happens (one thread-local read).
 */
public final class BorrowReturnedAdvice {
  private BorrowReturnedAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class)
  static void exit(@Advice.This Object self) {
    if (Causes.takeBorrowClose()) {
      Hooks.borrowEnded(((ConnectionImpl) self).getSession().getProtocol());
    }
  }
}
