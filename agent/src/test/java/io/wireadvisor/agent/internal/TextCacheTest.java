package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.sql.Escaping;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextCacheTest {
  private final Window w = new Window(RecorderSettings.defaults());

  @Test
  void aShortTextHashesFourBytesAtATimeToTheValueByteByByteGives() {
    Random random = new Random(27);
    for (int n = 0; n <= 48; n++) {
      for (int round = 0; round < 50; round++) {
        byte[] b = new byte[n + 3];
        random.nextBytes(b); // negative bytes too: they are added sign-extended
        int h = 0x9747b28c ^ n;
        for (int i = 2; i < 2 + n; i++) {
          h = h * 31 + b[i];
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        assertThat(TextCache.hash(b, 2, 2 + n)).as("length %d", n).isEqualTo(h);
      }
    }
  }

  @Test
  void sameBytesHitTheSameEntryAtAnyOffset() {
    byte[] a = "\u0003SELECT v FROM t WHERE id = ?".getBytes(StandardCharsets.UTF_8);
    byte[] b = "xx\u0003SELECT v FROM t WHERE id = ?yy".getBytes(StandardCharsets.UTF_8);
    TextCache.Entry first = w.texts.lookup(a, 1, a.length);
    TextCache.Entry second = w.texts.lookup(b, 3, b.length - 2);
    assertThat(second).isSameAs(first);
    assertThat(first.text()).isEqualTo("SELECT v FROM t WHERE id = ?");
    assertThat(first.in(w)).isTrue();
  }

  @Test
  void differentTextsNeverShareAnEntryEvenInTheSameSlot() {
    for (int i = 0; i < 20_000; i++) {
      byte[] sql = ("SELECT " + i).getBytes(StandardCharsets.UTF_8);
      TextCache.Entry e = w.texts.lookup(sql, 0, sql.length);
      assertThat(e.text()).isEqualTo("SELECT " + i);
    }
  }

  @Test
  void aTextReadDifferentlyInTheTwoEscapingModesIsFoundOnlyInItsOwn() {
    byte[] sql = "SELECT 'a\\', 'c' FROM t".getBytes(StandardCharsets.UTF_8);
    TextCache.Entry backslash = w.texts.lookup(sql, 0, sql.length, Escaping.BACKSLASH);
    TextCache.Entry none = w.texts.lookup(sql, 0, sql.length, Escaping.NO_BACKSLASH);
    assertThat(backslash.shape.classification().digestText()).isEqualTo("select ? c ?");
    assertThat(none.shape.classification().digestText()).isEqualTo("select ?, ? from t");
    assertThat(w.texts.lookup(sql, 0, sql.length, Escaping.NO_BACKSLASH)).isSameAs(none);
    assertThat(w.texts.lookup(sql, 0, sql.length, Escaping.UNKNOWN).shape.classification().digestText())
        .isEqualTo("select ? ...");
    // A text read alike in both modes is one entry for every connection.
    byte[] plain = "SELECT 'a\\\\' FROM t".getBytes(StandardCharsets.UTF_8);
    assertThat(w.texts.lookup(plain, 0, plain.length, Escaping.NO_BACKSLASH))
        .isSameAs(w.texts.lookup(plain, 0, plain.length, Escaping.BACKSLASH));
  }

  @Test
  void literalsVaryButTheShapeIsShared() {
    byte[] one = "SELECT * FROM t WHERE id = 1".getBytes(StandardCharsets.UTF_8);
    byte[] two = "SELECT * FROM t WHERE id = 2".getBytes(StandardCharsets.UTF_8);
    assertThat(w.texts.lookup(one, 0, one.length).shape.digest())
        .isEqualTo(w.texts.lookup(two, 0, two.length).shape.digest());
  }

  @Test
  void hugeTextsAreKeptOnlyByHashOfTheirHead() {
    StringBuilder sb = new StringBuilder("INSERT INTO t (id) VALUES (0)");
    while (sb.length() <= TextCache.MAX_CACHED_BYTES) {
      sb.append(", (1)");
    }
    byte[] sql = sb.toString().getBytes(StandardCharsets.UTF_8);
    TextCache.Entry first = w.texts.lookup(sql, 0, sql.length);
    TextCache.Entry second = w.texts.lookup(sql, 0, sql.length);
    assertThat(second).isSameAs(first);
    assertThat(first.bytes()).as("not copied").isNull();
    assertThat(first.shape.classification().sqlLength()).isEqualTo(sql.length);
    assertThat(first.shape.classification().digestText()).startsWith("insert into t");
  }

  @Test
  void utf8TextIsDecoded() {
    byte[] sql = "SELECT 'grüße' FROM dual".getBytes(StandardCharsets.UTF_8);
    assertThat(w.texts.lookup(sql, 0, sql.length).text()).isEqualTo("SELECT 'grüße' FROM dual");
  }

  @Test
  void theJdkComparisonIsUsedWhereItExists() {
    // The tests run on Java 17; on Java 8 the handle is null and the loop is used.
    assertThat(TextCache.RANGE_EQUALS).isNotNull();
  }

  @Test
  void bothComparisonsSeeEveryByteAtAnyOffset() {
    byte[] text = ormSized();
    for (int offset : new int[] {0, 1, 7}) {
      byte[] buf = new byte[offset + text.length + 3];
      System.arraycopy(text, 0, buf, offset, text.length);
      int to = offset + text.length;
      assertThat(TextCache.sameBytes(text, buf, offset, to)).isTrue();
      assertThat(TextCache.sameBytesByLoop(text, buf, offset, to)).isTrue();
      for (int at : new int[] {0, 1, text.length / 2, text.length - 2, text.length - 1}) {
        byte[] changed = buf.clone();
        changed[offset + at] ^= 1;
        assertThat(TextCache.sameBytes(text, changed, offset, to)).as("byte %d", at).isFalse();
        assertThat(TextCache.sameBytesByLoop(text, changed, offset, to)).as("byte %d", at).isFalse();
      }
      // Bytes outside [from, to) do not matter.
      byte[] around = buf.clone();
      if (offset > 0) {
        around[offset - 1] ^= 1;
      }
      around[to] ^= 1;
      assertThat(TextCache.sameBytes(text, around, offset, to)).isTrue();
      assertThat(TextCache.sameBytesByLoop(text, around, offset, to)).isTrue();
    }
  }

  @Test
  void bothComparisonsRejectADifferentLengthWithTheSamePrefix() {
    byte[] text = ormSized();
    byte[] longer = new byte[text.length + 1];
    System.arraycopy(text, 0, longer, 0, text.length);
    assertThat(TextCache.sameBytes(text, longer, 0, longer.length)).isFalse();
    assertThat(TextCache.sameBytesByLoop(text, longer, 0, longer.length)).isFalse();
    assertThat(TextCache.sameBytes(text, text, 0, text.length - 1)).isFalse();
    assertThat(TextCache.sameBytesByLoop(text, text, 0, text.length - 1)).isFalse();
    assertThat(TextCache.sameBytes(new byte[0], text, 5, 5)).isTrue();
    assertThat(TextCache.sameBytesByLoop(new byte[0], text, 5, 5)).isTrue();
  }

  @Test
  void bothComparisonsAgreeOnRandomNearMisses() {
    Random random = new Random(42);
    for (int i = 0; i < 2_000; i++) {
      byte[] a = new byte[random.nextInt(400)];
      random.nextBytes(a);
      int offset = random.nextInt(4);
      byte[] buf = new byte[offset + a.length + random.nextInt(3)];
      System.arraycopy(a, 0, buf, offset, a.length);
      boolean flipped = a.length > 0 && random.nextBoolean();
      if (flipped) {
        buf[offset + random.nextInt(a.length)] ^= (byte) (1 + random.nextInt(255));
      }
      int to = offset + a.length;
      assertThat(TextCache.sameBytes(a, buf, offset, to)).isEqualTo(!flipped);
      assertThat(TextCache.sameBytesByLoop(a, buf, offset, to)).isEqualTo(!flipped);
    }
  }

  @Test
  void anOrmSizedTextThatDiffersOnlyInTheMiddleGetsItsOwnEntry() {
    byte[] one = ormSized();
    byte[] two = one.clone();
    two[one.length / 2] = (byte) 'X';
    TextCache.Entry first = w.texts.lookup(one, 0, one.length);
    assertThat(w.texts.lookup(one, 0, one.length)).isSameAs(first);
    TextCache.Entry second = w.texts.lookup(two, 0, two.length);
    assertThat(second).isNotSameAs(first);
    assertThat(second.text()).isEqualTo(new String(two, StandardCharsets.UTF_8));
  }

  private static byte[] ormSized() {
    StringBuilder orm = new StringBuilder("SELECT t.id, t.v");
    for (int i = 0; orm.length() < 300; i++) {
      orm.append(", t.column_").append(i).append(" AS alias_").append(i);
    }
    orm.append(" FROM t WHERE t.id = 42");
    return orm.toString().getBytes(StandardCharsets.UTF_8);
  }
}
