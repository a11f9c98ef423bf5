package io.wireadvisor.agent.advice;

import com.mysql.cj.protocol.Resultset;
import com.mysql.cj.protocol.ResultsetRows;
import com.mysql.cj.protocol.a.NativeProtocol;
import com.mysql.cj.protocol.a.result.ResultsetRowsStatic;
import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code TextResultsetReader.read} and {@code BinaryResultsetReader.read}, which read
 * one result of a COM_QUERY or COM_STMT_EXECUTE after {@code sendCommand} returned its first
 * packet: hands {@link Hooks#resultSet} the rows read in full (a streamed or cursor result is not
 * counted) and the status flags the result's last packet left in the driver's server session.
 * An OK result (no rows) that was the reply's first packet is left alone: {@code sendCommand}'s
 * advice saw it; one after a result set ends the reply ({@link Hooks#followingResult}).
 */
public final class ResultsetReadAdvice {
  private ResultsetReadAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class)
  static void exit(
      @Advice.FieldValue("protocol") Object protocol, @Advice.Return Object result) {
    if (!(result instanceof Resultset)) {
      return;
    }
    NativeProtocol p = (NativeProtocol) protocol;
    if (!((Resultset) result).hasRows()) {
      // An OK after a result set of the same reply (a multi-statement query, a CALL): its status
      // ends the reply, which sendCommand's advice did not see. The first result's OK it did.
      Hooks.followingResult(p, p.getServerSession().getStatusFlags());
      return;
    }
    ResultsetRows rows = ((Resultset) result).getRows();
    Hooks.resultSet(
        p, rows instanceof ResultsetRowsStatic ? rows.size() : -1, p.getServerSession().getStatusFlags());
  }
}
