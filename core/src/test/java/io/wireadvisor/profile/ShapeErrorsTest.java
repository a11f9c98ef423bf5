package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** ERR replies per shape by server code: recorded, bounded, merged in any order, read back. */
class ShapeErrorsTest {
  private final ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
  private final WireSession.Budget budget = new WireSession.Budget();

  private static ShapeStats only(TrafficProfile p, String digestTextPrefix) {
    return p.shapes().values().stream()
        .filter(s -> s.digestText().startsWith(digestTextPrefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no shape " + digestTextPrefix + " in " + p.shapes()));
  }

  @Test
  void aRejectedReadOnlySetIsCountedByItsCodeSqlStateAndTime() throws Exception {
    WireSession s = new WireSession(recorder, budget, null);
    ShapeHandle ro = recorder.shape("set session transaction read only");
    s.query(ro, 2_000_000, 1235, "42000");
    s.query(ro, 1_000_000, 1235, "42000");
    s.query(ro, 500_000, WireSession.NO_ERROR, null);
    s.query(ro, -1, ServerError.OTHER, null); // an I/O failure, untimed
    ShapeStats shape = only(recorder.snapshot(), "set session transaction read only");
    assertThat(shape.count(Via.ERRORS)).isEqualTo(3);
    assertThat(shape.errors().keySet()).containsExactly(0, 1235);
    ServerError e = shape.errors().get(1235);
    assertThat(e.sqlState()).isEqualTo("42000");
    assertThat(e.count()).isEqualTo(2);
    assertThat(e.timed()).isEqualTo(2);
    assertThat(e.nanos()).isEqualTo(3_000_000);
    assertThat(shape.errors().get(0).timed()).isZero();

    TrafficProfile back = ProfileJson.fromJson(ProfileJson.toJson(recorder.snapshot()));
    assertThat(only(back, "set session transaction read only")).isEqualTo(shape);
  }

  @Test
  void aShapeKeepsAtMostEightCodesAndItsTableIsChargedOnce() {
    WireSession s = new WireSession(recorder, budget, null);
    ShapeHandle h = recorder.shape("SELECT v FROM t WHERE id = ?");
    long before = recorder.shapeBytes();
    for (int code = 1000; code < 1100; code++) {
      s.query(h, 10, code, "HY000");
    }
    assertThat(recorder.shapeBytes() - before).isEqualTo(ShapeStats.ERROR_TABLE_BYTES);
    ShapeStats shape = only(recorder.snapshot(), "select v from t");
    assertThat(shape.errors()).hasSize(ShapeStats.MAX_ERROR_CODES);
    // The lowest seven codes keep their own entry; the other 93 are counted under OTHER.
    assertThat(shape.errors().keySet()).containsExactly(0, 1000, 1001, 1002, 1003, 1004, 1005, 1006);
    assertThat(shape.errors().get(0).count()).isEqualTo(93);
    long total = shape.errors().values().stream().mapToLong(ServerError::count).sum();
    assertThat(total).isEqualTo(100).isEqualTo(shape.count(Via.ERRORS));
  }

  @Test
  void mergingErrorTablesIsExactInAnyOrder() {
    Random random = new Random(24);
    List<ShapeStats> parts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ShapeStats p = new ShapeStats("d", "select ?", io.wireadvisor.sql.StatementKind.SELECT,
          null, null, null, 0, 0);
      for (int j = 0; j < 5; j++) {
        p.addError(1000 + random.nextInt(20), random.nextBoolean() ? "HY000" : "42S02", 1 + random.nextInt(5), 1, 7);
      }
      parts.add(p);
    }
    ShapeStats forward = parts.get(0).emptyCopy();
    parts.forEach(forward::add);
    for (int round = 0; round < 20; round++) {
      Collections.shuffle(parts, random);
      ShapeStats other = parts.get(0).emptyCopy();
      parts.forEach(other::add);
      assertThat(other.errors()).isEqualTo(forward.errors());
    }
  }

  @Test
  void aProfileWithMoreCodesThanAShapeKeepsOrABadSqlStateIsRefused() {
    String nine = "{\"code\":1,\"count\":1,\"timed\":0,\"nanos\":0},".repeat(9);
    String tooMany = shapeJson("[" + nine.substring(0, nine.length() - 1) + "]");
    assertThatThrownBy(() -> ProfileJson.fromJson(tooMany))
        .hasMessageContaining("shapes[0].errors").hasMessageContaining("at most 8");
    String badState = shapeJson("[{\"code\":1235,\"sqlState\":\"\\u001b[31m\",\"count\":1,\"timed\":0,\"nanos\":0}]");
    assertThatThrownBy(() -> ProfileJson.fromJson(badState)).hasMessageContaining("sqlState");
  }

  private String shapeJson(String errors) {
    TrafficProfile p = new TrafficProfile();
    ShapeStats s = new ShapeStats("d", "select ?", io.wireadvisor.sql.StatementKind.SELECT, null, null, null, 0, 0);
    s.add(Via.TEXT_EXECUTES, 1);
    p.addShape(s);
    String json = ProfileJson.toJson(p);
    return json.replace("\"counts\"", "\"errors\":" + errors + ",\"counts\"");
  }
}
