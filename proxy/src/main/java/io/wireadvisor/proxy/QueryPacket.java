package io.wireadvisor.proxy;

import java.nio.charset.StandardCharsets;

/**
 * Finds the SQL text in a COM_QUERY payload, skipping query attributes when the connection
 * negotiated CLIENT_QUERY_ATTRIBUTES.
 *
 * <pre>
 * 0x03
 * [lenenc parameter_count, lenenc parameter_set_count,           only with CLIENT_QUERY_ATTRIBUTES
 *  if parameter_count &gt; 0:
 *    null bitmap ((count + 7) / 8), new_params_bind_flag (1),
 *    if bound: count x (type (2), lenenc name),
 *    values of the non-null parameters, binary encoded by type]
 * SQL text (rest of the packet)
 * </pre>
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query.html">
 *     COM_QUERY</a>
 */
final class QueryPacket {
  private QueryPacket() {}

  /**
   * Offset of the SQL text in {@code head} (whose first byte is the command), or -1 when the
   * attributes are malformed or extend past the captured {@code headLength} bytes.
   */
  static int sqlOffset(byte[] head, int headLength, boolean queryAttributes) {
    if (!queryAttributes) {
      return 1;
    }
    int p = 1;
    long count = Packets.lenenc(head, p, headLength);
    if (count < 0) {
      return -1;
    }
    p += Packets.lenencSize(head[p] & 0xff);
    long sets = Packets.lenenc(head, p, headLength);
    if (sets < 0) {
      return -1;
    }
    p += Packets.lenencSize(head[p] & 0xff);
    if (count == 0) {
      return p;
    }
    if (count > headLength) {
      return -1; // each parameter needs at least one byte: cannot fit
    }
    int n = (int) count;
    int bitmap = p;
    p += (n + 7) / 8;
    if (p >= headLength) {
      return -1;
    }
    boolean bound = head[p++] == 1;
    if (!bound) {
      return -1; // a query's attributes are always sent with their types
    }
    int[] types = new int[n];
    for (int i = 0; i < n; i++) {
      if (p + 2 > headLength) {
        return -1;
      }
      types[i] = head[p] & 0xff;
      p += 2;
      p = skipLenencString(head, p, headLength);
      if (p < 0) {
        return -1;
      }
    }
    for (int i = 0; i < n; i++) {
      boolean isNull = (head[bitmap + i / 8] & (1 << (i % 8))) != 0;
      if (isNull) {
        continue;
      }
      p = skipValue(types[i], head, p, headLength);
      if (p < 0) {
        return -1;
      }
    }
    return p;
  }

  /** The SQL text of a COM_QUERY or COM_STMT_PREPARE head starting at {@code offset}. */
  static String sql(byte[] head, int offset, int headLength) {
    // The connection's character set is almost always utf8mb4; other sets still classify by
    // their ASCII keywords.
    return new String(head, offset, headLength - offset, StandardCharsets.UTF_8);
  }

  private static int skipLenencString(byte[] b, int p, int limit) {
    long len = Packets.lenenc(b, p, limit);
    if (len < 0) {
      return -1;
    }
    long next = p + Packets.lenencSize(b[p] & 0xff) + len;
    return next > limit ? -1 : (int) next;
  }

  /** Skips one binary-protocol value of MySQL type {@code type}. */
  static int skipValue(int type, byte[] b, int p, int limit) {
    int size;
    switch (type) {
      case 6: // NULL
        size = 0;
        break;
      case 1: // TINY
        size = 1;
        break;
      case 2: // SHORT
      case 13: // YEAR
        size = 2;
        break;
      case 3: // LONG
      case 9: // INT24
      case 4: // FLOAT
        size = 4;
        break;
      case 8: // LONGLONG
      case 5: // DOUBLE
        size = 8;
        break;
      case 7: // TIMESTAMP
      case 10: // DATE
      case 11: // TIME
      case 12: // DATETIME
        if (p >= limit) {
          return -1;
        }
        size = 1 + (b[p] & 0xff);
        break;
      default: // strings, decimals, blobs, JSON, bit, enum, set, geometry
        return skipLenencString(b, p, limit);
    }
    return p + size > limit ? -1 : p + size;
  }
}
