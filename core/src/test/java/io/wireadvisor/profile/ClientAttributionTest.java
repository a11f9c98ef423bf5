package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import org.junit.jupiter.api.Test;

/** A proxy's sessions say which client sent which shapes and commands; bounded in bytes. */
class ClientAttributionTest {
  private final ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
  private final WireSession.Budget budget = new WireSession.Budget();

  @Test
  void shapesAndCommandsCountForTheClientThatSentThem() throws Exception {
    WireSession jdbc = new WireSession(recorder, budget, null);
    jdbc.client("MySQL Connector/J");
    WireSession py = new WireSession(recorder, budget, null);
    py.client(Source.clientKey("pymysql", null));
    WireSession unnamed = new WireSession(recorder, budget, null);
    ShapeHandle shared = recorder.shape("SELECT name FROM t WHERE id = 1");
    ShapeHandle onlyPy = recorder.shape("UPDATE t SET n = 2 WHERE id = 3");
    for (int i = 0; i < 3; i++) {
      jdbc.command(CommandType.QUERY, 100);
      jdbc.query(shared, 100, false);
    }
    for (int i = 0; i < 5; i++) {
      py.command(CommandType.QUERY, 100);
      py.query(shared, 100, false);
      py.command(CommandType.QUERY, 100);
      py.query(onlyPy, 100, i == 0);
    }
    unnamed.command(CommandType.QUERY, 100);
    unnamed.query(shared, 100, false);
    TrafficProfile p = recorder.snapshot();
    ShapeStats s = p.shape(shared.digest());
    assertThat(s.count(Via.TEXT_EXECUTES)).isEqualTo(9);
    assertThat(s.count("MySQL Connector/J", Via.TEXT_EXECUTES)).isEqualTo(3);
    assertThat(s.count("pymysql", Via.TEXT_EXECUTES)).isEqualTo(5);
    assertThat(s.clients()).containsOnlyKeys("MySQL Connector/J", "pymysql");
    ShapeStats u = p.shape(onlyPy.digest());
    assertThat(u.clients()).containsOnlyKeys("pymysql");
    assertThat(u.count("pymysql", Via.ERRORS)).isEqualTo(1);
    assertThat(p.commandsByClient().get("pymysql")[CommandType.QUERY.ordinal()]).isEqualTo(10);
    assertThat(p.commandsByClient().get("MySQL Connector/J")[CommandType.QUERY.ordinal()])
        .isEqualTo(3);
    // A session that named no client is not attributed: the profile is then not told apart.
    assertThat(p.attributed()).isFalse();
    assertThat(ProfileJson.fromJson(ProfileJson.toJson(p))).isEqualTo(p);

    // The part of one client: its counters, its commands, its share of the latency.
    TrafficProfile part = p.part(java.util.Collections.<Source>emptyList(),
        java.util.Collections.singleton("pymysql"));
    assertThat(part.shape(shared.digest()).count(Via.TEXT_EXECUTES)).isEqualTo(5);
    assertThat(part.shape(shared.digest()).latency().count()).isEqualTo(5);
    assertThat(part.shape(onlyPy.digest()).count(Via.TEXT_EXECUTES)).isEqualTo(5);
    assertThat(part.count(CommandType.QUERY)).isEqualTo(10);
    assertThat(part.commands().get(CommandType.QUERY).latency().count()).isEqualTo(10);
  }

  @Test
  void aProfileReaderRefusesMoreClientsOrLongerKeysThanACollectorWrites() throws Exception {
    WireSession s = new WireSession(recorder, budget, null);
    s.client("pymysql");
    s.command(CommandType.QUERY, 10);
    s.query(recorder.shape("SELECT 1 FROM t"), 10, false);
    String json = ProfileJson.toJson(recorder.snapshot());
    assertThat(json).contains("\"commandsByClient\"", "\"clients\"");
    String longKey = "x".repeat(ProfileJsonReader.MAX_CLIENT_KEY_CHARS + 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ProfileJson.fromJson(json.replace("\"pymysql\"", "\"" + longKey + "\"")))
        .isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("client key");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i <= ShapeStats.MAX_CLIENTS; i++) {
      many.append("\"c").append(i).append("\": {\"COM_QUERY\": 1}, ");
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ProfileJson.fromJson(json.replace("\"commandsByClient\" : {",
                "\"commandsByClient\" : {" + many)))
        .isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("at most " + ShapeStats.MAX_CLIENTS);
  }

  @Test
  void clientSlotsAndPerShapeCountersAreBoundedAndCharged() {
    ShapeHandle shape = recorder.shape("SELECT 1 FROM dual WHERE 1 = 1");
    long before = recorder.shapeBytes();
    for (int i = 0; i < 40; i++) {
      WireSession s = new WireSession(recorder, budget, null);
      s.client("client-" + i);
      assertThat(s.clientSlot()).isBetween(0, ShapeStats.MAX_CLIENTS - 1);
      s.query(shape, 10, false);
    }
    long charged = recorder.shapeBytes() - before;
    assertThat(shape.clientBytes()).isEqualTo(charged)
        .isLessThanOrEqualTo(ProfileRecorder.MAX_CLIENT_BYTES_PER_SHAPE);
    TrafficProfile p = recorder.snapshot();
    ShapeStats s = p.shape(shape.digest());
    assertThat(s.clients()).hasSize(ShapeStats.MAX_CLIENTS)
        .containsKey(ShapeStats.OTHER_CLIENTS);
    long sum = 0;
    for (long[] c : s.clients().values()) {
      sum += c[Via.TEXT_EXECUTES.ordinal()];
    }
    assertThat(sum).isEqualTo(40);
  }
}
