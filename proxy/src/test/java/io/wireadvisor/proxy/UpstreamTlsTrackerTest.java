package io.wireadvisor.proxy;

import static io.wireadvisor.proxy.Wire.bytes;
import static io.wireadvisor.proxy.Wire.concat;
import static io.wireadvisor.proxy.Wire.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wireadvisor.profile.CommandType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The handshake with TLS on either leg, on packet sequences written from the MySQL protocol
 * documentation: the proxy's own SSLRequest upstream, auth packets renumbered by the difference
 * between the legs (client TLS × upstream TLS), refusal of servers without TLS under
 * {@code required}, and clear passwords relayed only over a TLS upstream.
 */
class UpstreamTlsTrackerTest {
  private static final int CAPS = TrackerHarness.BASE_CAPS;
  private static final int SSL = Capabilities.CLIENT_SSL;

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void requiredRefusesAServerWhoseGreetingLacksClientSslBeforeTheClientSendsAnything() {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
    assertThatThrownBy(
            () -> h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password"))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("does not offer TLS")
        .hasMessageContaining("--upstream-tls required");
    // Still before the greeting: the BackendHandler answers with a pre-handshake ERR.
    assertThat(h.tracker.awaitingGreeting()).isTrue();
  }

  @Test
  void theVerifyModesRefuseAServerWhoseGreetingLacksClientSslToo() {
    for (UpstreamTls.Mode mode : new UpstreamTls.Mode[] {UpstreamTls.Mode.VERIFY_CA, UpstreamTls.Mode.VERIFY_IDENTITY}) {
      TrackerHarness h = new TrackerHarness(false, mode);
      assertThatThrownBy(
              () -> h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password"))))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("does not offer TLS")
          .hasMessageContaining("--upstream-tls " + mode);
    }
  }

  @Test
  void requiredRefusesAGreetingItCannotReadButPassesAServerErrorThrough() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
    assertThatThrownBy(() -> h.server(packet(0, bytes(9, 'x', 0))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("cannot start TLS");
    // "Too many connections" instead of a greeting: the client reads the server's own ERR.
    TrackerHarness busy = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
    byte[] err = packet(0, concat(bytes(0xff), Wire.int2(1040), Wire.ascii("Too many connections")));
    assertThat(busy.server(err)).isEqualTo(err);
  }

  @Test
  void preferredFallsBackToPlaintextWhenTheServerOffersNoTls() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.PREFERRED);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
    byte[] response = packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password"));
    assertThat(h.client(response)).isEqualTo(response);
    assertThat(h.tracker.takeStartUpstreamTls()).isFalse();
    assertThat(h.tracker.upstreamTls()).isFalse();
    assertThat(h.server(packet(2, Wire.ok(2)))).isEqualTo(packet(2, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
  }

  @Test
  void offNeverStartsUpstreamTlsEvenWhenTheServerOffersIt() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF);
    byte[] greeting = h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "mysql_native_password")));
    assertThat(greeting).isEqualTo(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
    byte[] response = packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password"));
    assertThat(h.client(response)).isEqualTo(response);
    assertThat(h.tracker.takeStartUpstreamTls()).isFalse();
  }

  @Test
  void greetingToTheClientOffersTlsOnlyWhenTheProxyTerminatesIt() throws Exception {
    for (boolean clientTls : new boolean[] {false, true}) {
      TrackerHarness h = new TrackerHarness(clientTls, UpstreamTls.Mode.REQUIRED);
      byte[] greeting = h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "mysql_native_password")));
      int expected = clientTls ? CAPS | SSL : CAPS;
      assertThat(greeting)
          .as("client TLS %s", clientTls)
          .isEqualTo(packet(0, Wire.greeting("8.0.36", expected, "mysql_native_password")));
    }
  }

  /**
   * Every combination of the two legs through an auth switch and AuthMoreData: what each side
   * sends, with the sequence ids it counts, and what the other side must receive.
   */
  @Test
  void authPacketsAreRenumberedByTheDifferenceBetweenTheLegsInEveryCombination() throws Exception {
    for (boolean clientTls : new boolean[] {false, true}) {
      for (boolean upstreamTls : new boolean[] {false, true}) {
        String combination = "client TLS " + clientTls + ", upstream TLS " + upstreamTls;
        TrackerHarness h =
            new TrackerHarness(
                clientTls, upstreamTls ? UpstreamTls.Mode.REQUIRED : UpstreamTls.Mode.OFF);
        h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "caching_sha2_password")));
        int c = 1; // the client's next sequence id
        if (clientTls) {
          h.client(packet(c++, sslRequest(CAPS | SSL)));
          assertThat(h.tracker.takeStartTls()).as(combination).isTrue();
        }
        int clientCaps = clientTls ? CAPS | SSL : CAPS;
        byte[] forwarded =
            h.client(packet(c, Wire.handshakeResponse(clientCaps, "app", new byte[32], "caching_sha2_password")));
        int u; // the server's next sequence id
        if (upstreamTls) {
          assertThat(forwarded).as(combination).isEmpty();
          assertThat(h.tracker.takeStartUpstreamTls()).as(combination).isTrue();
          assertThat(h.tracker.takeStartUpstreamTls()).as(combination).isFalse();
          assertThat(h.tracker.upstreamSslRequest())
              .as(combination)
              .isEqualTo(packet(1, sslRequest(CAPS | SSL)));
          assertThat(h.tracker.upstreamHandshakeResponse())
              .as(combination)
              .isEqualTo(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", new byte[32], "caching_sha2_password")));
          u = 3;
        } else {
          assertThat(h.tracker.takeStartUpstreamTls()).as(combination).isFalse();
          assertThat(forwarded)
              .as(combination)
              .isEqualTo(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
          u = 2;
        }
        c++;
        // (caching_sha2_password again: AuthMoreData follows, which mysql_native_password has not)
        byte[] authSwitch = concat(bytes(0xfe), Wire.nul("caching_sha2_password"), new byte[20], bytes(0));
        assertThat(h.server(packet(u, authSwitch))).as(combination).isEqualTo(packet(c, authSwitch));
        assertThat(h.client(packet(c + 1, new byte[20])))
            .as(combination)
            .isEqualTo(packet(u + 1, new byte[20]));
        byte[] moreData = bytes(0x01, 0x03);
        assertThat(h.server(packet(u + 2, moreData))).as(combination).isEqualTo(packet(c + 2, moreData));
        assertThat(h.server(packet(u + 3, Wire.ok(2)))).as(combination).isEqualTo(packet(c + 3, Wire.ok(2)));
        assertThat(h.tracker.inCommandPhase()).as(combination).isTrue();
        // Commands restart at 0 on both legs: never renumbered.
        byte[] q = packet(0, Wire.query("SELECT 1"));
        assertThat(h.client(q)).as(combination).isEqualTo(q);
        byte[] result =
            concat(packet(1, Wire.lenenc(1)), packet(2, Wire.columnDef("1")), packet(3, Wire.eof(2)),
                packet(4, Wire.textRow("1")), packet(5, Wire.eof(2)));
        assertThat(h.server(result)).as(combination).isEqualTo(result);
        assertThat(h.profile().count(CommandType.QUERY)).as(combination).isEqualTo(1);
      }
    }
  }

  @Test
  void bytesAfterTheHandshakeResponseStayWithTheCallerWhileUpstreamTlsStarts() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.PREFERRED);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "mysql_native_password")));
    ByteBuf in =
        Unpooled.wrappedBuffer(
            concat(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")),
                bytes(1, 2, 3)));
    List<ByteBuf> out = new ArrayList<>();
    try {
      h.tracker.clientScanner().scan(in, out);
      assertThat(out).isEmpty();
      assertThat(in.readableBytes()).isEqualTo(3);
      assertThat(h.tracker.takeStartUpstreamTls()).isTrue();
    } finally {
      in.release();
      out.forEach(ByteBuf::release);
    }
  }

  @Test
  void clearPasswordIsRelayedWhenBothLegsAreTls() throws Exception {
    for (byte[] ask :
        new byte[][] {
          bytes(0x01, 0x04), // caching_sha2_password: perform full authentication
          concat(bytes(0xfe), Wire.nul("mysql_clear_password")),
        }) {
      TrackerHarness h = new TrackerHarness(true, UpstreamTls.Mode.REQUIRED);
      h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "caching_sha2_password")));
      h.client(packet(1, sslRequest(CAPS | SSL)));
      assertThat(h.tracker.takeStartTls()).isTrue();
      h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", new byte[32], "caching_sha2_password")));
      assertThat(h.tracker.takeStartUpstreamTls()).isTrue();
      assertThat(h.server(packet(3, ask))).isEqualTo(packet(3, ask));
      byte[] password = Wire.nul("secret");
      assertThat(h.client(packet(4, password))).isEqualTo(packet(4, password));
      h.server(packet(5, Wire.ok(2)));
      assertThat(h.tracker.inCommandPhase()).isTrue();
    }
  }

  @Test
  void clearPasswordIsStillRefusedWhenOnlyTheClientLegIsTls() throws Exception {
    // preferred, but the server offers no TLS: the upstream leg is plaintext.
    TrackerHarness h = new TrackerHarness(true, UpstreamTls.Mode.PREFERRED);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    h.client(packet(1, sslRequest(CAPS | SSL)));
    assertThat(h.tracker.takeStartTls()).isTrue();
    byte[] forwarded =
        h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", new byte[32], "caching_sha2_password")));
    assertThat(forwarded)
        .isEqualTo(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
    assertThatThrownBy(() -> h.server(packet(2, bytes(0x01, 0x04))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("plaintext upstream")
        .hasMessageContaining("--upstream-tls");
    // The ERR replaces server packet 2, which the client counts as 3.
    assertThat(h.tracker.clientSeqOfServerPacket()).isEqualTo(3);
  }

  /**
   * A plaintext client answers a request for its full password with RSA (or a public key
   * request), which servers accept only without TLS: over a TLS upstream that login cannot work,
   * so the client is told why instead of getting the server's bare "access denied".
   */
  @Test
  void plaintextClientOverTlsUpstreamIsToldWhyAFullPasswordExchangeCannotWork() throws Exception {
    for (byte[] ask :
        new byte[][] {
          bytes(0x01, 0x04), // caching_sha2_password: perform full authentication
          concat(bytes(0xfe), Wire.nul("sha256_password"), new byte[20], bytes(0)),
        }) {
      TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
      h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "caching_sha2_password")));
      h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
      assertThat(h.tracker.takeStartUpstreamTls()).isTrue();
      assertThatThrownBy(() -> h.server(packet(3, ask)))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("connect to the proxy with TLS (it offers TLS)");
      // The ERR takes the place of server packet 3, which this client counts as 2.
      assertThat(h.tracker.clientSeqOfServerPacket()).isEqualTo(2);
    }
    // An auth switch to mysql_clear_password would put the password on the client's plaintext
    // leg: refused before the client sees it (issue 28; it was relayed as "the client's call").
    TrackerHarness refused = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
    refused.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "caching_sha2_password")));
    refused.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
    byte[] clearSwitch = concat(bytes(0xfe), Wire.nul("mysql_clear_password"));
    assertThatThrownBy(() -> refused.server(packet(3, clearSwitch)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("'mysql_clear_password'")
        .hasMessageContaining("this client's plaintext connection to the proxy");
    assertThat(refused.downstream.toString(java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("mysql_clear_password");
    // With --allow-cleartext-passwords it is relayed, renumbered.
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED, false, true);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "caching_sha2_password")));
    h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
    assertThat(h.server(packet(3, clearSwitch))).isEqualTo(packet(2, clearSwitch));
    assertThat(h.client(packet(3, Wire.nul("secret")))).isEqualTo(packet(4, Wire.nul("secret")));
    assertThat(h.server(packet(5, Wire.ok(2)))).isEqualTo(packet(4, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
  }

  @Test
  void changeUserAskingForAClearPasswordIsRefusedOnlyWhenTheUpstreamIsPlaintext() throws Exception {
    byte[] changeUser =
        concat(bytes(0x11), Wire.nul("other"), bytes(20), new byte[20], Wire.nul("db"));
    byte[] clearSwitch = concat(bytes(0xfe), Wire.nul("mysql_clear_password"));
    for (boolean upstreamTls : new boolean[] {false, true}) {
      TrackerHarness h =
          new TrackerHarness(true, upstreamTls ? UpstreamTls.Mode.REQUIRED : UpstreamTls.Mode.OFF);
      h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "mysql_native_password")));
      h.client(packet(1, sslRequest(CAPS | SSL)));
      h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", new byte[20], "mysql_native_password")));
      h.server(packet(upstreamTls ? 3 : 2, Wire.ok(2)));
      assertThat(h.tracker.inCommandPhase()).isTrue();
      h.client(packet(0, changeUser));
      if (upstreamTls) {
        assertThat(h.server(packet(1, clearSwitch))).isEqualTo(packet(1, clearSwitch));
        assertThat(h.client(packet(2, Wire.nul("secret")))).isEqualTo(packet(2, Wire.nul("secret")));
        h.server(packet(3, Wire.ok(2)));
        assertThat(h.profile().count(CommandType.CHANGE_USER)).isEqualTo(1);
      } else {
        assertThatThrownBy(() -> h.server(packet(1, clearSwitch)))
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("mysql_clear_password");
        // Commands are not renumbered: the ERR takes the refused packet's place as is.
        assertThat(h.tracker.clientSeqOfServerPacket()).isEqualTo(1);
      }
    }
  }

  /**
   * A MariaDB client's extended capabilities (the filler's last 4 bytes) reach the server in the
   * proxy's SSLRequest, the packet a MariaDB server reads them from (zeroed, the mysql CLI got
   * "malformed packet" at its first query with both legs TLS: CleartextPasswordIT).
   */
  @Test
  void theProxysSslRequestRepeatsTheResponsesFirst32BytesWithMariaDbExtendedCapabilities()
      throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
    h.server(packet(0, Wire.greeting("11.4.5-MariaDB", CAPS | SSL, "mysql_native_password")));
    byte[] response = Wire.handshakeResponse(CAPS & ~1, "app", new byte[20], "mysql_native_password");
    response[28] = 0x1d; // MARIADB_CLIENT_PROGRESS | STMT_BULK_OPERATIONS | EXTENDED_METADATA | CACHE_METADATA
    h.client(packet(1, response));
    assertThat(h.tracker.takeStartUpstreamTls()).isTrue();
    byte[] request = h.tracker.upstreamSslRequest();
    assertThat(request).hasSize(4 + 32);
    assertThat(request[4 + 28]).isEqualTo((byte) 0x1d);
    assertThat(java.util.Arrays.copyOfRange(request, 8, 36))
        .isEqualTo(java.util.Arrays.copyOfRange(h.tracker.upstreamHandshakeResponse(), 8, 36));
  }

  @Test
  void aHandshakeResponseTooShortToCarryALoginIsRejected() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.REQUIRED);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "mysql_native_password")));
    assertThatThrownBy(() -> h.client(packet(1, concat(Wire.int4(CAPS), Wire.int4(1 << 24), bytes(33), new byte[23]))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("32 bytes");
  }

  @Test
  void modesParseAndACaNeedsUpstreamTls() {
    assertThat(UpstreamTls.Mode.parse(" Required ")).isEqualTo(UpstreamTls.Mode.REQUIRED);
    assertThat(UpstreamTls.Mode.parse("preferred")).isEqualTo(UpstreamTls.Mode.PREFERRED);
    assertThat(UpstreamTls.Mode.parse("off")).isEqualTo(UpstreamTls.Mode.OFF);
    assertThatThrownBy(() -> UpstreamTls.Mode.parse("verify"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("off, preferred, required, verify-ca or verify-identity, was 'verify'");
    assertThat(UpstreamTls.Mode.parse("VERIFY_CA")).isEqualTo(UpstreamTls.Mode.VERIFY_CA);
    assertThat(UpstreamTls.Mode.parse("verify-identity")).isEqualTo(UpstreamTls.Mode.VERIFY_IDENTITY);
    assertThat(UpstreamTls.Mode.parse("disabled")).isEqualTo(UpstreamTls.Mode.OFF);
    assertThat(UpstreamTls.Mode.VERIFY_CA.toString()).isEqualTo("verify-ca");
    assertThatThrownBy(() -> UpstreamTls.of(UpstreamTls.Mode.OFF, new java.io.File("ca.pem")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--upstream-ca needs --upstream-tls");
    assertThatThrownBy(() -> UpstreamTls.of(UpstreamTls.Mode.REQUIRED, new java.io.File("/nonexistent/ca.pem")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot use upstream CA file");
    assertThat(UpstreamTls.of(UpstreamTls.Mode.PREFERRED, null).describe())
        .contains("NOT verified");
  }

  /** Protocol::SSLRequest as Wire.handshakeResponse would start: max packet 16 MiB, charset 0xff. */
  private static byte[] sslRequest(int caps) {
    return concat(Wire.int4(caps), Wire.int4(1 << 24), bytes(0xff), new byte[23]);
  }
}
