package io.wireadvisor.agent.advice;

import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.protocol.Message;
import com.mysql.cj.protocol.a.NativePacketPayload;
import com.mysql.cj.protocol.a.NativeProtocol;
import io.wireadvisor.agent.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code NativeProtocol.sendCommand(Message, boolean, int)}, the one method every
 * command but COM_QUIT goes through (Connector/J 8.0.13 to 9.x): times the command and hands its
 * payload, and the first response packet, to {@link Hooks#command}.
 *
 * <p>With {@code queryInterceptors} configured, a command an interceptor answered itself
 * ({@link InterceptorsPreAdvice}) never went out and is not counted; without them (the common
 * case) the check is one null test of a field.
 */
public final class SendCommandAdvice {
  private SendCommandAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static long enter() {
    return System.nanoTime();
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(
      @Advice.This Object self,
      @Advice.Argument(0) Object packet,
      @Advice.Enter long start,
      @Advice.Return Object response,
      @Advice.Thrown Throwable thrown,
      @QueryInterceptors Object interceptors) {
    if (interceptors != null && Hooks.shortCircuited(response, thrown != null)) {
      return;
    }
    Message m = (Message) packet;
    byte[] buf = m.getByteBuffer();
    // The query-attributes flag matters only for COM_QUERY (0x03); read it only then.
    boolean attributes =
        buf != null
            && buf.length > 0
            && buf[0] == 3
            && ((NativeProtocol) self).getServerSession().supportsQueryAttributes();
    Hooks.command(
        self,
        buf,
        m.getPosition(),
        start,
        response == null ? null : ((NativePacketPayload) response).getByteBuffer(),
        thrown != null,
        attributes,
        thrown instanceof CJException ? ((CJException) thrown).getVendorCode() : -1,
        thrown instanceof CJException ? ((CJException) thrown).getSQLState() : null);
  }
}
