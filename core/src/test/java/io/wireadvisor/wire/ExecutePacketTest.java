package io.wireadvisor.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.BinaryValues;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExecutePacketTest {
  /** id 7, two parameters bound: LONGLONG 5 and VAR_STRING "ab". */
  private static byte[] packet() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x17);
    b.writeBytes(new byte[] {7, 0, 0, 0, 0, 1, 0, 0, 0});
    b.write(0); // null bitmap
    b.write(1); // bound
    b.writeBytes(new byte[] {0x08, 0, (byte) 0xfd, 0});
    b.writeBytes(new byte[] {5, 0, 0, 0, 0, 0, 0, 0});
    b.write(2);
    b.writeBytes("ab".getBytes(StandardCharsets.UTF_8));
    return b.toByteArray();
  }

  @Test
  void readsTypesAndValuesAndReusesTypesWhenNotRebound() {
    byte[] p = packet();
    BinaryValues v = new BinaryValues();
    int[] types = ExecutePacket.read(p, p.length, 2, null, null, false, v);
    assertThat(types).containsExactly(0x08, 0xfd);
    assertThat(v.values()).extracting(Object::toString).containsExactly("number:5", "string:ab");
    assertThat(ExecutePacket.statementId(p)).isEqualTo(7);

    byte[] again = {0x17, 7, 0, 0, 0, 0, 1, 0, 0, 0, 0b10, 0, 9, 0, 0, 0, 0, 0, 0, 0};
    BinaryValues w = new BinaryValues();
    assertThat(ExecutePacket.read(again, again.length, 2, types, null, false, w)).isSameAs(types);
    assertThat(w.values()).extracting(Object::toString).containsExactly("number:9", "NULL");
    assertThat(ExecutePacket.read(again, again.length, 2, null, null, false, new BinaryValues()))
        .as("types unknown")
        .isNull();
    BinaryValues longData = new BinaryValues();
    assertThat(ExecutePacket.read(p, p.length - 3, 2, null, new boolean[] {false, true}, false, longData)).isNotNull();
    assertThat(longData.values().get(1).isMasked()).isTrue();
  }

  @Test
  void truncatedOrGarbledPacketsGiveNullNeverThrow() {
    byte[] p = packet();
    for (int len = 0; len < p.length; len++) {
      assertThat(ExecutePacket.read(p, len, 2, null, null, false, new BinaryValues())).as("cut at %d", len).isNull();
    }
    Random r = new Random(42);
    for (int i = 0; i < 20_000; i++) {
      byte[] g = p.clone();
      for (int k = 0; k < 3; k++) {
        g[1 + r.nextInt(g.length - 1)] = (byte) r.nextInt(256);
      }
      int n = r.nextInt(5);
      ExecutePacket.read(g, g.length, n, null, null, r.nextBoolean(), new BinaryValues());
    }
  }
}
