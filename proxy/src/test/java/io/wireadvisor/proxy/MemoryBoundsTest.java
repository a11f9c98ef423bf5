package io.wireadvisor.proxy;

import static io.wireadvisor.proxy.Wire.bytes;
import static io.wireadvisor.proxy.Wire.concat;
import static io.wireadvisor.proxy.Wire.packet;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Via;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What prepared statements and long SQL texts may cost, in bytes: many connections each
 * preparing many distinct large statements stay under the per-connection and global statement
 * bounds and the recorder's text and shape bounds, and the heap measured says the same.
 */
class MemoryBoundsTest {
  private static final int CAPS = TrackerHarness.BASE_CAPS | Capabilities.CLIENT_DEPRECATE_EOF;

  /** A distinct statement of about {@code size} characters (distinct digest: its own table). */
  private static String bigStatement(int connection, int i, int size) {
    StringBuilder sb = new StringBuilder("SELECT ");
    int column = 0;
    while (sb.length() < size) {
      sb.append("c").append(column++).append(", ");
    }
    return sb.append("x FROM t_").append(connection).append('_').append(i).append(" WHERE id = ?")
        .toString();
  }

  @Test
  void statementMapsAreBoundedPerConnectionAndInTotal() throws Exception {
    ProxyStats stats = new ProxyStats();
    ProfileRecorder recorder =
        new ProfileRecorder(RecorderSettings.defaults().withMaxBytes(4L << 20, 8L << 20));
    long perConnection = 64 * 1024;
    long total = 512 * 1024;
    List<SessionTracker> trackers = new ArrayList<>();
    for (int c = 0; c < 20; c++) {
      TrackerHarness h = new TrackerHarness(recorder, stats);
      h.tracker.statementLimits(perConnection, total);
      h.loggedIn(CAPS);
      for (int i = 1; i <= 400; i++) {
        h.client(packet(0, concat(bytes(0x16), Wire.ascii(bigStatement(c, i, 4000)))));
        h.server(packet(1, Wire.prepareOk(i, 0, 1)), packet(2, Wire.columnDef("?")));
        assertThat(h.tracker.statementBytes()).isLessThanOrEqualTo(perConnection);
        assertThat(stats.statements.used()).isLessThanOrEqualTo(total);
      }
      // The statements remembered still attribute their EXECUTEs.
      h.client(packet(0, Wire.stmt(0x17, 1, bytes(0, 1, 0, 0, 0))));
      h.server(packet(1, Wire.ok(2)));
      trackers.add(h.tracker);
    }
    // The shared budget is full (statement entries, and the shapes each connection used).
    assertThat(stats.statements.used()).isLessThanOrEqualTo(total)
        .isGreaterThan(total - SessionTracker.STATEMENT_ENTRY_BYTES - SessionTracker.USED_SHAPE_ENTRY_BYTES);
    assertThat(stats.statements.untrackedStatements()).isGreaterThan(0);
    assertThat(recorder.textBytes()).isLessThanOrEqualTo(4L << 20);
    assertThat(recorder.shapeBytes()).isLessThanOrEqualTo(8L << 20);
    assertThat(recorder.snapshot().count(CommandType.STMT_PREPARE)).isEqualTo(20 * 400);
    assertThat(recorder.snapshot().total(Via.EXECUTES)).isGreaterThanOrEqualTo(1);
    trackers.forEach(SessionTracker::close);
    assertThat(stats.statements.used()).isZero();
  }

  @Test
  void theShapesEachConnectionUsedAreCappedAndPaidForFromTheSharedBudget() throws Exception {
    // Found in review: two unbounded per-connection sets of used shapes, 364 KiB a connection.
    ProxyStats stats = new ProxyStats();
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults().withMaxShapes(20_000));
    long total = 64L << 20;
    TrackerHarness h = new TrackerHarness(recorder, stats);
    h.tracker.statementLimits(1L << 20, total);
    h.loggedIn(CAPS);
    for (int i = 0; i < 3000; i++) {
      h.client(packet(0, concat(bytes(0x03), Wire.ascii("SELECT c" + i + " FROM t" + i))));
      h.server(packet(1, Wire.ok(2)));
    }
    long cap = ProfileRecorder.MAX_SHAPES_PER_CONNECTION;
    assertThat(stats.statements.used()).isEqualTo(cap * SessionTracker.USED_SHAPE_ENTRY_BYTES);
    // A budget with room for ten: the rest are not remembered, and nothing is lost but that set.
    ProxyStats small = new ProxyStats();
    TrackerHarness s = new TrackerHarness(recorder, small);
    s.tracker.statementLimits(1L << 20, 10 * SessionTracker.USED_SHAPE_ENTRY_BYTES);
    s.loggedIn(CAPS);
    for (int i = 0; i < 100; i++) {
      s.client(packet(0, concat(bytes(0x03), Wire.ascii("SELECT d" + i + " FROM u"))));
      s.server(packet(1, Wire.ok(2)));
    }
    assertThat(small.statements.used()).isEqualTo(10 * SessionTracker.USED_SHAPE_ENTRY_BYTES);
    assertThat(recorder.snapshot().count(CommandType.QUERY)).isEqualTo(3100);
    h.tracker.close();
    s.tracker.close();
    assertThat(stats.statements.used()).isZero();
    assertThat(small.statements.used()).isZero();
  }

  @Test
  void retainedHeapOfManyLargeStatementsStaysUnderTheBounds() throws Exception {
    ProxyStats stats = new ProxyStats();
    long textBound = 8L << 20;
    long shapeBound = 8L << 20;
    long statementTotal = 4L << 20;
    ProfileRecorder recorder =
        new ProfileRecorder(RecorderSettings.defaults().withMaxBytes(textBound, shapeBound));
    long before = usedHeapAfterGc();
    List<TrackerHarness> open = new ArrayList<>();
    for (int c = 0; c < 50; c++) {
      TrackerHarness h = new TrackerHarness(recorder, stats);
      h.tracker.statementLimits(1L << 20, statementTotal);
      h.loggedIn(CAPS);
      for (int i = 1; i <= 100; i++) {
        // 50 × 100 distinct statements of 60,000 characters: 300 M characters seen in all.
        h.client(packet(0, concat(bytes(0x16), Wire.ascii(bigStatement(c, i, 60_000)))));
        h.server(packet(1, Wire.prepareOk(i, 0, 1)), packet(2, Wire.columnDef("?")));
      }
      open.add(h); // every connection still open: its statements still remembered
    }
    long retained = usedHeapAfterGc() - before;
    // Without bounds: 5,000 texts of 60,000 chars held twice (text memory, digest texts) ≈ 600 MB.
    long bound = textBound + shapeBound + statementTotal + (16L << 20); // + trackers, slack
    assertThat(retained).as("heap retained by 50 connections").isLessThan(bound);
    assertThat(open).hasSize(50);
  }

  static long usedHeapAfterGc() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50);
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }
}
