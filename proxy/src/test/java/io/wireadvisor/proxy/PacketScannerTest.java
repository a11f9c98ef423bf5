package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class PacketScannerTest {
  private static final int MAX = Wire.MAX;

  /** Records every callback; captures the first 8 bytes of each packet. */
  private static final class Recording implements PacketScanner.Handler {
    final List<String> packets = new ArrayList<>();
    boolean holdFirst;
    int limit = 8;

    @Override
    public boolean holdNextPacket() {
      boolean h = holdFirst;
      holdFirst = false;
      return h;
    }

    @Override
    public int begin(int length, int seq, boolean continuation) {
      return limit;
    }

    @Override
    public int packet(int length, int seq, boolean continuation, byte[] head, int headLength) {
      packets.add(length + "/" + seq + (continuation ? "c" : "") + ":" + headLength);
      if (headLength > 0) {
        head[0] ^= (byte) 0xff; // a held packet must come out with this change, others not
      }
      return PacketScanner.FORWARD;
    }
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void boundarySizesAreFramedAsMySqlSplitsThemAndForwardedByteForByte() {
    Random random = new Random(1);
    for (int size : new int[] {0, MAX, MAX + 1, 2 * MAX, 1 + random.nextInt(70_000)}) {
      byte[] payload = new byte[size];
      random.nextBytes(payload);
      byte[] wire = Wire.packets(0, payload);
      Recording r = new Recording();
      byte[] out = scanInPieces(new PacketScanner(r, 1 << 20), wire, random, 1 << 16);
      assertThat(out).as("bytes forwarded for payload %d", size).isEqualTo(wire);
      List<String> expected = new ArrayList<>();
      int chunks = size / MAX + 1;
      for (int i = 0; i < chunks; i++) {
        int len = Math.min(MAX, size - i * MAX);
        expected.add(len + "/" + i + (i > 0 ? "c" : "") + ":" + Math.min(8, len));
      }
      assertThat(r.packets).as("packets for payload %d", size).isEqualTo(expected);
    }
  }

  @Test
  void splittingAnywhereGivesTheSamePacketsAndBytes() {
    Random random = new Random(2);
    byte[] wire =
        Wire.concat(
            Wire.packet(0, Wire.query("SELECT 1")),
            Wire.packet(0, new byte[0]),
            Wire.packet(7, new byte[3]),
            Wire.packet(1, Wire.query("x".repeat(300))));
    List<String> reference = null;
    for (int round = 0; round < 200; round++) {
      Recording r = new Recording();
      byte[] out = scanInPieces(new PacketScanner(r, 1 << 20), wire, random, round % 5 == 0 ? 1 : 9);
      assertThat(out).isEqualTo(wire);
      if (reference == null) {
        reference = r.packets;
      }
      assertThat(r.packets).isEqualTo(reference);
    }
    assertThat(reference).containsExactly("9/0:8", "0/0:0", "3/7:3", "301/1:8");
  }

  @Test
  void heldPacketIsReEmittedWholeWithTheHandlersChangesEvenWhenItArrivesByteByByte() {
    byte[] first = Wire.packet(0, Wire.ascii("greeting"));
    byte[] second = Wire.packet(1, Wire.ascii("next"));
    Recording r = new Recording();
    r.holdFirst = true;
    byte[] out = scanInPieces(new PacketScanner(r, 1 << 20), Wire.concat(first, second), new Random(3), 1);
    byte[] expectedFirst = first.clone();
    expectedFirst[4] ^= (byte) 0xff;
    assertThat(out).isEqualTo(Wire.concat(expectedFirst, second));
  }

  @Test
  void heldPacketLargerThanTheLimitIsMalformed() {
    Recording r = new Recording();
    r.holdFirst = true;
    PacketScanner scanner = new PacketScanner(r, 100);
    ByteBuf in = Unpooled.wrappedBuffer(Wire.packet(0, new byte[101]));
    List<ByteBuf> out = new ArrayList<>();
    try {
      assertThatThrownBy(() -> scanner.scan(in, out))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("101 bytes");
    } finally {
      in.release();
      out.forEach(ByteBuf::release);
    }
  }

  @Test
  void captureIsBoundedWhateverThePacketSize() {
    Recording r = new Recording();
    r.limit = 1000;
    byte[] out =
        scanInPieces(new PacketScanner(r, 1 << 20), Wire.packets(0, new byte[3 * MAX]), new Random(4), 1 << 20);
    assertThat(out.length).isEqualTo(3 * MAX + 4 * 4);
    assertThat(r.packets).containsExactly(MAX + "/0:1000", MAX + "/1c:1000", MAX + "/2c:1000", "0/3c:0");
  }

  /** Feeds {@code wire} in random pieces of at most {@code maxPiece} bytes; returns what came out. */
  static byte[] scanInPieces(PacketScanner scanner, byte[] wire, Random random, int maxPiece) {
    ByteArrayOutputStream forwarded = new ByteArrayOutputStream(wire.length);
    int off = 0;
    List<ByteBuf> out = new ArrayList<>();
    while (off < wire.length) {
      int n = Math.min(wire.length - off, 1 + random.nextInt(maxPiece));
      ByteBuf in = Unpooled.directBuffer(n);
      in.writeBytes(wire, off, n);
      off += n;
      try {
        scanner.scan(in, out);
      } catch (ProtocolException e) {
        throw new AssertionError(e);
      } finally {
        in.release();
      }
      for (ByteBuf b : out) {
        byte[] bytes = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), bytes);
        forwarded.writeBytes(bytes);
        b.release();
      }
      out.clear();
    }
    return forwarded.toByteArray();
  }

  @Test
  void scanInPiecesHelperSeesEveryByte() {
    byte[] wire = new byte[1000];
    Arrays.fill(wire, (byte) 1);
    // 1000 bytes are not a whole packet (header says 0x010101 bytes): nothing is held back.
    Recording r = new Recording();
    assertThat(scanInPieces(new PacketScanner(r, 10), wire, new Random(5), 7)).isEqualTo(wire);
    assertThat(r.packets).isEmpty();
  }

  @Test
  void aHeaderAnnouncingALargePacketAllocatesNothingUntilItsBytesArrive() throws Exception {
    Recording r = new Recording();
    r.holdFirst = true; // a held login packet, the worst case: the whole payload is kept
    PacketScanner scanner = new PacketScanner(r, 64 * 1024);
    List<ByteBuf> out = new ArrayList<>();
    ByteBuf in = Unpooled.wrappedBuffer(new byte[] {(byte) 0x00, (byte) 0xf0, 0x00, 1, 42});
    try {
      scanner.scan(in, out); // 61,440 bytes announced, one sent
    } finally {
      in.release();
    }
    assertThat(out).isEmpty();
    assertThat(scanner.heldBytes()).isLessThanOrEqualTo(128);
    byte[] more = new byte[1000];
    ByteBuf in2 = Unpooled.wrappedBuffer(more);
    try {
      scanner.scan(in2, out);
    } finally {
      in2.release();
    }
    // Grown with what arrived (doubling), not to what was announced.
    assertThat(scanner.heldBytes()).isBetween(1001, 4096);
  }

  @Test
  void aHeldPacketLargerThanTheCapIsRefusedAtItsHeader() {
    Recording r = new Recording();
    r.holdFirst = true;
    PacketScanner scanner = new PacketScanner(r, 64 * 1024);
    ByteBuf in = Unpooled.wrappedBuffer(new byte[] {0x00, 0x00, 0x10, 1}); // 1 MiB announced
    List<ByteBuf> out = new ArrayList<>();
    try {
      assertThatThrownBy(() -> scanner.scan(in, out))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("exceeds the proxy's limit of 65536");
    } finally {
      in.release();
    }
    assertThat(scanner.heldBytes()).isLessThanOrEqualTo(128);
  }

  @Test
  void aCommandHeadGrowsOnlyWithItsBytes() throws Exception {
    Recording r = new Recording();
    r.limit = 64 * 1024; // a COM_QUERY's SQL head
    PacketScanner scanner = new PacketScanner(r, 1 << 20);
    ByteBuf in = Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 3});
    List<ByteBuf> out = new ArrayList<>();
    try {
      scanner.scan(in, out); // 16 MiB announced, one byte sent
    } finally {
      in.release();
      Channels.releaseAll(out);
    }
    assertThat(scanner.heldBytes()).isLessThanOrEqualTo(128);
  }
}
