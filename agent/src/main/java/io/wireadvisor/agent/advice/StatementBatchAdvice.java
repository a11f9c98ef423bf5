package io.wireadvisor.agent.advice;

import com.mysql.cj.jdbc.StatementImpl;
import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/** Inlined into {@code StatementImpl.executeBatchInternal()}: a batch of SQL texts. */
public final class StatementBatchAdvice {
  private StatementBatchAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static void enter(@Advice.This Object self) {
    Hooks.statementBatch(((StatementImpl) self).getBatchedArgs());
  }
}
