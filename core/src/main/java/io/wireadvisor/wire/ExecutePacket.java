package io.wireadvisor.wire;

/**
 * Reads the parameter values of a COM_STMT_EXECUTE, for capture.
 *
 * <pre>
 * 0x17 | statement_id (4) | flags (1) | iteration_count (4)
 * [lenenc parameter_count                 with CLIENT_QUERY_ATTRIBUTES and flags &amp; 0x08]
 * if parameter_count &gt; 0:
 *   null_bitmap ((count + 7) / 8) | new_params_bound_flag (1)
 *   if new_params_bound_flag = 1:
 *     count x (type (1) | unsigned flag 0x80 (1))
 *     [count x lenenc-string name        with CLIENT_QUERY_ATTRIBUTES]
 *   values of the non-null parameters not sent by COM_STMT_SEND_LONG_DATA, binary encoded
 * </pre>
 *
 * The types are sent with the first execution only (or when they change): a caller keeps the
 * last types of each statement and passes them in.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html">
 *     COM_STMT_EXECUTE</a>
 */
public final class ExecutePacket {
  /** Receives each parameter, in order. */
  public interface Sink {
    /** Parameter {@code index} is NULL. */
    void nullValue(int index);

    /** Parameter {@code index} was sent before the execution by COM_STMT_SEND_LONG_DATA. */
    void longData(int index, int type);

    /**
     * Parameter {@code index} of MySQL type {@code type} (with {@link #UNSIGNED} when the flag is
     * set): its binary encoding is {@code buf[off, off + len)} (for length-prefixed and
     * length-encoded types without the prefix).
     */
    void value(int index, int type, byte[] buf, int off, int len);
  }

  /** Or-ed into a type when its unsigned flag is set. */
  public static final int UNSIGNED = 0x8000;
  private static final int PARAMETER_COUNT_AVAILABLE = 0x08;

  private ExecutePacket() {}

  /** The statement id of a COM_STMT_EXECUTE (bytes 1..4). */
  public static int statementId(byte[] payload) {
    return Bytes.int32(payload, 1);
  }

  /**
   * Reads the parameters of {@code payload[0, limit)}.
   *
   * @param paramCount parameters of the statement, from its PREPARE_OK
   * @param previousTypes the types the statement's last execution bound, or null
   * @param longData which parameters were sent by COM_STMT_SEND_LONG_DATA since the last
   *     execution, or null
   * @return the types used (the caller keeps them for the next execution), or null when the
   *     packet does not parse or is cut short, or types are needed and unknown
   */
  public static int[] read(byte[] payload, int limit, int paramCount, int[] previousTypes,
      boolean[] longData, boolean queryAttributes, Sink sink) {
    if (limit < 10) {
      return null;
    }
    int flags = payload[5] & 0xff;
    int p = 10;
    int n = paramCount;
    if (queryAttributes && (flags & PARAMETER_COUNT_AVAILABLE) != 0) {
      long count = Bytes.lenenc(payload, p, limit);
      if (count < 0 || count > limit) {
        return null;
      }
      p += Bytes.lenencSize(payload[p] & 0xff);
      n = (int) count;
    }
    if (n == 0) {
      return new int[0];
    }
    if (n < 0 || n > limit) {
      return null;
    }
    int bitmap = p;
    p += (n + 7) / 8;
    if (p >= limit) {
      return null;
    }
    boolean bound = payload[p++] == 1;
    int[] types;
    if (bound) {
      if (p + 2L * n > limit) {
        return null;
      }
      types = new int[n];
      for (int i = 0; i < n; i++) {
        types[i] = (payload[p] & 0xff) | ((payload[p + 1] & 0x80) != 0 ? UNSIGNED : 0);
        p += 2;
      }
      if (queryAttributes) {
        for (int i = 0; i < n; i++) {
          p = Bytes.skipLenencString(payload, p, limit);
          if (p < 0) {
            return null;
          }
        }
      }
    } else {
      if (previousTypes == null || previousTypes.length != n) {
        return null;
      }
      types = previousTypes;
    }
    for (int i = 0; i < n; i++) {
      if ((payload[bitmap + (i >>> 3)] & (1 << (i & 7))) != 0) {
        sink.nullValue(i);
        continue;
      }
      int type = types[i] & 0xff;
      if (longData != null && i < longData.length && longData[i]) {
        sink.longData(i, types[i]);
        continue;
      }
      long span = BinaryValue.span(type, payload, p, limit);
      if (span < 0) {
        return null;
      }
      int start = BinaryValue.start(span);
      int len = BinaryValue.length(span);
      sink.value(i, types[i], payload, start, len);
      p = start + len;
    }
    return types;
  }
}
