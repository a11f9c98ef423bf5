package io.wireadvisor.agent.advice;

import com.mysql.cj.PreparedQuery;
import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code ClientPreparedStatement.executeInternal(...)}: a client-side prepared
 * statement is about to send its SQL with the parameters inlined as literals. Telling the hook
 * the template (the {@code ?} text) spares decoding and classifying a new text per execution.
 */
public final class ClientPreparedExecuteAdvice {
  private ClientPreparedExecuteAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static String enter(@Advice.FieldValue("query") Object query) {
    return Hooks.enterTemplate(((PreparedQuery) query).getOriginalSql());
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.Enter String previous) {
    Hooks.exitTemplate(previous);
  }
}
