package io.wireadvisor.agent.internal;

/**
 * Where the SQL text starts in a COM_QUERY payload.
 *
 * <pre>
 * without CLIENT_QUERY_ATTRIBUTES:   0x03 | sql ...
 * with CLIENT_QUERY_ATTRIBUTES:      0x03 | lenenc param_count | lenenc param_set_count (1)
 *   if param_count > 0:              null_bitmap ((n+7)/8 bytes) | new_params_bind_flag (1)
 *     if new_params_bind_flag = 1:   n x (type int2 | lenenc-string name)
 *                                    values of the non-null params (binary protocol)
 *                                    | sql ...
 * </pre>
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query.html">COM_QUERY</a>
 */
public final class ComQuery {
  private ComQuery() {}

  /**
   * The offset of the SQL text in {@code buf[0, len)}, or -1 when the attributes do not parse
   * (the command is then counted without a shape).
   */
  public static int sqlOffset(byte[] buf, int len, boolean queryAttributes) {
    if (!queryAttributes) {
      return 1;
    }
    int pos = 1;
    long paramCount = lenencValue(buf, pos, len);
    if (paramCount < 0) {
      return -1;
    }
    pos += lenencSize(buf[pos]);
    if (pos >= len) {
      return -1;
    }
    pos += lenencSize(buf[pos]); // param_set_count, always 1
    if (paramCount == 0) {
      return pos <= len ? pos : -1;
    }
    if (paramCount > 0xffff) {
      return -1;
    }
    int n = (int) paramCount;
    int bitmap = pos;
    pos += (n + 7) / 8;
    if (pos >= len || buf[pos] != 1) {
      // Without types the values cannot be skipped; Connector/J always sends them.
      return -1;
    }
    pos++;
    int types = pos;
    for (int i = 0; i < n; i++) {
      pos += 2;
      pos = skipLenencBytes(buf, pos, len);
      if (pos < 0) {
        return -1;
      }
    }
    int typePos = types;
    for (int i = 0; i < n; i++) {
      int type = buf[typePos] & 0xff;
      typePos = skipLenencBytes(buf, typePos + 2, len);
      boolean isNull = (buf[bitmap + (i >>> 3)] & (1 << (i & 7))) != 0;
      if (!isNull) {
        pos = skipValue(buf, pos, len, type);
        if (pos < 0) {
          return -1;
        }
      }
    }
    return pos <= len ? pos : -1;
  }

  /** Skips one binary-protocol value of MySQL type {@code type}. */
  private static int skipValue(byte[] buf, int pos, int len, int type) {
    switch (type) {
      case 0x01: // TINY
        return pos + 1;
      case 0x02: // SHORT
      case 0x0d: // YEAR
        return pos + 2;
      case 0x03: // LONG
      case 0x09: // INT24
      case 0x04: // FLOAT
        return pos + 4;
      case 0x08: // LONGLONG
      case 0x05: // DOUBLE
        return pos + 8;
      case 0x06: // NULL
        return pos;
      case 0x07: // TIMESTAMP
      case 0x0a: // DATE
      case 0x0b: // TIME
      case 0x0c: // DATETIME
        return pos < len ? pos + 1 + (buf[pos] & 0xff) : -1;
      default: // strings, decimals, blobs, JSON, BIT, ENUM, SET, GEOMETRY: length-encoded
        return skipLenencBytes(buf, pos, len);
    }
  }

  private static int skipLenencBytes(byte[] buf, int pos, int len) {
    long n = lenencValue(buf, pos, len);
    if (n < 0 || n > len) {
      return -1;
    }
    int end = pos + lenencSize(buf[pos]) + (int) n;
    return end <= len ? end : -1;
  }

  private static int lenencSize(byte first) {
    switch (first & 0xff) {
      case 0xfc:
        return 3;
      case 0xfd:
        return 4;
      case 0xfe:
        return 9;
      default:
        return 1;
    }
  }

  /** A length-encoded integer at {@code pos}, or -1 when malformed or past {@code len}. */
  static long lenencValue(byte[] buf, int pos, int len) {
    if (pos >= len) {
      return -1;
    }
    int first = buf[pos] & 0xff;
    int size = lenencSize(buf[pos]);
    if (first == 0xfb || first == 0xff || pos + size > len) {
      return -1;
    }
    if (size == 1) {
      return first;
    }
    long v = 0;
    for (int i = size - 1; i >= 1; i--) {
      v = (v << 8) | (buf[pos + i] & 0xff);
    }
    return v < 0 ? -1 : v;
  }
}
