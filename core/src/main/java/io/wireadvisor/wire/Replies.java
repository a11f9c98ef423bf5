package io.wireadvisor.wire;

/**
 * The server's replies in the command phase, read where they lie (no copy, no allocation): OK,
 * EOF and ERR packets and COM_STMT_PREPARE's PREPARE_OK. Every reader takes the payload and the
 * number of its bytes at hand ({@code length}: a collector may hold only the packet's head) and
 * answers a neutral value when the bytes it needs are not there.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_response_packets.html">
 *     Generic response packets</a>
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_prepare.html#sect_protocol_com_stmt_prepare_response_ok">
 *     COM_STMT_PREPARE_OK</a>
 */
public final class Replies {
  /** First byte of an OK packet (and of PREPARE_OK). */
  public static final int OK = 0x00;
  /** First byte of an EOF packet (and of an OK that ends a result set with CLIENT_DEPRECATE_EOF). */
  public static final int EOF = 0xFE;
  /** First byte of an ERR packet. */
  public static final int ERR = 0xFF;
  /** First byte of a LOCAL INFILE request. */
  public static final int LOCAL_INFILE = 0xFB;

  /** Status flag: another result set follows. */
  public static final int SERVER_MORE_RESULTS_EXISTS = 0x0008;
  /** Status flag: a cursor was opened (COM_STMT_EXECUTE with a cursor type). */
  public static final int SERVER_STATUS_CURSOR_EXISTS = 0x0040;
  /** Status flag: a transaction is open. */
  public static final int SERVER_STATUS_IN_TRANS = 0x0001;
  /** Status flag: autocommit is on. */
  public static final int SERVER_STATUS_AUTOCOMMIT = 0x0002;

  /** Bytes of a PREPARE_OK up to and including its warning count. */
  public static final int PREPARE_OK_LENGTH = 12;

  private Replies() {}

  /** The packet's first byte, or -1 for an empty one. */
  public static int first(byte[] payload, int length) {
    return length > 0 ? payload[0] & 0xff : -1;
  }

  /**
   * The status flags of an OK packet (header, affected rows, last insert id, status): 0 when the
   * bytes at hand end before them.
   */
  public static int okStatus(byte[] payload, int length) {
    int p = 1;
    for (int i = 0; i < 2; i++) {
      if (p >= length) {
        return 0;
      }
      int size = Bytes.lenencSize(payload[p] & 0xff);
      if (size < 0) {
        return 0;
      }
      p += size;
    }
    return p + 2 <= length ? Bytes.uint16(payload, p) : 0;
  }

  /**
   * The status flags of an OK packet, or -1 when the bytes at hand end before them (for a decision
   * a missing 0 must not make, such as the escaping mode).
   */
  public static int okStatusOrUnknown(byte[] payload, int length) {
    int p = 1;
    for (int i = 0; i < 2; i++) {
      if (p >= length) {
        return -1;
      }
      int size = Bytes.lenencSize(payload[p] & 0xff);
      if (size < 0) {
        return -1;
      }
      p += size;
    }
    return p + 2 <= length ? Bytes.uint16(payload, p) : -1;
  }

  /** The status flags of an EOF packet, or -1 when not at hand. */
  public static int eofStatusOrUnknown(byte[] payload, int length) {
    return length >= 5 ? Bytes.uint16(payload, 3) : -1;
  }

  /** The status flags of an EOF packet (header, warnings, status); 0 when not at hand. */
  public static int eofStatus(byte[] payload, int length) {
    return length >= 5 ? Bytes.uint16(payload, 3) : 0;
  }

  /** The error code of an ERR packet, or -1 when {@code payload} is none. */
  public static int errCode(byte[] payload, int length) {
    return length >= 3 && (payload[0] & 0xff) == ERR ? Bytes.uint16(payload, 1) : -1;
  }

  /**
   * The message of an ERR packet (after the {@code #} and five-character SQLSTATE when present),
   * decoded as UTF-8 from the bytes at hand; null when {@code payload} is no ERR. Allocates.
   */
  public static String errMessage(byte[] payload, int length) {
    if (errCode(payload, length) < 0) {
      return null;
    }
    int p = 3;
    if (length >= 9 && payload[3] == '#') {
      p = 9;
    }
    return new String(payload, p, Math.max(0, length - p), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The SQLSTATE of an ERR packet ({@code HY000} when it names none); null for no ERR. */
  public static String errSqlState(byte[] payload, int length) {
    if (errCode(payload, length) < 0) {
      return null;
    }
    if (length >= 9 && payload[3] == '#') {
      return new String(payload, 4, 5, java.nio.charset.StandardCharsets.US_ASCII);
    }
    return "HY000";
  }

  /** Whether {@code payload} is a PREPARE_OK with its statement id at hand. */
  public static boolean isPrepareOk(byte[] payload, int length) {
    return length >= 5 && payload[0] == OK;
  }

  /** The statement id of a PREPARE_OK (see {@link #isPrepareOk}). */
  public static int preparedId(byte[] payload) {
    return Bytes.int32(payload, 1);
  }

  /** The number of result columns a PREPARE_OK announces (needs {@link #PREPARE_OK_LENGTH}). */
  public static int preparedColumns(byte[] payload) {
    return Bytes.uint16(payload, 5);
  }

  /** The number of parameters a PREPARE_OK announces (needs {@link #PREPARE_OK_LENGTH}). */
  public static int preparedParams(byte[] payload) {
    return Bytes.uint16(payload, 7);
  }

  /**
   * Whether column and parameter definitions follow a PREPARE_OK: always, unless
   * CLIENT_OPTIONAL_RESULTSET_METADATA was negotiated and the packet's metadata-follows byte
   * (the 13th) says none.
   */
  public static boolean preparedMetadataFollows(byte[] payload, int length, boolean optionalMetadata) {
    return !(optionalMetadata && length > PREPARE_OK_LENGTH && payload[PREPARE_OK_LENGTH] == 0);
  }
}
