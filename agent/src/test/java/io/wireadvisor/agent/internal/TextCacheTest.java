package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.RecorderSettings;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TextCacheTest {
  private final Window w = new Window(RecorderSettings.defaults());

  @Test
  void sameBytesHitTheSameEntryAtAnyOffset() {
    byte[] a = "\u0003SELECT v FROM t WHERE id = ?".getBytes(StandardCharsets.UTF_8);
    byte[] b = "xx\u0003SELECT v FROM t WHERE id = ?yy".getBytes(StandardCharsets.UTF_8);
    TextCache.Entry first = w.texts.lookup(a, 1, a.length);
    TextCache.Entry second = w.texts.lookup(b, 3, b.length - 2);
    assertThat(second).isSameAs(first);
    assertThat(first.sql).isEqualTo("SELECT v FROM t WHERE id = ?");
    assertThat(first.window()).isSameAs(w);
  }

  @Test
  void differentTextsNeverShareAnEntryEvenInTheSameSlot() {
    for (int i = 0; i < 20_000; i++) {
      byte[] sql = ("SELECT " + i).getBytes(StandardCharsets.UTF_8);
      TextCache.Entry e = w.texts.lookup(sql, 0, sql.length);
      assertThat(e.sql).isEqualTo("SELECT " + i);
    }
  }

  @Test
  void literalsVaryButTheShapeIsShared() {
    byte[] one = "SELECT * FROM t WHERE id = 1".getBytes(StandardCharsets.UTF_8);
    byte[] two = "SELECT * FROM t WHERE id = 2".getBytes(StandardCharsets.UTF_8);
    assertThat(w.texts.lookup(one, 0, one.length).shape.digest())
        .isEqualTo(w.texts.lookup(two, 0, two.length).shape.digest());
  }

  @Test
  void hugeTextsAreResolvedButNotKept() {
    StringBuilder sb = new StringBuilder("INSERT INTO t (id) VALUES (0)");
    while (sb.length() <= TextCache.MAX_CACHED_BYTES) {
      sb.append(", (1)");
    }
    byte[] sql = sb.toString().getBytes(StandardCharsets.UTF_8);
    TextCache.Entry first = w.texts.lookup(sql, 0, sql.length);
    TextCache.Entry second = w.texts.lookup(sql, 0, sql.length);
    assertThat(second).isNotSameAs(first);
    assertThat(second.shape.digest()).isEqualTo(first.shape.digest());
    assertThat(first.shape.classification().digestText()).startsWith("insert into t");
  }

  @Test
  void utf8TextIsDecoded() {
    byte[] sql = "SELECT 'grüße' FROM dual".getBytes(StandardCharsets.UTF_8);
    assertThat(w.texts.lookup(sql, 0, sql.length).sql).isEqualTo("SELECT 'grüße' FROM dual");
  }
}
