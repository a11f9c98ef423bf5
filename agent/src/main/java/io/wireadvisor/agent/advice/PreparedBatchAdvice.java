package io.wireadvisor.agent.advice;

import com.mysql.cj.jdbc.ClientPreparedStatement;
import io.wireadvisor.agent.Hooks;
import java.util.List;
import net.bytebuddy.asm.Advice;

/** Inlined into {@code ClientPreparedStatement.executeBatchInternal()} (server-prepared too). */
public final class PreparedBatchAdvice {
  private PreparedBatchAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static void enter(@Advice.This Object self) {
    ClientPreparedStatement ps = (ClientPreparedStatement) self;
    List<Object> batched = ps.getBatchedArgs();
    if (batched != null) {
      Hooks.preparedBatch(ps.getPreparedSql(), batched.size());
    }
  }
}
