package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileJsonTest {

  private static String valid() {
    return ProfileJson.toJson(RandomProfiles.profile(7));
  }

  private static ProfileFormatException readFails(String json) {
    try {
      ProfileJson.fromJson(json);
    } catch (ProfileFormatException e) {
      return e;
    }
    throw new AssertionError("expected a ProfileFormatException for " + json);
  }

  @Test
  void statementsByIsolationRoundTripAndAreOptional() throws Exception {
    TrafficProfile p = new TrafficProfile();
    p.addStatementsUnder("READ-COMMITTED", 990);
    p.addStatementsUnder("unknown", 10);
    String json = ProfileJson.toJson(p);
    assertThat(json).contains("\"statementsByIsolation\"");
    assertThat(ProfileJson.fromJson(json).statementsByIsolation())
        .containsEntry("READ-COMMITTED", 990L).containsEntry("unknown", 10L);
    assertThat(ProfileJson.toJson(new TrafficProfile())).doesNotContain("statementsByIsolation");
    String forged = json.replace("\"READ-COMMITTED\"", "\"READ-SOMETIMES\"");
    assertThatThrownBy(() -> ProfileJson.fromJson(forged))
        .hasMessageContaining("statementsByIsolation.READ-SOMETIMES");
  }

  @Test
  void theTrafficSpanRoundTripsAndIsOptional() throws Exception {
    TrafficProfile p = new TrafficProfile();
    p.observeTraffic(1_795_693_200_000L, 1_795_693_256_500L);
    String json = ProfileJson.toJson(p);
    assertThat(json).contains("\"traffic\"").contains("\"firstStatementMillis\" : 1795693200000");
    TrafficProfile back = ProfileJson.fromJson(json);
    assertThat(back).isEqualTo(p);
    assertThat(back.trafficSeconds()).isEqualTo(56.5);
    assertThat(ProfileJson.toJson(new TrafficProfile())).doesNotContain("\"traffic\"");
    String backwards = json.replace("1795693256500", "1795693100000");
    assertThatThrownBy(() -> ProfileJson.fromJson(backwards)).hasMessageContaining("traffic.lastStatementMillis");
    String extra = json.replace("\"firstStatementMillis\"", "\"secret\" : 1, \"firstStatementMillis\"");
    assertThatThrownBy(() -> ProfileJson.fromJson(extra)).hasMessageContaining("unknown field");
  }

  @Test
  void documentCarriesSchemaNameAndVersion() {
    assertThat(valid())
        .contains("\"schema\" : \"wire-advisor/traffic-profile\"")
        .contains("\"schemaVersion\" : 1");
  }

  @Test
  void wrongTypeNamesTheField() {
    String json =
        ProfileJson.toJson(profileWithOneShape()).replace("\"executes\" : 12", "\"executes\" : \"12\"");
    ProfileFormatException e = readFails(json);
    assertThat(e.field()).isEqualTo("shapes[0].counts.executes");
    assertThat(e.getMessage()).contains("shapes[0].counts.executes").contains("non-negative integer");
  }

  @Test
  void negativeCountIsRejected() {
    String json = ProfileJson.toJson(profileWithOneShape()).replaceFirst("\"count\" : 5\\b", "\"count\" : -5");
    assertThat(readFails(json).field()).isEqualTo("commands.COM_QUERY.count");
  }

  @Test
  void unknownFieldIsNamed() {
    String json = ProfileJson.toJson(profileWithOneShape()).replace("\"digestText\"", "\"digestTxt\"");
    ProfileFormatException e = readFails(json);
    assertThat(e.field()).isEqualTo("shapes[0].digestTxt");
    assertThat(e.getMessage()).contains("unknown field");
  }

  @Test
  void missingFieldIsNamed() {
    String json = ProfileJson.toJson(profileWithOneShape()).replace("\"kind\" : \"SELECT\",", "");
    assertThat(readFails(json).field()).isEqualTo("shapes[0].kind");
  }

  @Test
  void unknownCommandTypeIsNamed() {
    String json = ProfileJson.toJson(profileWithOneShape()).replace("COM_QUERY", "COM_QUERRY");
    ProfileFormatException e = readFails(json);
    assertThat(e.field()).isEqualTo("commands.COM_QUERRY");
  }

  @Test
  void unknownStatementKindIsNamed() {
    String json = ProfileJson.toJson(profileWithOneShape()).replace("\"SELECT\"", "\"SELEKT\"");
    ProfileFormatException e = readFails(json);
    assertThat(e.field()).isEqualTo("shapes[0].kind");
    assertThat(e.getMessage()).contains("SELEKT");
  }

  @Test
  void newerSchemaVersionIsExplained() {
    String json = valid().replace("\"schemaVersion\" : 1", "\"schemaVersion\" : 2");
    ProfileFormatException e = readFails(json);
    assertThat(e.field()).isEqualTo("schemaVersion");
    assertThat(e.getMessage()).contains("newer");
  }

  @Test
  void truncatedFileIsNotJson() {
    String json = valid();
    ProfileFormatException e = readFails(json.substring(0, json.length() / 2));
    assertThat(e.getMessage()).contains("not valid JSON");
  }

  @Test
  void histogramCountMustMatchItsBuckets() {
    TrafficProfile p = profileWithOneShape();
    String json = ProfileJson.toJson(p).replaceFirst("(\"precisionBits\" : 3,\\s+\"count\" : )3", "$14");
    assertThat(readFails(json).field()).isEqualTo("commands.COM_STMT_EXECUTE.latencyNanos.count");
  }

  @Test
  void passwordsAreNeverWrittenNorAccepted() {
    TrafficProfile p = new TrafficProfile();
    p.addSource(
        new Source(Source.AGENT, "0.1", "h:1", null, null, null, null, null,
            java.util.Map.of("password", "hunter2", "user", "app"), 1, 2));
    String json = ProfileJson.toJson(p);
    assertThat(json).doesNotContain("hunter2").contains("\"user\" : \"app\"");
    String tampered = json.replace("\"user\" : \"app\"", "\"user\" : \"app\", \"password\" : \"x\"");
    assertThat(readFails(tampered).field()).isEqualTo("sources[0].properties.password");
  }

  @Test
  void fileWriteIsAtomicAndReadable(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sub/profile.json");
    TrafficProfile p = RandomProfiles.profile(99);
    ProfileJson.writeFile(p, file);
    ProfileJson.writeFile(p, file);
    assertThat(ProfileJson.readFile(file)).isEqualTo(p);
    try (var files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file);
    }
  }

  private static TrafficProfile profileWithOneShape() {
    TrafficProfile p = new TrafficProfile();
    p.addCommand(CommandType.QUERY, new CommandStats(5, null));
    Histogram h = new Histogram(Histogram.LATENCY_PRECISION);
    h.record(1000);
    h.record(2000);
    h.record(3000);
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(3, h));
    ShapeStats s =
        new ShapeStats("abc", "select * from t where id = ?", io.wireadvisor.sql.StatementKind.SELECT,
            java.util.List.of("t"), java.util.List.of(), null, 30, 31);
    s.add(Via.EXECUTES, 12);
    p.addShape(s);
    return p;
  }
}
