package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerKind;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payloads at and around the 16 MiB packet split, both ways through the proxy, checksummed on
 * both sides. Sizes are MySQL packet payload sizes: 0xFFFFFF (a full chunk, then the zero-length
 * packet that ends it), 0xFFFFFF + 1, 2 x 0xFFFFFF, and random ones. Rows are committed to a
 * table only where the server can hold them ({@link DatabaseServer#cannotHoldRowOf}); the echo
 * test crosses the same boundaries on every server without storing anything.
 */
@RealDatabase
class ByteExactnessIT {
  private static final int MAX = 0xFFFFFF;
  private static final long PACKET_LIMIT = 256L << 20;
  private static long previousMaxAllowedPacket;
  private static DatabaseServer server;
  private static String db;

  @BeforeAll
  static void raisePacketLimit(DatabaseServer s) throws SQLException {
    server = s;
    db = s.createDatabase("proxy_bytes");
    try (Connection c = s.connect(db, null);
        Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT @@global.max_allowed_packet")) {
        rs.next();
        previousMaxAllowedPacket = rs.getLong(1);
      }
      // Session values are read-only; new connections take the global one.
      st.execute("SET GLOBAL max_allowed_packet = " + PACKET_LIMIT);
      st.execute("CREATE TABLE blobs (id INT PRIMARY KEY, data LONGBLOB)");
    }
  }

  @AfterAll
  static void restore() throws Exception {
    try (Connection c = server.connect(db, null);
        Statement st = c.createStatement()) {
      st.execute("SET GLOBAL max_allowed_packet = " + previousMaxAllowedPacket);
    }
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void queryPacketsOfEveryBoundarySizeArriveIntact() throws Exception {
    Random random = new Random(42);
    int[] payloads = {
      MAX, MAX + 1, 2 * MAX, 1 + random.nextInt(1 << 16), MAX + 1 + random.nextInt(MAX)
    };
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection c = p.connect(db, "useServerPrepStmts=false");
        Statement s = c.createStatement()) {
      long before = p.proxy.profile().count(CommandType.QUERY);
      for (int payload : payloads) {
        // COM_QUERY payload = 1 command byte + the SQL text (ASCII, one byte per char).
        String prefix = "SELECT MD5('";
        String suffix = "')";
        String data = randomAscii(random, payload - 1 - prefix.length() - suffix.length());
        String sql = prefix + data + suffix;
        assertThat(1 + sql.length()).isEqualTo(payload);
        try (ResultSet rs = s.executeQuery(sql)) {
          rs.next();
          assertThat(rs.getString(1)).as("payload %d", payload).isEqualTo(md5(data.getBytes()));
        }
      }
      assertThat(p.proxy.profile().count(CommandType.QUERY) - before).isEqualTo(payloads.length);
    }
  }

  /**
   * EXECUTE packets split on the way up and binary row packets split on the way down, with nothing
   * stored: {@code SELECT MD5(?), ?} echoes the parameter, so every server (a single-process TiDB
   * too) crosses the 16 MiB boundary both ways. Row payload = 0x00 header + 1-byte null bitmap +
   * the 32-character MD5 (1-byte length) + the value's length-encoded length + the value.
   */
  @Test
  void echoedParametersOfEveryBoundarySizeArriveIntactBothWays() throws Exception {
    Random random = new Random(11);
    int[] rowPayloads = {MAX, MAX + 1, 2 * MAX, 1 + 35 + 1 + random.nextInt(200), MAX + 1 + random.nextInt(MAX)};
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection c = p.connect(db, "useServerPrepStmts=true");
        PreparedStatement ps = c.prepareStatement("SELECT MD5(?), ?")) {
      for (int payload : rowPayloads) {
        byte[] data = new byte[valueLengthForRowPayload(payload)];
        random.nextBytes(data);
        String expected = md5(data);
        ps.setBytes(1, data);
        ps.setBytes(2, data);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getString(1)).as("server's checksum of %d bytes", data.length).isEqualTo(expected);
          assertThat(md5(rs.getBytes(2))).as("client's checksum of the %d-byte row", payload).isEqualTo(expected);
        }
      }
      assertThat(p.proxy.profile().count(CommandType.STMT_EXECUTE)).isEqualTo(rowPayloads.length);
      assertThat(p.proxy.clientProtocolErrors()).isZero();
    }
  }

  /** The value length that makes {@code SELECT MD5(?), ?}'s binary row payload exactly {@code payload} bytes. */
  static int valueLengthForRowPayload(int payload) {
    int fixed = 1 + 1 + 1 + 32;
    for (int lenenc : new int[] {1, 3, 4, 9}) {
      int n = payload - fixed - lenenc;
      int needed = n < 251 ? 1 : n < (1 << 16) ? 3 : n < (1 << 24) ? 4 : 9;
      if (n >= 0 && needed == lenenc) {
        return n;
      }
    }
    throw new IllegalArgumentException("no value length gives a row payload of " + payload);
  }

  @Test
  void rowPacketsOfEveryBoundarySizeArriveIntactAndExecutePacketsSplit() throws Exception {
    Random random = new Random(7);
    // A one-column text row's payload is a length-encoded length (4 bytes below 2^24, 9 above)
    // followed by the value.
    int[] lengths = {MAX - 4, MAX + 1 - 4, 2 * MAX - 9, 0, random.nextInt(1 << 20), MAX + 12345};
    int largest = java.util.Arrays.stream(lengths).max().orElseThrow();
    server.cannotHoldRowOf(largest).ifPresent(why -> Assumptions.abort(why));
    try (ProxiedServer p = ProxiedServer.start(server);
        Connection c = p.connect(db, "useServerPrepStmts=true");
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM blobs");
      if (server.kind() == ServerKind.TIDB) {
        // TiDB refuses a row over 6 MiB by default (txn-entry-size-limit); 120 MiB is its maximum.
        s.execute("SET SESSION tidb_txn_entry_size_limit = 125829120");
      }
      for (int i = 0; i < lengths.length; i++) {
        byte[] data = new byte[lengths[i]];
        random.nextBytes(data);
        String expected = md5(data);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO blobs VALUES (?, ?)")) {
          // A binary-protocol EXECUTE of more than 16 MiB: split into chunks on the way up.
          ps.setInt(1, i);
          ps.setBytes(2, data);
          ps.executeUpdate();
        }
        try (ResultSet rs = s.executeQuery("SELECT MD5(data), data FROM blobs WHERE id = " + i)) {
          rs.next();
          assertThat(rs.getString(1)).as("server's checksum of %d bytes", data.length).isEqualTo(expected);
          assertThat(md5(rs.getBytes(2))).as("client's checksum of %d bytes", data.length).isEqualTo(expected);
        }
      }
      assertThat(p.proxy.profile().count(CommandType.STMT_EXECUTE)).isEqualTo(lengths.length);
      assertThat(p.proxy.clientProtocolErrors()).isZero();
    }
  }

  private static String randomAscii(Random random, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) ('a' + random.nextInt(26));
    }
    return new String(b, java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static String md5(byte[] data) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
  }
}
