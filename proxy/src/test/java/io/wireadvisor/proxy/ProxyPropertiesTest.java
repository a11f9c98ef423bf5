package io.wireadvisor.proxy;

import io.wireadvisor.wire.QueryAttributes;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Properties of what parses peer bytes: {@link PacketScanner} forwards exactly what came in
 * however it is split and holds no more than its caps; {@link SessionTracker} fed random and
 * mutated packets from both sides fails only with a {@link ProtocolException} (which closes that
 * connection) and holds no more than its caps; {@link QueryPacket} never throws and finds the SQL
 * after any query attributes.
 */
class ProxyPropertiesTest {
  private static final int MAX_HELD = 4096;

  /** Neither modifies nor drops: holds every third packet, captures a random head. */
  private static final class Passive implements PacketScanner.Handler {
    final Random random;
    int packets;
    int headerCalls;

    Passive(long seed) {
      random = new Random(seed);
    }

    @Override
    public boolean holdNextPacket() {
      return random.nextInt(3) == 0;
    }

    @Override
    public int begin(int length, int seq, boolean continuation) {
      headerCalls++;
      return random.nextInt(3) == 0 ? Integer.MAX_VALUE : random.nextInt(100);
    }

    @Override
    public int packet(int length, int seq, boolean continuation, byte[] head, int headLength) {
      packets++;
      assertThat(headLength).isLessThanOrEqualTo(length);
      return PacketScanner.FORWARD;
    }
  }

