package io.wireadvisor.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * MySQL packet layout helpers: every packet is a 4-byte header and a payload.
 *
 * <pre>
 * +---------------------+--------+-------------------------+
 * | payload length (3)  | seq (1)| payload (length bytes)  |
 * | little endian       |        |                         |
 * +---------------------+--------+-------------------------+
 * </pre>
 *
 * A payload of 0xFFFFFF bytes or more is split into chunks of 0xFFFFFF bytes with consecutive
 * sequence ids; a chunk shorter than 0xFFFFFF (possibly empty) ends it.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_packets.html">
 *     MySQL packets</a>
 */
final class Packets {
  static final int HEADER_LENGTH = 4;
  static final int MAX_CHUNK = 0xFFFFFF;

  static final int OK = 0x00;
  static final int AUTH_MORE_DATA = 0x01;
  static final int LOCAL_INFILE = 0xFB;
  static final int EOF = 0xFE;
  static final int ERR = 0xFF;

  /** MySQL's ER_NET_PACKETS_OUT_OF_ORDER. */
  static final int ER_NET_PACKETS_OUT_OF_ORDER = 1156;
  /** MySQL's ER_MALFORMED_PACKET. */
  static final int ER_MALFORMED_PACKET = 1835;
  /** MySQL's ER_ACCESS_DENIED_ERROR. */
  static final int ER_ACCESS_DENIED = 1045;
  /** MySQL's ER_CON_COUNT_ERROR ("Too many connections"). */
  static final int ER_CON_COUNT_ERROR = 1040;
  /** MySQL's ER_HANDSHAKE_ERROR ("Bad handshake"): used when a login takes too long. */
  static final int ER_HANDSHAKE_ERROR = 1043;
  /** MySQL's ER_UNKNOWN_ERROR, used for the proxy's own upstream failures. */
  static final int ER_UNKNOWN_ERROR = 1105;
  /** Communication link failure: drivers and pools treat the connection as broken. */
  static final String SQLSTATE_LINK_FAILURE = "08S01";

  private Packets() {}

  /**
   * An ERR packet in the 4.1 format (with SQL state), as sent in the command phase.
   *
   * @param seq the sequence id the receiver expects next
   */
  static ByteBuf err(ByteBufAllocator alloc, int seq, int code, String sqlState, String message) {
    byte[] text = message.getBytes(StandardCharsets.UTF_8);
    int length = 1 + 2 + 1 + 5 + text.length;
    ByteBuf b = alloc.buffer(HEADER_LENGTH + length);
    b.writeMediumLE(length);
    b.writeByte(seq);
    b.writeByte(ERR);
    b.writeShortLE(code);
    b.writeByte('#');
    b.writeBytes(sqlState.getBytes(StandardCharsets.US_ASCII), 0, 5);
    b.writeBytes(text);
    return b;
  }

  /**
   * An ERR packet without SQL state, the only form a client understands before the handshake
   * (servers send it instead of a greeting, e.g. for "too many connections").
   */
  static ByteBuf preHandshakeErr(ByteBufAllocator alloc, int code, String message) {
    byte[] text = message.getBytes(StandardCharsets.UTF_8);
    int length = 1 + 2 + text.length;
    ByteBuf b = alloc.buffer(HEADER_LENGTH + length);
    b.writeMediumLE(length);
    b.writeByte(0);
    b.writeByte(ERR);
    b.writeShortLE(code);
    b.writeBytes(text);
    return b;
  }
}
