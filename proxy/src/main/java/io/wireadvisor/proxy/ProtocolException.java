package io.wireadvisor.proxy;

/**
 * A packet that breaks the protocol. Thrown on client packets, it closes that client's
 * connection (after an ERR packet carrying {@link #code()}) and nothing else.
 */
final class ProtocolException extends Exception {
  private final int code;

  ProtocolException(int code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** The MySQL error code to report to the client. */
  int code() {
    return code;
  }

  static ProtocolException outOfOrder(String message) {
    return new ProtocolException(Packets.ER_NET_PACKETS_OUT_OF_ORDER, message);
  }

  static ProtocolException malformed(String message) {
    return new ProtocolException(Packets.ER_MALFORMED_PACKET, message);
  }
}
