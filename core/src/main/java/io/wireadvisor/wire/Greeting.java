package io.wireadvisor.wire;

import java.nio.charset.StandardCharsets;

/**
 * The server's initial handshake packet (protocol version 10), read where it lies: the server's
 * version, connection id and capabilities, and the offsets of the capability fields so that a
 * proxy can rewrite what it offers in place.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_v10.html">
 *     Protocol::HandshakeV10</a>
 */
public final class Greeting {
  /** MariaDB's extended capability: cached result-set metadata (column definitions may be omitted). */
  public static final int MARIADB_CLIENT_CACHE_METADATA = 1 << 4;
  private static final int CLIENT_LONG_PASSWORD = 1;

  private final String version;
  private final long connectionId;
  private final int capabilities;
  private final int lowerCapabilitiesAt;
  private final int upperCapabilitiesAt;
  private final int extendedCapabilitiesAt;

  private Greeting(String version, long connectionId, int capabilities, int lowerAt, int upperAt,
      int extendedAt) {
    this.version = version;
    this.connectionId = connectionId;
    this.capabilities = capabilities;
    this.lowerCapabilitiesAt = lowerAt;
    this.upperCapabilitiesAt = upperAt;
    this.extendedCapabilitiesAt = extendedAt;
  }

  /**
   * The greeting in {@code payload[0, length)}, or null when it is none this reader follows (not
   * protocol 10, or too short to hold the lower capability flags). An ERR packet in its place
   * (too many connections...) is not a greeting either: see {@link Replies#errCode}.
   */
  public static Greeting parse(byte[] payload, int length) {
    if (length == 0 || payload[0] != 10) {
      return null;
    }
    int p = 1;
    while (p < length && payload[p] != 0) {
      p++;
    }
    String version = new String(payload, 1, p - 1, StandardCharsets.UTF_8);
    p++; // NUL
    long connectionId = p + 4 <= length ? Bytes.int32(payload, p) & 0xffffffffL : -1;
    p += 4 + 8 + 1; // connection id, auth-plugin-data part 1, filler
    if (p + 2 > length) {
      return null;
    }
    int lowerAt = p;
    int caps = Bytes.uint16(payload, lowerAt);
    int upperAt = -1;
    int extendedAt = -1;
    if (p + 2 + 1 + 2 + 2 <= length) {
      upperAt = p + 2 + 1 + 2; // after the character set and status flags
      caps |= Bytes.uint16(payload, upperAt) << 16;
      // MariaDB puts extended capabilities in the last 4 of 10 reserved bytes when it clears
      // CLIENT_LONG_PASSWORD.
      int at = upperAt + 2 + 1 + 6;
      if ((caps & CLIENT_LONG_PASSWORD) == 0 && at + 4 <= length) {
        extendedAt = at;
      }
    }
    return new Greeting(version, connectionId, caps, lowerAt, upperAt, extendedAt);
  }

  /** The server's version string (e.g. {@code 8.0.11-TiDB-v8.5.3}). */
  public String version() {
    return version;
  }

  /** The server's id of this connection, or -1 when the packet ends before it. */
  public long connectionId() {
    return connectionId;
  }

  /** The capability flags the server offers (the upper 16 only when present). */
  public int capabilities() {
    return capabilities;
  }

  /** Whether the packet carries MariaDB's extended capabilities. */
  public boolean hasMariaDbExtendedCapabilities() {
    return extendedCapabilitiesAt >= 0;
  }

  /**
   * Writes {@code caps} over the packet's capability flags and clears the extended flags in
   * {@code clearExtended} (MariaDB), in place.
   */
  public void rewriteCapabilities(byte[] payload, int caps, int clearExtended) {
    payload[lowerCapabilitiesAt] = (byte) caps;
    payload[lowerCapabilitiesAt + 1] = (byte) (caps >>> 8);
    if (upperCapabilitiesAt > 0) {
      payload[upperCapabilitiesAt] = (byte) (caps >>> 16);
      payload[upperCapabilitiesAt + 1] = (byte) (caps >>> 24);
    }
    if (extendedCapabilitiesAt >= 0) {
      payload[extendedCapabilitiesAt] &= (byte) ~clearExtended;
    }
  }
}
