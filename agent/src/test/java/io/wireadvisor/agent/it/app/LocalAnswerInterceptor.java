package io.wireadvisor.agent.it.app;

import com.mysql.cj.MysqlConnection;
import com.mysql.cj.Query;
import com.mysql.cj.interceptors.QueryInterceptor;
import com.mysql.cj.log.Log;
import com.mysql.cj.protocol.Message;
import com.mysql.cj.protocol.Resultset;
import com.mysql.cj.protocol.ServerSession;
import com.mysql.cj.protocol.a.NativePacketPayload;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A {@code queryInterceptors=} interceptor that answers every COM_QUERY whose text carries
 * {@link #MARKER} itself, with an OK packet, so that nothing is sent to the server; every other
 * command goes through untouched.
 */
public final class LocalAnswerInterceptor implements QueryInterceptor {
  public static final String MARKER = "/* answered locally */";
  /** Commands answered without the server, over all instances. */
  public static final AtomicInteger ANSWERED = new AtomicInteger();
  private static final byte[] MARKER_BYTES = MARKER.getBytes(StandardCharsets.US_ASCII);

  @Override
  public QueryInterceptor init(MysqlConnection conn, Properties props, Log log) {
    return this;
  }

  @Override
  public <T extends Resultset> T preProcess(Supplier<String> sql, Query interceptedQuery) {
    return null;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <M extends Message> M preProcess(M queryPacket) {
    byte[] b = queryPacket.getByteBuffer();
    int len = queryPacket.getPosition();
    if (len < 1 || b[0] != 3 || !contains(b, len)) {
      return null;
    }
    ANSWERED.incrementAndGet();
    // OK: header 0x00, affected rows 0, last insert id 0, status SERVER_STATUS_AUTOCOMMIT (2),
    // warnings 0, and an empty length-encoded info string (9.x reads it as lenenc, 8.0 up to a 0).
    return (M) new NativePacketPayload(new byte[] {0, 0, 0, 2, 0, 0, 0, 0});
  }

  private static boolean contains(byte[] b, int len) {
    outer:
    for (int i = 1; i + MARKER_BYTES.length <= len; i++) {
      for (int j = 0; j < MARKER_BYTES.length; j++) {
        if (b[i + j] != MARKER_BYTES[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Override
  public boolean executeTopLevelOnly() {
    return false;
  }

  @Override
  public void destroy() {}

  @Override
  public <T extends Resultset> T postProcess(
      Supplier<String> sql, Query interceptedQuery, T originalResultSet, ServerSession serverSession) {
    return null;
  }
}
