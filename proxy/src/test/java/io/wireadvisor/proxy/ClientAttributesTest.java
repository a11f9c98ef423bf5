package io.wireadvisor.proxy;

import static io.wireadvisor.proxy.Wire.packet;
import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ClientAttributesTest {
  private static final int ATTRS = ClientAttributes.CLIENT_CONNECT_ATTRS;

  /**
   * The HandshakeResponse41 the MariaDB 10.11 mysql CLI (libmariadb 3.3.20) sent, as captured by
   * a socket that answered with a greeting (its auth response answers that socket's fixed
   * salt for the password {@code xx}).
   */
  private static final byte[] MYSQL_CLI =
      bytes(
          "85a2bf0000001000210000000000000000000000000000000000000000000000726f6f740014e49062bfb600"
              + "15c8994385fff39225c1bb5662976d7973716c5f6e61746976655f70617373776f7264007f035f6f73054c69"
              + "6e75780c5f636c69656e745f6e616d650a6c69626d617269616462045f7069640531393731330f5f636c6965"
              + "6e745f76657273696f6e06332e332e3230095f706c6174666f726d067838365f36340c70726f6772616d5f6e"
              + "616d65056d7973716c0c5f7365727665725f686f7374093132372e302e302e31");

  @Test
  void theMysqlCliNamesLibmariadbAndItsProgramAndNothingElseIsKept() {
    Map<String, String> a =
        ClientAttributes.parse(MYSQL_CLI, MYSQL_CLI.length, org(MYSQL_CLI));
    assertThat(a)
        .containsExactly(
            Map.entry("_client_name", "libmariadb"),
            Map.entry("_client_version", "3.3.20"),
            Map.entry("_os", "Linux"),
            Map.entry("program_name", "mysql"));
  }

  @Test
  void connectorJWithoutAttributesIsNamedByItsConnectTimeComment() {
    // NativeSession.loadServerVariables: "/* " + getDriverVersion() + " */SELECT  @@session...",
    // getDriverVersion() = CJ_FULL_NAME + " (Revision: " + CJ_REVISION + ")" (9.5.0 and 8.0.33).
    String v95 = "/* mysql-connector-j-9.5.0 (Revision: a7b3c94f50efbddb9f0dd69b3e0d1aaa25305cd6) */"
        + "SELECT  @@session.auto_increment_increment AS auto_increment_increment";
    assertThat(ClientAttributes.fromFirstQuery(v95))
        .containsExactly(Map.entry("_client_name", "MySQL Connector/J"),
            Map.entry("_client_version", "9.5.0"));
    String v8033 = "/* mysql-connector-j-8.0.33 (Revision: 7d6b0800528b6b25c68b52dc10d6c1c8429c100c) */"
        + "SELECT  @@session.auto_increment_increment";
    assertThat(ClientAttributes.fromFirstQuery(v8033)).containsEntry("_client_version", "8.0.33");
    assertThat(ClientAttributes.fromFirstQuery(
        "/* mysql-connector-java-8.0.30 (Revision: x) */SELECT 1")).containsEntry("_client_version", "8.0.30");
    // Anything else names nobody, cut or not.
    assertThat(ClientAttributes.fromFirstQuery("SELECT @@session.auto_increment_increment")).isNull();
    assertThat(ClientAttributes.fromFirstQuery("/* mysql-connector-j-9.5.0 */SELECT 1")).isNull();
    assertThat(ClientAttributes.fromFirstQuery("/* mysql-connector-j-9.5.0")).isNull();
    assertThat(ClientAttributes.fromFirstQuery(null)).isNull();
    assertThat(ClientAttributes.fromFirstQuery("/* mysql-connector-j-" + "9".repeat(200))).isNull();
  }

  @Test
  void attributesAfterDatabaseAndPluginAreRead() {
    byte[] p = response(ATTRS | Capabilities.CLIENT_CONNECT_WITH_DB, attrs(
        "_client_name", "pymysql", "_client_version", "1.2.4", "_pid", "19718"));
    assertThat(ClientAttributes.parse(p, p.length, org(p)))
        .containsExactly(Map.entry("_client_name", "pymysql"), Map.entry("_client_version", "1.2.4"));
  }

  @Test
  void noAttributesWithoutTheCapabilityOrWithAnEmptyBlock() {
    byte[] p = response(ATTRS, attrs("_client_name", "x"));
    assertThat(ClientAttributes.parse(p, p.length, org(p) & ~ATTRS)).isEmpty();
    byte[] empty = response(ATTRS, new byte[] {0});
    assertThat(ClientAttributes.parse(empty, empty.length, org(empty))).isEmpty();
    byte[] none = response(0, new byte[0]);
    assertThat(ClientAttributes.parse(none, none.length, org(none) | ATTRS)).isEmpty();
  }

  @Test
  void aBlockCutShortKeepsThePairsBeforeTheCut() {
    byte[] block = attrs("_client_name", "libmysql", "_client_version", "8.0.36");
    byte[] p = response(ATTRS, block);
    for (int cut = 0; cut < block.length; cut++) {
      Map<String, String> a = ClientAttributes.parse(p, p.length - cut, org(p));
      // The announced length runs past the packet: only complete pairs count.
      assertThat(a.keySet()).isSubsetOf("_client_name", "_client_version");
      if (cut == 0) {
        assertThat(a).hasSize(2);
      }
    }
    // A length prefix that cannot start a length (0xFF), a key longer than the block.
    byte[] bad = response(ATTRS, new byte[] {(byte) 0xff, 1, 2});
    assertThat(ClientAttributes.parse(bad, bad.length, org(bad))).isEmpty();
    byte[] longKey = response(ATTRS, concat(new byte[] {10}, new byte[] {(byte) 0xfc, 0x10, 0x27}));
    assertThat(ClientAttributes.parse(longKey, longKey.length, org(longKey))).isEmpty();
  }

  @Test
  void atMostFourKibibytesOfAttributesAreReadAndValuesAreCut() {
    // 5 KiB of a user-defined attribute first: the client name after it is past the bound.
    byte[] late = response(ATTRS, attrs("junk", "x".repeat(5000), "_client_name", "late"));
    assertThat(ClientAttributes.parse(late, late.length, org(late))).isEmpty();
    // Just inside the bound it is read.
    byte[] early = response(ATTRS, attrs("junk", "x".repeat(3900), "_client_name", "early"));
    assertThat(ClientAttributes.parse(early, early.length, org(early)))
        .containsExactly(Map.entry("_client_name", "early"));
    byte[] longValue = response(ATTRS, attrs("program_name", "p".repeat(1000)));
    assertThat(ClientAttributes.parse(longValue, longValue.length, org(longValue)).get("program_name"))
        .hasSize(ClientAttributes.MAX_VALUE_CHARS);
  }

  @Test
  void controlCharactersAreStrippedAndSecretLookingValuesMasked() {
    byte[] p = response(ATTRS, attrs(
        "program_name", "app\r\n\u001b[31mred\u200b", "_runtime_version", "x password=hunter2"));
    Map<String, String> a = ClientAttributes.parse(p, p.length, org(p));
    assertThat(a.get("program_name")).isEqualTo("app[31mred");
    assertThat(a.get("_runtime_version")).isEqualTo("x password=****").doesNotContain("hunter2");
  }

  @Test
  void mangledPacketsNeverThrowAndKeepOnlyWhitelistedBoundedValues() {
    Random random = new Random(29);
    for (int i = 0; i < 20_000; i++) {
      byte[] p = MYSQL_CLI.clone();
      for (int j = random.nextInt(6); j >= 0; j--) {
        p[random.nextInt(p.length)] = (byte) random.nextInt(256);
      }
      int length = random.nextInt(p.length + 1);
      Map<String, String> a = ClientAttributes.parse(p, length, random.nextInt());
      assertThat(ClientAttributes.KEPT).containsAll(a.keySet());
      for (String v : a.values()) {
        assertThat(v.length()).isLessThanOrEqualTo(ClientAttributes.MAX_VALUE_CHARS);
        assertThat(v.chars().noneMatch(Character::isISOControl)).isTrue();
      }
    }
  }

  @Test
  void aLoginWithoutANameIsNamedAtItsFirstCommandAndItsTrafficAttributed() throws Exception {
    for (String first : List.of(
        "/* mysql-connector-j-9.5.0 (Revision: a7b3c94f50efbddb9f0dd69b3e0d1aaa25305cd6) */"
            + "SELECT  @@session.auto_increment_increment AS auto_increment_increment",
        "SELECT 1")) {
      TrackerHarness h = new TrackerHarness();
      List<Map<String, String>> told = new ArrayList<>();
      h.tracker.clientListener(a -> {
        told.add(a);
        return io.wireadvisor.profile.Source.clientKey(a.get("_client_name"), null);
      });
      int caps = TrackerHarness.BASE_CAPS; // connectionAttributes=none: no CLIENT_CONNECT_ATTRS
      h.server(packet(0, Wire.greeting("8.0.11-TiDB-v8.5.3", caps, "mysql_native_password")));
      h.client(packet(1, Wire.handshakeResponse(caps, "app", new byte[20], "mysql_native_password")));
      h.server(packet(2, Wire.ok(2)));
      assertThat(told).isEmpty(); // not yet: the first command may name the client
      h.client(packet(0, Wire.query(first)));
      h.server(packet(1, Wire.ok(0)));
      h.client(packet(0, Wire.query("SELECT 1")));
      h.server(packet(1, Wire.ok(0)));
      TrafficProfile p = h.recorder.snapshot();
      if (first.startsWith("/*")) {
        assertThat(told).containsExactly(
            Map.of("_client_name", "MySQL Connector/J", "_client_version", "9.5.0"));
        assertThat(p.commandsByClient()).containsOnlyKeys("MySQL Connector/J");
      } else {
        assertThat(told).containsExactly(Map.of());
        assertThat(p.commandsByClient()).containsOnlyKeys(io.wireadvisor.profile.Source.UNNAMED_CLIENT);
      }
      assertThat(p.attributed()).isTrue();
    }
  }

  @Test
  void theTrackerTellsTheAttributesAndForwardsTheResponseUnchanged() throws Exception {
    TrackerHarness h = new TrackerHarness();
    List<Map<String, String>> told = new ArrayList<>();
    h.tracker.clientListener(a -> {
      told.add(a);
      return io.wireadvisor.profile.Source.clientKey(a.get("_client_name"), null);
    });
    int caps = TrackerHarness.BASE_CAPS | ATTRS;
    h.server(packet(0, Wire.greeting("8.0.11-TiDB-v8.5.3", caps, "mysql_native_password")));
    byte[] response = Wire.concat(
        Wire.handshakeResponse(caps, "app", new byte[20], "mysql_native_password"),
        attrs("_client_name", "Go-MySQL-Driver", "_os", "linux", "_pid", "7"));
    assertThat(h.client(packet(1, response))).isEqualTo(packet(1, response));
    h.server(packet(2, Wire.ok(2)));
    assertThat(told).containsExactly(Map.of("_client_name", "Go-MySQL-Driver", "_os", "linux"));
  }

  @Test
  void sourcesPerClientAreBounded() {
    ProfileRecorder recorder = new ProfileRecorder(RecorderSettings.defaults());
    ProxyContext context =
        new ProxyContext(ProxyConfig.of("127.0.0.1", 0, "127.0.0.1", 1), recorder, null);
    context.serverVersion("11.4.5-MariaDB");
    for (int i = 0; i < 200; i++) {
      context.client(Map.of("_client_name", "driver" + (i % 100), "_client_version", "1." + i % 3));
    }
    context.client(Map.of("_client_name", "pymysql", "_client_version", "1.2.4"));
    context.client(Map.of());
    TrafficProfile profile = recorder.snapshot();
    assertThat(context.clientSources()).isEqualTo(ProxyContext.MAX_CLIENT_SOURCES);
    assertThat(profile.sources()).hasSize(ProxyContext.MAX_CLIENT_SOURCES + 1);
    assertThat(profile.sources())
        .extracting(Source::driverName)
        .contains(ProxyContext.OTHER_CLIENTS)
        .doesNotContain("pymysql");
    assertThat(profile.sources()).allSatisfy(s -> {
      assertThat(s.collector()).isEqualTo(Source.PROXY);
      assertThat(s.serverVersion()).isEqualTo("11.4.5-MariaDB");
    });
  }

  private static int org(byte[] p) {
    return (p[0] & 0xff) | (p[1] & 0xff) << 8 | (p[2] & 0xff) << 16 | (p[3] & 0xff) << 24;
  }

  /** A HandshakeResponse41 with these capabilities (plus 4.1 and plugin auth) and attributes. */
  private static byte[] response(int caps, byte[] attributes) {
    int c = TrackerHarness.BASE_CAPS | Capabilities.CLIENT_PLUGIN_AUTH | caps;
    byte[] r = Wire.handshakeResponse(c, "app", new byte[20], "mysql_native_password");
    return Wire.concat(r, attributes);
  }

  /** A length-prefixed block of length-encoded key/value pairs. */
  private static byte[] attrs(String... kv) {
    ByteArrayOutputStream pairs = new ByteArrayOutputStream();
    for (String s : kv) {
      pairs.writeBytes(Wire.lenenc(s.getBytes(StandardCharsets.UTF_8).length));
      pairs.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
    return Wire.concat(Wire.lenenc(pairs.size()), pairs.toByteArray());
  }

  private static byte[] concat(byte[]... parts) {
    return Wire.concat(parts);
  }

  private static byte[] bytes(String hex) {
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return Arrays.copyOf(b, b.length);
  }
}
