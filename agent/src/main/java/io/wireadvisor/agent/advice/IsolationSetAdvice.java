package io.wireadvisor.agent.advice;

import com.mysql.cj.jdbc.ConnectionImpl;
import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined at the normal end of {@code ConnectionImpl.setTransactionIsolation(int)} (same signature
 * in 8.0.x – 9.x): the connection's statements now run under {@code level} (the driver either sent
 * the SET or knew the session already had that level). A throw leaves the isolation as it was.
 */
public final class IsolationSetAdvice {
  private IsolationSetAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class)
  static void exit(@Advice.This Object self, @Advice.Argument(0) int level) {
    Hooks.isolationSet(((ConnectionImpl) self).getSession().getProtocol(), level);
  }
}
