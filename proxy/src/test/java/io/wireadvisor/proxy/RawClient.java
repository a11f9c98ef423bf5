package io.wireadvisor.proxy;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;

/** A bare MySQL-protocol client on a socket, for sending what no driver would. */
final class RawClient implements AutoCloseable {
  static final int CAPS =
      TrackerHarness.BASE_CAPS & ~(1 << 16); // no multi-statements needed

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  int lastSeq;

  RawClient(int port, int timeoutMillis) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(timeoutMillis);
    socket.setTcpNoDelay(true);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** The next packet's payload, or null when the peer closed the connection. */
  byte[] readPacket() throws IOException {
    byte[] header = new byte[4];
    try {
      in.readFully(header);
    } catch (EOFException e) {
      return null;
    }
    int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
    lastSeq = header[3] & 0xff;
    byte[] payload = new byte[length];
    in.readFully(payload);
    return payload;
  }

  /** True when the peer closes the connection (after any packets) within the socket timeout. */
  boolean closedByPeer() throws IOException {
    try {
      while (readPacket() != null) {
        // drain
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Logs in with mysql_native_password (following an auth switch if the server asks). */
  void login(String user, String password, String database) throws Exception {
    byte[] greeting = readPacket();
    if (greeting == null || (greeting[0] & 0xff) == 0xff) {
      throw new IOException("no greeting: " + (greeting == null ? "closed" : new String(greeting, 3, greeting.length - 3, StandardCharsets.UTF_8)));
    }
    int p = 1;
    while (greeting[p] != 0) {
      p++;
    }
    p += 1 + 4;
    byte[] scramble = new byte[20];
    System.arraycopy(greeting, p, scramble, 0, 8);
    p += 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10;
    System.arraycopy(greeting, p, scramble, 8, 12);
    byte[] auth = nativePassword(password, scramble);
    write(
        Wire.packet(
            1,
            Wire.concat(
                Wire.int4(CAPS),
                Wire.int4(1 << 24),
                Wire.bytes(45),
                new byte[23],
                Wire.nul(user),
                Wire.lenenc(auth.length),
                auth,
                Wire.nul(database),
                Wire.nul("mysql_native_password"))));
    while (true) {
      byte[] reply = readPacket();
      if (reply == null) {
        throw new IOException("closed during login");
      }
      int first = reply[0] & 0xff;
      if (first == 0x00) {
        return;
      }
      if (first == 0xff) {
        throw new IOException("login refused: " + new String(reply, 9, reply.length - 9, StandardCharsets.UTF_8));
      }
      if (first == 0xfe) {
        int q = 1;
        while (reply[q] != 0) {
          q++;
        }
        byte[] fresh = Arrays.copyOfRange(reply, q + 1, q + 1 + 20);
        write(Wire.packet(lastSeq + 1, nativePassword(password, fresh)));
      }
    }
  }

  /** SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password))); empty for an empty password. */
  static byte[] nativePassword(String password, byte[] scramble) throws Exception {
    if (password == null || password.isEmpty()) {
      return new byte[0];
    }
    MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
    byte[] stage1 = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
    byte[] stage2 = sha1.digest(stage1);
    sha1.update(scramble);
    byte[] mix = sha1.digest(stage2);
    for (int i = 0; i < mix.length; i++) {
      mix[i] ^= stage1[i];
    }
    return mix;
  }

  /** Sends COM_QUERY and reads packets until the result ends; returns how many it read. */
  int query(String sql) throws IOException {
    write(Wire.packet(0, Wire.query(sql)));
    return readResult();
  }

  /** Reads one COM_QUERY response to its end; returns how many packets it had. */
  int readResult() throws IOException {
    int packets = 0;
    boolean pastColumns = false;
    while (true) {
      byte[] pkt = readPacket();
      if (pkt == null) {
        throw new EOFException("closed during query");
      }
      packets++;
      int first = pkt.length > 0 ? pkt[0] & 0xff : -1;
      if (packets == 1 && (first == 0x00 || first == 0xff)) {
        return packets;
      }
      if (first == 0xfe && pkt.length < 9) {
        if (pastColumns) {
          return packets;
        }
        pastColumns = true; // no CLIENT_DEPRECATE_EOF: an EOF after the column definitions
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
