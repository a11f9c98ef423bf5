package io.wireadvisor.capture;

import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.ExecutePacket;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The values of a COM_STMT_EXECUTE as capture values: integers and decimals as numbers, temporal
 * types in ISO form, character types as strings (the connection's character set is taken to be
 * UTF-8, as Connector/J's default is), binary types as base64.
 */
public final class BinaryValues implements ExecutePacket.Sink {
  private final List<CaptureValue> values = new ArrayList<>();

  /** The values read so far, in parameter order. */
  public List<CaptureValue> values() {
    return values;
  }

  @Override
  public void nullValue(int index) {
    values.add(CaptureValue.NULL);
  }

  @Override
  public void longData(int index, int type) {
    // Sent in pieces before the execution; only its type is known here.
    values.add(CaptureValue.masked(typeOf(type & 0xff), 0));
  }

  @Override
  public void value(int index, int type, byte[] b, int off, int len) {
    boolean unsigned = (type & ExecutePacket.UNSIGNED) != 0;
    int t = type & 0xff;
    switch (t) {
      case 0x01:
        values.add(number(unsigned ? b[off] & 0xff : b[off]));
        return;
      case 0x02:
      case 0x0d:
        {
          int v = Bytes.uint16(b, off);
          values.add(number(unsigned || t == 0x0d ? v : (short) v));
          return;
        }
      case 0x03:
      case 0x09:
        {
          int v = Bytes.int32(b, off);
          values.add(number(unsigned ? v & 0xffffffffL : v));
          return;
        }
      case 0x08:
        {
          long v = (Bytes.int32(b, off) & 0xffffffffL) | ((long) Bytes.int32(b, off + 4) << 32);
          values.add(CaptureValue.of(CaptureValue.Type.NUMBER,
              unsigned && v < 0 ? new BigInteger(Long.toUnsignedString(v)).toString() : Long.toString(v)));
          return;
        }
      case 0x04:
        values.add(CaptureValue.of(CaptureValue.Type.NUMBER, Float.toString(Float.intBitsToFloat(Bytes.int32(b, off)))));
        return;
      case 0x05:
        {
          long bits = (Bytes.int32(b, off) & 0xffffffffL) | ((long) Bytes.int32(b, off + 4) << 32);
          values.add(CaptureValue.of(CaptureValue.Type.NUMBER, Double.toString(Double.longBitsToDouble(bits))));
          return;
        }
      case 0x0a:
        values.add(CaptureValue.of(CaptureValue.Type.DATE, date(b, off, len)));
        return;
      case 0x07:
      case 0x0c:
        values.add(CaptureValue.of(CaptureValue.Type.DATETIME, datetime(b, off, len)));
        return;
      case 0x0b:
        values.add(CaptureValue.of(CaptureValue.Type.TIME, time(b, off, len)));
        return;
      case 0x06:
        values.add(CaptureValue.NULL);
        return;
      default:
        CaptureValue.Type kind = typeOf(t);
        // Connector/J sends setBytes with a string type: bytes that are not UTF-8 are binary.
        if (kind == CaptureValue.Type.NUMBER) { // DECIMAL: its digits as text
          values.add(CaptureValue.of(kind, new String(b, off, len, StandardCharsets.US_ASCII)));
          return;
        }
        String text = kind == CaptureValue.Type.STRING ? utf8(b, off, len) : null;
        if (text == null) {
          byte[] copy = new byte[len];
          System.arraycopy(b, off, copy, 0, len);
          values.add(CaptureValue.of(CaptureValue.Type.BYTES, java.util.Base64.getEncoder().encodeToString(copy)));
        } else {
          values.add(CaptureValue.of(kind, text));
        }
    }
  }

  /** The text of {@code b[off, off + len)} when it is well-formed UTF-8 without NUL, else null. */
  private static String utf8(byte[] b, int off, int len) {
    java.nio.charset.CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    try {
      String s = d.decode(java.nio.ByteBuffer.wrap(b, off, len)).toString();
      return s.indexOf('\0') >= 0 ? null : s;
    } catch (java.nio.charset.CharacterCodingException e) {
      return null;
    }
  }

  private static CaptureValue number(long v) {
    return CaptureValue.of(CaptureValue.Type.NUMBER, Long.toString(v));
  }

  static CaptureValue.Type typeOf(int t) {
    switch (t) {
      case 0x00: // DECIMAL
      case 0xf6: // NEWDECIMAL
      case 0x01:
      case 0x02:
      case 0x03:
      case 0x04:
      case 0x05:
      case 0x08:
      case 0x09:
      case 0x0d:
        return CaptureValue.Type.NUMBER;
      case 0x0a:
        return CaptureValue.Type.DATE;
      case 0x0b:
        return CaptureValue.Type.TIME;
      case 0x07:
      case 0x0c:
        return CaptureValue.Type.DATETIME;
      case 0x10: // BIT
      case 0xf9: // TINY_BLOB
      case 0xfa: // MEDIUM_BLOB
      case 0xfb: // LONG_BLOB
      case 0xfc: // BLOB
      case 0xff: // GEOMETRY
        return CaptureValue.Type.BYTES;
      default: // VARCHAR, VAR_STRING, STRING, JSON, ENUM, SET
        return CaptureValue.Type.STRING;
    }
  }

  private static String date(byte[] b, int off, int len) {
    if (len < 4) {
      return "0000-00-00";
    }
    return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", Bytes.uint16(b, off), b[off + 2], b[off + 3]);
  }

  private static String datetime(byte[] b, int off, int len) {
    String d = date(b, off, len);
    int h = len >= 7 ? b[off + 4] : 0;
    int m = len >= 7 ? b[off + 5] : 0;
    int s = len >= 7 ? b[off + 6] : 0;
    String t = String.format(java.util.Locale.ROOT, "%s %02d:%02d:%02d", d, h, m, s);
    if (len >= 11) {
      t += String.format(java.util.Locale.ROOT, ".%06d", Bytes.int32(b, off + 7));
    }
    return t;
  }

  private static String time(byte[] b, int off, int len) {
    if (len < 8) {
      return "00:00:00";
    }
    boolean negative = b[off] == 1;
    long hours = (Bytes.int32(b, off + 1) & 0xffffffffL) * 24 + b[off + 5];
    String t = String.format(java.util.Locale.ROOT, "%s%02d:%02d:%02d", negative ? "-" : "", hours, b[off + 6], b[off + 7]);
    if (len >= 12) {
      t += String.format(java.util.Locale.ROOT, ".%06d", Bytes.int32(b, off + 8));
    }
    return t;
  }
}
