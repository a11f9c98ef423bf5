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
 * An OK result (no rows) is left alone: {@code sendCommand}'s advice saw that packet.
 */
public final class ResultsetReadAdvice {
  private ResultsetReadAdvice() {}

  @Advice.OnMethodExit(suppress = Throwable.class)
  static void exit(
      @Advice.FieldValue("protocol") Object protocol, @Advice.Return Object result) {
    if (!(result instanceof Resultset) || !((Resultset) result).hasRows()) {
      return;
    }
    ResultsetRows rows = ((Resultset) result).getRows();
    NativeProtocol p = (NativeProtocol) protocol;
    Hooks.resultSet(
        p, rows instanceof ResultsetRowsStatic ? rows.size() : -1, p.getServerSession().getStatusFlags());
  }
}
