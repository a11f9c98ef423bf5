package io.wireadvisor.proxy;

import java.nio.charset.StandardCharsets;

/**
 * The SQL text of a COM_QUERY or COM_STMT_PREPARE head; where it starts in a COM_QUERY is
 * {@link io.wireadvisor.wire.QueryAttributes#sqlOffset}, shared with the agent.
 */
final class QueryPacket {
  private QueryPacket() {}

  /** The SQL text of a COM_QUERY or COM_STMT_PREPARE head starting at {@code offset}. */
  static String sql(byte[] head, int offset, int headLength) {
    // The connection's character set is almost always utf8mb4; other sets still classify by
    // their ASCII keywords.
    return new String(head, offset, headLength - offset, StandardCharsets.UTF_8);
  }
}
