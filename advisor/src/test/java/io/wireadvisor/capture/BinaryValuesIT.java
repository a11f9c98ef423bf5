package io.wireadvisor.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.wire.ExecutePacket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The values of real COM_STMT_EXECUTE packets: Connector/J binds one parameter of every common
 * type through a byte-recording relay to the real server, and the recorded executions decode to
 * the values bound (the first execution carries the types, the second reuses them).
 */
@RealDatabase
class BinaryValuesIT {
  @Test
  void connectorJExecutionsDecodeToTheBoundValues(DatabaseServer server) throws Exception {
    ByteArrayOutputStream clientBytes = new ByteArrayOutputStream();
    try (ServerSocket relay = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> relay(relay, server, clientBytes));
      t.setDaemon(true);
      t.start();
      String url = "jdbc:mysql://127.0.0.1:" + relay.getLocalPort()
          + "/?useServerPrepStmts=true&sslMode=DISABLED&allowPublicKeyRetrieval=true";
      try (Connection c = DriverManager.getConnection(url, server.user(), server.password());
          PreparedStatement ps = c.prepareStatement(
              "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?")) {
        bind(ps, 1);
        ps.executeQuery().close();
        bind(ps, 2);
        ps.executeQuery().close();
      }
      t.join(10_000);
    }
    List<List<CaptureValue>> executions = new ArrayList<>();
    int[] types = null;
    for (byte[] packet : commandPackets(clientBytes.toByteArray())) {
      if ((packet[0] & 0xff) != 0x17) {
        continue;
      }
      BinaryValues sink = new BinaryValues();
      types = ExecutePacket.read(packet, packet.length, 14, types, null, false, sink);
      assertThat(types).as("execution %d parses", executions.size() + 1).isNotNull();
      executions.add(sink.values());
    }
    assertThat(executions).hasSize(2);
    for (int round = 1; round <= 2; round++) {
      List<String> got = new ArrayList<>();
      for (CaptureValue v : executions.get(round - 1)) {
        got.add(v.toString());
      }
      assertThat(got).as("execution %d", round).containsExactly(
          "number:" + (41 + round),
          "number:" + (9_007_199_254_740_993L + round),
          "number:-" + round,
          "number:12345.678" + round,
          "number:" + (0.5 + round),
          "string:Zoë " + round + " \"quoted\" 'x'",
          "bytes:" + java.util.Base64.getEncoder().encodeToString(new byte[] {0, 1, (byte) 0xff, (byte) round}),
          "date:2024-02-0" + round,
          "datetime:2024-02-0" + round + " 10:11:12.123456",
          "time:0" + round + ":02:03",
          "NULL",
          "number:1",
          "number:" + (short) -300,
          "number:" + (byte) -7);
    }
  }

  private static void bind(PreparedStatement ps, int round) throws Exception {
    ps.setInt(1, 41 + round);
    ps.setLong(2, 9_007_199_254_740_993L + round);
    ps.setLong(3, -round);
    ps.setBigDecimal(4, new BigDecimal("12345.678" + round));
    ps.setDouble(5, 0.5 + round);
    ps.setString(6, "Zoë " + round + " \"quoted\" 'x'");
    ps.setBytes(7, new byte[] {0, 1, (byte) 0xff, (byte) round});
    ps.setDate(8, java.sql.Date.valueOf("2024-02-0" + round));
    ps.setTimestamp(9, java.sql.Timestamp.valueOf("2024-02-0" + round + " 10:11:12.123456"));
    ps.setTime(10, java.sql.Time.valueOf("0" + round + ":02:03"));
    ps.setNull(11, Types.VARCHAR);
    ps.setBoolean(12, true);
    ps.setShort(13, (short) -300);
    ps.setByte(14, (byte) -7);
  }

  /** Payloads of the client's packets with sequence id 0 (commands), handshake excluded. */
  private static List<byte[]> commandPackets(byte[] stream) {
    List<byte[]> out = new ArrayList<>();
    int p = 0;
    while (p + 4 <= stream.length) {
      int len = (stream[p] & 0xff) | (stream[p + 1] & 0xff) << 8 | (stream[p + 2] & 0xff) << 16;
      int seq = stream[p + 3] & 0xff;
      if (p + 4 + len > stream.length) {
        break;
      }
      if (seq == 0 && len > 0) {
        byte[] payload = new byte[len];
        System.arraycopy(stream, p + 4, payload, 0, len);
        out.add(payload);
      }
      p += 4 + len;
    }
    return out;
  }

  private static void relay(ServerSocket relay, DatabaseServer server, ByteArrayOutputStream record) {
    try (Socket client = relay.accept(); Socket upstream = new Socket(server.host(), server.port())) {
      Thread back = new Thread(() -> copy(upstream, client, null));
      back.setDaemon(true);
      back.start();
      copy(client, upstream, record);
      back.join(5_000);
    } catch (IOException | InterruptedException e) {
      // the test's assertions report what was not recorded
    }
  }

  private static void copy(Socket from, Socket to, ByteArrayOutputStream record) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buf = new byte[8192];
      int n;
      while ((n = in.read(buf)) > 0) {
        if (record != null) {
          synchronized (record) {
            record.write(buf, 0, n);
          }
        }
        out.write(buf, 0, n);
        out.flush();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      // connection closed
    }
  }
}
