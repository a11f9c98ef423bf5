package io.wireadvisor.wire;

/**
 * Little-endian and length-encoded integers as the protocol writes them.
 *
 * <pre>
 * length-encoded integer, by its first byte:
 *   0x00..0xFA   the value itself (1 byte)
 *   0xFB         NULL in a text row; not an integer
 *   0xFC         + 2 bytes little endian (3 bytes)
 *   0xFD         + 3 bytes little endian (4 bytes)
 *   0xFE         + 8 bytes little endian (9 bytes)
 *   0xFF         ERR marker; not an integer
 * </pre>
 *
 * Every reader takes a {@code limit} (the number of valid bytes) and never reads at or past it.
 */
public final class Bytes {
  private Bytes() {}

  /** Little-endian unsigned 2-byte integer at {@code offset}. */
  public static int uint16(byte[] b, int offset) {
    return (b[offset] & 0xff) | (b[offset + 1] & 0xff) << 8;
  }

  /** Little-endian unsigned 3-byte integer at {@code offset} (a packet header's length). */
  public static int uint24(byte[] b, int offset) {
    return (b[offset] & 0xff) | (b[offset + 1] & 0xff) << 8 | (b[offset + 2] & 0xff) << 16;
  }

  /**
   * Little-endian 4-byte integer at {@code offset}: a statement id at bytes 1..4 of a
   * COM_STMT_* command or of PREPARE_OK.
   */
  public static int int32(byte[] b, int offset) {
    return (b[offset] & 0xff)
        | (b[offset + 1] & 0xff) << 8
        | (b[offset + 2] & 0xff) << 16
        | (b[offset + 3] & 0xff) << 24;
  }

  /**
   * Size in bytes of the length-encoded integer starting with the unsigned byte {@code first},
   * or -1 when that byte cannot start one (0xFB, 0xFF).
   */
  public static int lenencSize(int first) {
    if (first < 0xfb) {
      return 1;
    }
    switch (first) {
      case 0xfc:
        return 3;
      case 0xfd:
        return 4;
      case 0xfe:
        return 9;
      default:
        return -1;
    }
  }

  /**
   * The length-encoded integer at {@code offset}, or -1 when it is malformed or does not end
   * before {@code limit}. Values above {@code Long.MAX_VALUE} (an 8-byte value with its top bit
   * set) are returned as -1 too: no length in a packet can be that large.
   */
  public static long lenenc(byte[] b, int offset, int limit) {
    if (offset < 0 || offset >= limit) {
      return -1;
    }
    int first = b[offset] & 0xff;
    int size = lenencSize(first);
    if (size < 0 || offset + size > limit) {
      return -1;
    }
    if (size == 1) {
      return first;
    }
    long v = 0;
    for (int i = size - 1; i >= 1; i--) {
      v = v << 8 | (b[offset + i] & 0xff);
    }
    return v < 0 ? -1 : v;
  }

  /**
   * The offset just past the length-encoded string (a length-encoded integer {@code n}, then
   * {@code n} bytes) at {@code offset}, or -1 when it does not end at or before {@code limit}.
   */
  public static int skipLenencString(byte[] b, int offset, int limit) {
    long n = lenenc(b, offset, limit);
    if (n < 0) {
      return -1;
    }
    long end = offset + lenencSize(b[offset] & 0xff) + n;
    return end > limit ? -1 : (int) end;
  }
}
