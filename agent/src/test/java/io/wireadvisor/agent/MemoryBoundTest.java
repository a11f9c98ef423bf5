package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.agent.internal.TextCache;
import io.wireadvisor.agent.internal.Window;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.sql.SqlClassifier;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's retained heap stays bounded whatever the SQL traffic: 100,000 distinct texts of
 * 1 KB to 1 MB go through {@link Hooks#command} (the advice's own entry point, the same path as a
 * real COM_QUERY), and afterwards the heap the agent holds, measured after full GCs, is under
 * {@link #RETAINED_BOUND}; each cache's accounted bytes are under its bound; and no command made
 * the classifier read more than {@link SqlClassifier#PREFIX_CHARS} characters or the cache decode
 * more than {@link TextCache#PREFIX_BYTES} bytes (the work per command is bounded by those, so
 * nothing here measures time).
 */
class MemoryBoundTest {
  /** The documented bound of the agent's retained heap for any traffic (docs/agent.md). */
  static final long RETAINED_BOUND = 32L << 20;
  private static final int TEXTS = 100_000;
  private static final int MAX_TEXT = 1 << 20;

  @AfterEach
  void quiet() {
    Hooks.deactivate();
    Hooks.configure(RecorderSettings.defaults());
  }

  @Test
  void oneHundredThousandDistinctTextsOfUpToOneMegabyteStayUnderTheBound() throws Exception {
    long before = usedAfterGc();
    Hooks.configure(RecorderSettings.defaults());
    Hooks.activate();
    Object[] connections = new Object[4];
    for (int c = 0; c < connections.length; c++) {
      connections[c] = new Object();
    }
    // Payloads: byte 0 is COM_QUERY, the SQL follows. Bodies are filled once; each text gets its
    // own head, so no two texts are equal. Kinds rotate: padding comments, rows of VALUES (cut
    // anywhere), long select lists (long digest texts, many shapes), IN lists.
    byte[] comment = filled("/*", "padding padding padding ", "*/");
    byte[] rows = filled("", "(1,'x'),", "(2,'y')");
    byte[] columns = filled("", "c_abcdefghijklmnopqrstuvwxyz_", "0 FROM t");
    byte[] inList = filled("", "123456,", "1)");
    long total = 0;
    for (int i = 0; i < TEXTS; i++) {
      int size = size(i);
      byte[] buf;
      String head;
      switch (i % 4) {
        case 0:
          buf = comment;
          head = "SELECT " + i + " ";
          break;
        case 1:
          buf = rows;
          head = "INSERT INTO t" + (i % 97) + " (a, b) /* " + i + " */ VALUES ";
          break;
        case 2:
          buf = columns;
          // Distinct shapes: the column list differs in its first names and its length.
          head = "SELECT c" + i + ", d" + (i % 7919) + ", ";
          break;
        default:
          buf = inList;
          head = "SELECT v FROM t WHERE /* " + i + " */ id IN (";
          break;
      }
      byte[] h = head.getBytes(StandardCharsets.US_ASCII);
      Arrays.fill(buf, 1, 1 + HEAD, (byte) ' ');
      System.arraycopy(h, 0, buf, 1, h.length);
      Hooks.command(connections[i % connections.length], buf, 1 + size, System.nanoTime(), null, false, false);
      total += size;
    }
    Window w = Hooks.window();
    TrafficProfile p = Hooks.snapshot();
    assertThat(p.count(io.wireadvisor.profile.CommandType.QUERY)).isEqualTo(TEXTS);
    assertThat(p.shapes()).hasSizeLessThanOrEqualTo(RecorderSettings.defaults().maxShapes());
    assertThat(ProfileJson.toJson(p).length()).as("profile size").isLessThan(64 << 20);

    // Work per command is bounded by the prefix, whatever the text's length.
    assertThat(SqlClassifier.mostCharsLexed()).isLessThanOrEqualTo(SqlClassifier.PREFIX_CHARS);
    assertThat(w.texts.mostBytesDecoded()).isLessThanOrEqualTo(TextCache.PREFIX_BYTES);

    // Every structure's accounted bytes are under its bound.
    assertThat(w.texts.accountedBytes()).isLessThanOrEqualTo(TextCache.DEFAULT_MAX_BYTES);
    assertThat(w.recorder.accountedBytes())
        .isLessThanOrEqualTo(RecorderSettings.DEFAULT_MAX_TEXT_BYTES + RecorderSettings.DEFAULT_MAX_SHAPE_BYTES);

    // And the heap says the same: what the agent retains (this window, its caches, the
    // connections' state) is under the bound. The texts themselves (total) were far larger.
    long retained = usedAfterGc() - before;
    System.out.printf("fed %d MiB of SQL; retained %.1f MiB (texts %d KiB, recorder %d KiB accounted)%n",
        total >> 20, retained / 1048576.0, w.texts.accountedBytes() >> 10, w.recorder.accountedBytes() >> 10);
    assertThat(total).isGreaterThan(100L * RETAINED_BOUND);
    assertThat(retained).as("retained heap").isLessThan(RETAINED_BOUND);
    assertThat(Hooks.window()).isSameAs(w); // keeps the window reachable until measured
  }

  @Test
  void aSeventeenMegabyteInsertIsClassifiedOnItsHeadAndNotKept() {
    Hooks.configure(RecorderSettings.defaults());
    Hooks.activate();
    StringBuilder sb = new StringBuilder("\u0003INSERT INTO big (a, b) VALUES (0, 'x')");
    while (sb.length() < 17 << 20) {
      sb.append(",(1234567, 'abcdefghijklmnopqrstuvwxyz')");
    }
    byte[] buf = sb.toString().getBytes(StandardCharsets.US_ASCII);
    Object conn = new Object();
    Hooks.command(conn, buf, buf.length, System.nanoTime(), null, false, false);
    Hooks.command(conn, buf, buf.length, System.nanoTime(), null, false, false);
    Window w = Hooks.window();
    assertThat(w.texts.mostBytesDecoded()).isLessThanOrEqualTo(TextCache.PREFIX_BYTES);
    assertThat(SqlClassifier.mostCharsLexed()).isLessThanOrEqualTo(SqlClassifier.PREFIX_CHARS);
    assertThat(w.texts.accountedBytes()).isLessThan(16 * 1024);
    TrafficProfile p = Hooks.snapshot();
    assertThat(p.shapes().values())
        .anySatisfy(s -> {
          // The same shape as a short multi-row INSERT: the cut fell inside literal rows.
          assertThat(s.digest()).isEqualTo(
              SqlClassifier.classify("INSERT INTO big (a, b) VALUES (0, 'x'), (1, 'y')").digest());
          assertThat(s.maxSqlLength()).isEqualTo(buf.length - 1);
          assertThat(s.count(io.wireadvisor.profile.Via.TEXT_EXECUTES)).isEqualTo(2);
        });
  }

  @Test
  void theShapeBudgetSendsFurtherShapesToOverflowInsteadOfGrowing() {
    ProfileRecorder r =
        new ProfileRecorder(new RecorderSettings(100_000, 20_000, true, 1 << 20, 1 << 20));
    StringBuilder cols = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      cols.append("column_number_").append(i).append(", ");
    }
    for (int i = 0; i < 2_000; i++) {
      r.shape("SELECT " + cols + "x" + i + " FROM t" + i).record(io.wireadvisor.profile.Via.TEXT_EXECUTES);
    }
    assertThat(r.accountedBytes()).isLessThanOrEqualTo(2 << 20);
    assertThat(r.snapshot().shapes().values()).anySatisfy(s -> assertThat(s.isOverflow()).isTrue());
    r.snapshot().shapes().values().forEach(s -> {
      assertThat(s.digestText().length()).isLessThanOrEqualTo(SqlClassifier.MAX_DIGEST_TEXT);
      if (s.sample() != null) {
        assertThat(s.sample().length()).isLessThanOrEqualTo(ProfileRecorder.MAX_SAMPLE_CHARS);
      }
    });
  }

  private static final int HEAD = 96;

  /** A payload buffer: command byte, HEAD bytes for the head, then the body repeated. */
  private static byte[] filled(String open, String repeat, String close) {
    byte[] b = new byte[1 + MAX_TEXT + 64];
    b[0] = 3;
    Arrays.fill(b, 1, 1 + HEAD, (byte) ' ');
    int at = 1 + HEAD;
    byte[] o = open.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(o, 0, b, at, o.length);
    at += o.length;
    byte[] r = repeat.getBytes(StandardCharsets.US_ASCII);
    while (at + r.length < b.length) {
      System.arraycopy(r, 0, b, at, r.length);
      at += r.length;
    }
    byte[] c = close.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(c, 0, b, b.length - c.length, c.length);
    return b;
  }

  /** 1 KB to 1 MB: most texts 1-8 KB, every tenth one up to 1 MB. */
  private static int size(int i) {
    long mix = (i * 0x9E3779B97F4A7C15L) >>> 40;
    if (i % 10 == 0) {
      return 1024 + (int) (mix % (MAX_TEXT - 1024));
    }
    return 1024 + (int) (mix % (7 * 1024));
  }

  private static long usedAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(50);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