  @Property(tries = 300)
  void scannerForwardsExactlyTheBytesItReceivesHoweverTheyAreSplit(
      @ForAll @Size(max = 30) List<@IntRange(max = 3000) Integer> sizes,
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 5000) int maxPiece) {
    Random random = new Random(seed);
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    int seq = 0;
    for (int size : sizes) {
      byte[] payload = new byte[size];
      random.nextBytes(payload);
      wire.writeBytes(Wire.packet(seq++ & 0xff, payload));
    }
    byte[] in = wire.toByteArray();
    Passive handler = new Passive(seed);
    PacketScanner scanner = new PacketScanner(handler, MAX_HELD);
    byte[] out = PacketScannerTest.scanInPieces(scanner, in, random, maxPiece);
    // Held packets (up to 3000 bytes, under MAX_HELD) come out unchanged too.
    assertThat(out).isEqualTo(in);
    assertThat(handler.packets).isEqualTo(sizes.size());
    assertThat(scanner.heldBytes()).isLessThanOrEqualTo(MAX_HELD);
  }

  @Property(tries = 300)
  void scannerNeverHoldsMoreThanItsCapsWhateverTheHeadersSay(
      @ForAll @Size(min = 1, max = 2000) byte[] garbage, @ForAll long seed) {
    Passive handler = new Passive(seed);
    PacketScanner scanner = new PacketScanner(handler, MAX_HELD);
    List<ByteBuf> out = new ArrayList<>();
    ByteBuf in = Unpooled.wrappedBuffer(garbage);
    long forwarded = 0;
    try {
      scanner.scan(in, out);
    } catch (ProtocolException e) {
      assertThat(e.getMessage()).contains("exceeds the proxy's limit");
    } finally {
      in.release();
      for (ByteBuf b : out) {
        forwarded += b.readableBytes();
      }
      Channels.releaseAll(out);
    }
    assertThat(forwarded).isLessThanOrEqualTo(garbage.length);
    // Grown only with bytes received: never more than what came in (or the initial 64).
    assertThat(scanner.heldBytes()).isLessThanOrEqualTo(Math.max(64, 2 * garbage.length));
  }

  @Provide
  Arbitrary<List<byte[]>> conversations() {
    Arbitrary<byte[]> packet =
        Arbitraries.oneOf(
            Arbitraries.bytes().array(byte[].class).ofMaxSize(64),
            Arbitraries.of(
                Wire.packet(0, Wire.greeting("8.0.11-TiDB-v8.5.3", TrackerHarness.BASE_CAPS,
                    "mysql_native_password")),
                Wire.packet(1, Wire.handshakeResponse(TrackerHarness.BASE_CAPS, "app",
                    new byte[20], "mysql_native_password")),
                Wire.packet(2, Wire.ok(2)),
                Wire.packet(0, Wire.query("SELECT 1")),
                Wire.packet(0, Wire.concat(Wire.bytes(0x16), Wire.ascii("SELECT ?"))),
                Wire.packet(1, Wire.prepareOk(1, 1, 1)),
                Wire.packet(0, Wire.stmt(0x17, 1, Wire.bytes(0, 1, 0, 0, 0))),
                Wire.packet(1, Wire.lenenc(1)),
                Wire.packet(2, Wire.columnDef("a")),
                Wire.packet(3, Wire.eof(2)),
                Wire.packet(4, Wire.textRow("x")),
                Wire.packet(1, Wire.err(1064, "syntax")),
                Wire.packet(1, Wire.concat(Wire.bytes(0xfe), Wire.nul("caching_sha2_password"),
                    new byte[20], Wire.bytes(0))),
                Wire.packet(1, Wire.bytes(0x01, 0x04)),
                Wire.packet(1, Wire.bytes(0xfb)),
                Wire.header(0xffffff, 0), // a 16 MiB packet announced (and never sent)
                Wire.header(1 << 20, 1), // a 1 MiB login packet announced
                Wire.packet(0, Wire.bytes(0x11)), // change user without a body
                Wire.packet(0, Wire.bytes(0x12)) // binlog dump
                ));
    return packet.list().ofMaxSize(40);
  }

  @Property(tries = 500)
  void trackerFailsOnlyWithProtocolExceptionsAndHoldsNoMoreThanItsCaps(
      @ForAll("conversations") List<byte[]> packets,
      @ForAll long seed,
      @ForAll boolean tls) {
    Random random = new Random(seed);
    TrackerHarness h =
        new TrackerHarness(tls, tls ? UpstreamTls.Mode.PREFERRED : UpstreamTls.Mode.OFF);
    try {
      for (byte[] p : packets) {
        byte[] bytes = random.nextInt(4) == 0 ? mutate(random, p) : p;
        boolean fromServer = random.nextBoolean();
        try {
          if (fromServer) {
            h.server(bytes);
          } else {
            h.client(bytes);
          }
        } catch (ProtocolException e) {
          return; // the proxy sends an ERR and closes this connection: nothing more to feed
        }
        h.tracker.takeStartTls();
        h.tracker.takeStartUpstreamTls();
        assertThat(h.tracker.heldBytes())
            .isLessThanOrEqualTo(2 * SessionTracker.MAX_HANDSHAKE_PACKET);
      }
    } finally {
      h.tracker.close();
      assertThat(h.stats.statements.used()).isZero();
    }
  }

  private static byte[] mutate(Random random, byte[] p) {
    byte[] copy = p.clone();
    if (copy.length == 0) {
      return copy;
    }
    for (int i = 0; i < 1 + random.nextInt(3); i++) {
      copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
    }
    return copy;
  }

  @Property(tries = 1000)
  void queryPacketNeverThrowsOnAnyHead(@ForAll @Size(min = 1, max = 300) byte[] head,
      @ForAll boolean attributes) {
    int offset = QueryAttributes.sqlOffset(head, head.length, attributes);
    assertThat(offset).isBetween(-1, head.length);
    if (offset >= 1) {
      assertThat(QueryPacket.sql(head, offset, head.length)).isNotNull();
    }
  }

  @Property(tries = 500)
  void queryPacketFindsTheSqlAfterAnyStringAttributes(
      @ForAll @Size(max = 5) List<@Size(max = 300) String> attributes,
      @ForAll @Size(max = 500) String sqlText) {
    String sql = "SELECT '" + sqlText + "'";
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x03);
    b.writeBytes(Wire.lenenc(attributes.size()));
    b.writeBytes(Wire.lenenc(1));
    if (!attributes.isEmpty()) {
      b.writeBytes(new byte[(attributes.size() + 7) / 8]); // null bitmap: none null
      b.write(1); // new params bound
      for (int i = 0; i < attributes.size(); i++) {
        b.write(0xfe); // MYSQL_TYPE_STRING
        b.write(0);
        b.writeBytes(Wire.lenencString("attr" + i));
      }
      for (String a : attributes) {
        b.writeBytes(Wire.lenencString(a));
      }
    }
    int sqlStart = b.size();
    b.writeBytes(sql.getBytes(StandardCharsets.UTF_8));
    byte[] head = b.toByteArray();
    assertThat(QueryAttributes.sqlOffset(head, head.length, true)).isEqualTo(sqlStart);
    // Bytes in equal bytes out: the SQL decoded is the SQL encoded.
    assertThat(QueryPacket.sql(head, sqlStart, head.length)).isEqualTo(sql);
  }

  @Property(tries = 50)
  void recorderStaysWithinItsByteBoundsForAnyTexts(
      @ForAll @Size(min = 1, max = 300) List<@IntRange(min = 1, max = 20_000) Integer> lengths) {
    long textBound = 256 * 1024;
    long shapeBound = 128 * 1024;
    ProfileRecorder r =
        new ProfileRecorder(RecorderSettings.defaults().withMaxBytes(textBound, shapeBound));
    int i = 0;
    for (int length : lengths) {
      StringBuilder sb = new StringBuilder("SELECT * FROM t").append(i++).append(" WHERE a IN (");
      while (sb.length() < length) {
        sb.append("b").append(sb.length()).append(',');
      }
      r.shape(sb.append("1)").toString());
      assertThat(r.textBytes()).isLessThanOrEqualTo(textBound);
      assertThat(r.shapeBytes()).isLessThanOrEqualTo(shapeBound);
    }
  }
}
