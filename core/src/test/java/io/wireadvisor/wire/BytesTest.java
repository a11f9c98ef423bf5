package io.wireadvisor.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BytesTest {
  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  @Test
  void lengthEncodedIntegersOfEverySize() {
    assertThat(Bytes.lenenc(b(0xfa), 0, 1)).isEqualTo(250);
    assertThat(Bytes.lenenc(b(0xfc, 0x2c, 0x01), 0, 3)).isEqualTo(300);
    assertThat(Bytes.lenenc(b(0xfd, 1, 2, 3), 0, 4)).isEqualTo(0x030201);
    assertThat(Bytes.lenenc(b(0xfe, 1, 0, 0, 0, 0, 0, 0, 0x7f), 0, 9)).isEqualTo(0x7f00000000000001L);
  }

  @Test
  void malformedOrTruncatedIsMinusOne() {
    assertThat(Bytes.lenenc(b(0xfb), 0, 1)).as("NULL marker").isEqualTo(-1);
    assertThat(Bytes.lenenc(b(0xff), 0, 1)).as("ERR marker").isEqualTo(-1);
    assertThat(Bytes.lenenc(b(0xfc, 1), 0, 2)).as("truncated").isEqualTo(-1);
    assertThat(Bytes.lenenc(b(0xfc, 1, 1), 0, 2)).as("past the limit, though in the array").isEqualTo(-1);
    assertThat(Bytes.lenenc(b(0xfe, 0, 0, 0, 0, 0, 0, 0, 0x80), 0, 9)).as("above Long.MAX_VALUE").isEqualTo(-1);
    assertThat(Bytes.lenenc(b(1), 1, 1)).as("offset at the limit").isEqualTo(-1);
  }

  @Test
  void lengthEncodedStringsEndWithinTheLimit() {
    assertThat(Bytes.skipLenencString(b(2, 'a', 'b', 'c'), 0, 4)).isEqualTo(3);
    assertThat(Bytes.skipLenencString(b(3, 'a', 'b', 'c'), 0, 3)).isEqualTo(-1);
    assertThat(Bytes.skipLenencString(b(0xfe, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0), 0, 9))
        .as("a length no packet can hold")
        .isEqualTo(-1);
  }

  @Test
  void littleEndianIntegers() {
    byte[] x = b(0x01, 0x02, 0x03, 0x84);
    assertThat(Bytes.uint16(x, 0)).isEqualTo(0x0201);
    assertThat(Bytes.uint24(x, 0)).isEqualTo(0x030201);
    assertThat(Bytes.int32(x, 0)).isEqualTo(0x84030201);
  }
}
