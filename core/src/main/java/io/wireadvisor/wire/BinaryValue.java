package io.wireadvisor.wire;

/**
 * Where one binary-protocol value lies (COM_STMT_EXECUTE parameters, query attributes): fixed
 * sizes for the numeric types, a length byte before temporal values, a length-encoded length
 * before everything else.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_binary_resultset.html">
 *     Binary protocol value</a>
 */
final class BinaryValue {
  private BinaryValue() {}

  /**
   * The value of MySQL type {@code type} at {@code p}: its content's start and length packed in
   * one long ({@link #start}, {@link #length}), or -1 when it does not end at or before
   * {@code limit}.
   */
  static long span(int type, byte[] b, int p, int limit) {
    int start = p;
    int len;
    switch (type) {
      case 0x06: // NULL
        len = 0;
        break;
      case 0x01: // TINY
        len = 1;
        break;
      case 0x02: // SHORT
      case 0x0d: // YEAR
        len = 2;
        break;
      case 0x03: // LONG
      case 0x09: // INT24
      case 0x04: // FLOAT
        len = 4;
        break;
      case 0x08: // LONGLONG
      case 0x05: // DOUBLE
        len = 8;
        break;
      case 0x07: // TIMESTAMP
      case 0x0a: // DATE
      case 0x0b: // TIME
      case 0x0c: // DATETIME
        if (p >= limit) {
          return -1;
        }
        len = b[p] & 0xff;
        start = p + 1;
        break;
      default: // strings, decimals, blobs, JSON, BIT, ENUM, SET, GEOMETRY: length-encoded
        long l = Bytes.lenenc(b, p, limit);
        if (l < 0 || l > limit) {
          return -1;
        }
        start = p + Bytes.lenencSize(b[p] & 0xff);
        len = (int) l;
    }
    if ((long) start + len > limit) {
      return -1;
    }
    return (long) start << 32 | len;
  }

  static int start(long span) {
    return (int) (span >>> 32);
  }

  static int length(long span) {
    return (int) span;
  }
}
