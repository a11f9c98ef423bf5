package io.wireadvisor.proxy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds MySQL packets for unit tests, from the layouts in the MySQL protocol documentation. */
final class Wire {
  static final int MAX = 0xFFFFFF;

  private Wire() {}

  /** One packet (payload shorter than 0xFFFFFF). */
  static byte[] packet(int seq, byte[] payload) {
    if (payload.length >= MAX) {
      throw new IllegalArgumentException("use packets() for " + payload.length + " bytes");
    }
    return concat(header(payload.length, seq), payload);
  }

  /** A payload of any size as MySQL frames it: 0xFFFFFF chunks, then a shorter (maybe empty) one. */
  static byte[] packets(int seq, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + 16);
    int off = 0;
    while (true) {
      int n = Math.min(MAX, payload.length - off);
      out.writeBytes(header(n, seq++));
      out.write(payload, off, n);
      off += n;
      if (n < MAX) {
        return out.toByteArray();
      }
    }
  }

  static byte[] header(int length, int seq) {
    return new byte[] {(byte) length, (byte) (length >>> 8), (byte) (length >>> 16), (byte) seq};
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] int2(int v) {
    return bytes(v, v >>> 8);
  }

  static byte[] int4(int v) {
    return bytes(v, v >>> 8, v >>> 16, v >>> 24);
  }

  static byte[] lenenc(long v) {
    if (v < 251) {
      return bytes((int) v);
    }
    if (v < 1 << 16) {
      return bytes(0xfc, (int) v, (int) (v >>> 8));
    }
    if (v < 1 << 24) {
      return bytes(0xfd, (int) v, (int) (v >>> 8), (int) (v >>> 16));
    }
    byte[] b = new byte[9];
    b[0] = (byte) 0xfe;
    for (int i = 0; i < 8; i++) {
      b[1 + i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  static byte[] lenencString(String s) {
    byte[] b = ascii(s);
    return concat(lenenc(b.length), b);
  }

  static byte[] nul(String s) {
    return concat(ascii(s), bytes(0));
  }

  /** Protocol::HandshakeV10 with a 20-byte scramble. */
  static byte[] greeting(String version, int caps, String plugin) {
    return greeting(version, caps, plugin, 0);
  }

  static byte[] greeting(String version, int caps, String plugin, int mariaDbExtended) {
    return concat(
        bytes(10),
        nul(version),
        int4(42),
        ascii("abcdefgh"),
        bytes(0),
        int2(caps & 0xffff),
        bytes(0xff),
        int2(0x0002),
        int2(caps >>> 16),
        bytes(21),
        new byte[6],
        int4(mariaDbExtended),
        ascii("ijklmnopqrst"),
        bytes(0),
        nul(plugin));
  }

  /** Protocol::HandshakeResponse41 (an empty database name when CLIENT_CONNECT_WITH_DB). */
  static byte[] handshakeResponse(int caps, String user, byte[] auth, String plugin) {
    return concat(
        int4(caps),
        int4(1 << 24),
        bytes(0xff),
        new byte[23],
        nul(user),
        lenenc(auth.length),
        auth,
        (caps & Capabilities.CLIENT_CONNECT_WITH_DB) != 0 ? nul("") : new byte[0],
        nul(plugin));
  }

  static byte[] ok(int status) {
    return concat(bytes(0x00, 0, 0), int2(status), int2(0));
  }

  /** An EOF packet (without CLIENT_DEPRECATE_EOF). */
  static byte[] eof(int status) {
    return concat(bytes(0xfe), int2(0), int2(status));
  }

  /** The OK packet with an 0xFE header that ends a result set with CLIENT_DEPRECATE_EOF. */
  static byte[] okEof(int status) {
    return concat(bytes(0xfe, 0, 0), int2(status), int2(0));
  }

  static byte[] err(int code, String message) {
    return concat(bytes(0xff), int2(code), ascii("#HY000"), ascii(message));
  }

  static byte[] columnDef(String name) {
    return concat(
        lenencString("def"),
        lenencString("db"),
        lenencString("t"),
        lenencString("t"),
        lenencString(name),
        lenencString(name),
        bytes(0x0c),
        int2(33),
        int4(255),
        bytes(253),
        int2(0),
        bytes(0),
        int2(0));
  }

  static byte[] textRow(String... values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String v : values) {
      out.writeBytes(v == null ? bytes(0xfb) : lenencString(v));
    }
    return out.toByteArray();
  }

  static byte[] query(String sql) {
    return concat(bytes(0x03), ascii(sql));
  }

  static byte[] stmt(int command, int id, byte[] rest) {
    return concat(bytes(command), int4(id), rest);
  }

  /** COM_STMT_PREPARE_OK. */
  static byte[] prepareOk(int id, int columns, int params) {
    return concat(bytes(0x00), int4(id), int2(columns), int2(params), bytes(0), int2(0));
  }
}
