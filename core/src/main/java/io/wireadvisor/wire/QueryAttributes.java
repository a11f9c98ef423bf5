package io.wireadvisor.wire;

/**
 * Where the SQL text starts in a COM_QUERY payload, skipping the query attributes a connection
 * that negotiated CLIENT_QUERY_ATTRIBUTES sends before it. The one parser both collectors use.
 *
 * <pre>
 * 0x03
 * [lenenc parameter_count, lenenc parameter_set_count,        only with CLIENT_QUERY_ATTRIBUTES
 *  if parameter_count &gt; 0:
 *    null bitmap ((count + 7) / 8), new_params_bind_flag (1),
 *    if bound: count x (type (2), lenenc-string name),
 *    values of the non-null parameters, binary encoded by type]
 * SQL text (rest of the packet)
 * </pre>
 *
 * <p>Allocation-free (the agent calls it on the application's thread for every COM_QUERY).
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query.html">
 *     COM_QUERY</a>
 */
public final class QueryAttributes {
  private QueryAttributes() {}

  /**
   * The offset of the SQL text in {@code payload[0, limit)} (byte 0 is the command), or -1 when
   * the attributes are malformed or extend past {@code limit} (a prefix of the packet may be all
   * a caller holds; the command is then counted without a shape).
   */
  public static int sqlOffset(byte[] payload, int limit, boolean queryAttributes) {
    if (!queryAttributes) {
      return 1;
    }
    int p = 1;
    long count = Bytes.lenenc(payload, p, limit);
    if (count < 0) {
      return -1;
    }
    p += Bytes.lenencSize(payload[p] & 0xff);
    long sets = Bytes.lenenc(payload, p, limit);
    if (sets < 0) {
      return -1;
    }
    p += Bytes.lenencSize(payload[p] & 0xff);
    if (count == 0) {
      return p;
    }
    // Each parameter takes at least three bytes (type and an empty name): more cannot fit.
    if (count > limit) {
      return -1;
    }
    int n = (int) count;
    int bitmap = p;
    p += (n + 7) / 8;
    if (p >= limit || payload[p] != 1) {
      // Without types the values cannot be skipped; a query's attributes always carry them.
      return -1;
    }
    p++;
    int types = p;
    for (int i = 0; i < n; i++) {
      if (p + 2 > limit) {
        return -1;
      }
      p = Bytes.skipLenencString(payload, p + 2, limit);
      if (p < 0) {
        return -1;
      }
    }
    // The types were walked once to find the values; walk them again beside the values so that
    // nothing is allocated.
    int typePos = types;
    for (int i = 0; i < n; i++) {
      int type = payload[typePos] & 0xff;
      typePos = Bytes.skipLenencString(payload, typePos + 2, limit);
      boolean isNull = (payload[bitmap + (i >>> 3)] & (1 << (i & 7))) != 0;
      if (!isNull) {
        p = skipValue(type, payload, p, limit);
        if (p < 0) {
          return -1;
        }
      }
    }
    return p;
  }

  /**
   * The offset just past one binary-protocol value of MySQL type {@code type} at {@code p}, or
   * -1 when it does not end at or before {@code limit}.
   */
  public static int skipValue(int type, byte[] b, int p, int limit) {
    long span = BinaryValue.span(type, b, p, limit);
    return span < 0 ? -1 : BinaryValue.start(span) + BinaryValue.length(span);
  }
}
