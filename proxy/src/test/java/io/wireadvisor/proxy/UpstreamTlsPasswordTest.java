package io.wireadvisor.proxy;

import static io.wireadvisor.proxy.Wire.bytes;
import static io.wireadvisor.proxy.Wire.concat;
import static io.wireadvisor.proxy.Wire.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.CommandType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Client leg TLS, upstream leg plaintext: only challenge–response authentication is relayed. The
 * plugin is followed everywhere it can be named (the client's HandshakeResponse, its
 * COM_CHANGE_USER, the server's AuthSwitchRequest) and through AuthMoreData; anything that may
 * carry the password itself is refused with ERR 1045 naming the plugin and the flags, and the
 * password's bytes never reach the upstream side.
 */
class UpstreamTlsPasswordTest {
  private static final int CAPS = TrackerHarness.BASE_CAPS;
  private static final int SSL = Capabilities.CLIENT_SSL;
  private static final String SECRET = "S3cr3t-pa55word";
  /** What a clear-password plugin sends: the password and a NUL. */
  private static final byte[] CLEAR = Wire.nul(SECRET);

  /**
   * Client plugin names that send the password itself (or that the proxy does not know): the
   * ones MySQL, MariaDB and TiDB clients use, and server-side names a client might send.
   */
  private static final String[] REFUSED = {
    "mysql_clear_password", // also the client side of LDAP simple, PAM and tidb_auth_token
    "tidb_auth_token",
    "authentication_ldap_simple",
    "authentication_ldap_sasl_client",
    "auth_pam",
    "authentication_pam",
    "tidb_sm3_password",
    "sha256_password",
    "dialog", // MariaDB PAM: prompts answered in clear
    "auth_gssapi_client",
    "authentication_kerberos_client",
    "some_future_plugin",
  };

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void aHandshakeResponseNamingAPasswordPluginIsRefusedAndNothingGoesUpstream() throws Exception {
    for (String plugin : REFUSED) {
      TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, false);
      assertThatThrownBy(
              () -> h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", CLEAR, plugin))))
          .as(plugin)
          .isInstanceOf(ProtocolException.class)
          .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_ACCESS_DENIED))
          .hasMessageContaining("'" + plugin + "'")
          .hasMessageContaining("HandshakeResponse")
          .hasMessageContaining("--upstream-tls required")
          .hasMessageContaining("--allow-plaintext-upstream-passwords")
          .hasMessageContaining("(--upstream-tls off)");
      assertNoSecretUpstream(h);
      assertThat(h.tracker.inCommandPhase()).isFalse();
    }
  }

  @Test
  void theClientPluginIsFoundAfterADatabaseAndALengthEncodedAuthResponse() throws Exception {
    int caps = CAPS | SSL | Capabilities.CLIENT_CONNECT_WITH_DB | 1 << 21; // LENENC_CLIENT_DATA
    for (String plugin : new String[] {"mysql_clear_password", "mysql_native_password"}) {
      TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, false);
      byte[] auth = plugin.equals("mysql_native_password") ? new byte[20] : CLEAR;
      byte[] response =
          concat(Wire.int4(caps), Wire.int4(1 << 24), bytes(0xff), new byte[23], Wire.nul("app"),
              Wire.lenenc(auth.length), auth, Wire.nul("appdb"), Wire.nul(plugin),
              Wire.lenenc(3), bytes(1, 'a', 0)); // connection attributes after the name
      if (plugin.equals("mysql_clear_password")) {
        assertThatThrownBy(() -> h.client(packet(2, response)))
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("'mysql_clear_password'");
        assertNoSecretUpstream(h);
      } else {
        assertThat(h.client(packet(2, response))).isNotEmpty();
        h.server(packet(2, Wire.ok(2)));
        assertThat(h.tracker.inCommandPhase()).isTrue();
      }
    }
  }

  @Test
  void aHandshakeResponseThatAnnouncesAPluginButEndsBeforeItsNameIsRefused() throws Exception {
    TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, false);
    byte[] response =
        concat(Wire.int4(CAPS | SSL), Wire.int4(1 << 24), bytes(0xff), new byte[23], Wire.nul("app"),
            bytes(CLEAR.length), CLEAR, Wire.nul("appdb"));
    assertThatThrownBy(() -> h.client(packet(2, response)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("no name");
    assertNoSecretUpstream(h);
  }

  @Test
  void challengeResponsePluginsAreRelayed() throws Exception {
    for (String plugin :
        new String[] {"mysql_native_password", "caching_sha2_password", "client_ed25519"}) {
      TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, false);
      byte[] proof = new byte[plugin.equals("client_ed25519") ? 64 : 20];
      byte[] response = Wire.handshakeResponse(CAPS | SSL, "app", proof, plugin);
      assertThat(h.client(packet(2, response)))
          .as(plugin)
          .isEqualTo(packet(1, Wire.handshakeResponse(CAPS, "app", proof, plugin)));
      if (plugin.equals("caching_sha2_password")) {
        byte[] fastAuthOk = bytes(0x01, 0x03);
        assertThat(h.server(packet(2, fastAuthOk))).isEqualTo(packet(3, fastAuthOk));
        h.server(packet(3, Wire.ok(2)));
      } else {
        h.server(packet(2, Wire.ok(2)));
      }
      assertThat(h.tracker.inCommandPhase()).as(plugin).isTrue();
    }
  }

  @Test
  void aClientThatNamesNoPluginSendsTheScrambleAndIsRelayed() throws Exception {
    TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, false);
    int caps = (CAPS | SSL) & ~Capabilities.CLIENT_PLUGIN_AUTH;
    byte[] response =
        concat(Wire.int4(caps), Wire.int4(1 << 24), bytes(0xff), new byte[23], Wire.nul("app"),
            bytes(20), new byte[20], Wire.nul("appdb"));
    assertThat(h.client(packet(2, response))).hasSize(4 + response.length);
    h.server(packet(2, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
  }

  /**
   * A server (or whoever answers for it on the plaintext leg) that switches the client to a
   * plugin that sends the password: refused before the client sees the request, so the client
   * never answers it.
   */
  @Test
  void anAuthSwitchToAPasswordPluginIsRefusedBeforeTheClientSeesIt() throws Exception {
    for (String plugin : REFUSED) {
      TrackerHarness h = loggingIn("mysql_native_password");
      byte[] authSwitch = concat(bytes(0xfe), Wire.nul(plugin), bytes(0x02, 'P', 'w', ':'));
      int before = h.downstream.size();
      assertThatThrownBy(() -> h.server(packet(2, authSwitch)))
          .as(plugin)
          .isInstanceOf(ProtocolException.class)
          .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_ACCESS_DENIED))
          .hasMessageContaining("'" + plugin + "'")
          .hasMessageContaining("AuthSwitchRequest")
          .hasMessageContaining("--allow-plaintext-upstream-passwords");
      assertThat(h.downstream.size()).as("nothing of the switch reached the client").isEqualTo(before);
      // The ERR takes the switch's place: server packet 2 is the client's 3.
      assertThat(h.tracker.clientSeqOfServerPacket()).isEqualTo(3);
    }
    // The pre-4.1 bare 0xFE asks for the old scramble: not on the list either.
    TrackerHarness h = loggingIn("mysql_native_password");
    assertThatThrownBy(() -> h.server(packet(2, bytes(0xfe))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("'mysql_old_password'");
  }

  @Test
  void anAuthSwitchBetweenChallengeResponsePluginsIsRelayed() throws Exception {
    TrackerHarness h = loggingIn("caching_sha2_password");
    byte[] authSwitch = concat(bytes(0xfe), Wire.nul("mysql_native_password"), new byte[20], bytes(0));
    assertThat(h.server(packet(2, authSwitch))).isEqualTo(packet(3, authSwitch));
    assertThat(h.client(packet(4, new byte[20]))).isEqualTo(packet(3, new byte[20]));
    // After a switch to mysql_native_password, AuthMoreData has no place: refused.
    assertThatThrownBy(() -> h.server(packet(4, bytes(0x01, 0x03))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("AuthMoreData")
        .hasMessageContaining("'mysql_native_password'");
  }

  @Test
  void authMoreDataIsRelayedOnlyForTheCachingSha2FastPath() throws Exception {
    TrackerHarness full = loggingIn("caching_sha2_password");
    assertThatThrownBy(() -> full.server(packet(2, bytes(0x01, 0x04))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("caching_sha2_password full authentication")
        .hasMessageContaining("--allow-plaintext-upstream-passwords");
    for (String plugin : new String[] {"mysql_native_password", "client_ed25519"}) {
      TrackerHarness h = loggingIn(plugin);
      // e.g. a dialog-style prompt sent as more data: whatever the client would answer stays.
      assertThatThrownBy(() -> h.server(packet(2, concat(bytes(0x01), Wire.ascii("Password: ")))))
          .as(plugin)
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("AuthMoreData");
    }
  }

  @Test
  void anyAuthPacketOutsideTheChallengeResponseAllowlistIsRefusedBeforeTheClientAnswersIt()
      throws Exception {
    // Found in review: libmysqlclient takes a bare 0x04 for "perform full authentication", and
    // Connector/J reads only the byte after 0x01, so 01 04 00 asks the same; an allowlist of what
    // an exchange may contain, not a list of known requests, is what holds.
    byte[][] requests = {
      bytes(0x04), bytes(0x01, 0x04, 0x00), bytes(0x01, 0x04, 0x04), bytes(0x01), bytes(0x01, 0x03, 0x00),
      bytes(0x02), concat(bytes(0x01), Wire.ascii("-----BEGIN PUBLIC KEY-----")), new byte[0]
    };
    for (byte[] request : requests) {
      TrackerHarness h = loggingIn("caching_sha2_password");
      int toClientBefore = h.downstream.size();
      assertThatThrownBy(() -> h.server(packet(2, request)))
          .as("server auth packet %s", java.util.HexFormat.of().formatHex(request))
          .isInstanceOf(ProtocolException.class)
          .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_ACCESS_DENIED));
      assertThat(h.downstream.size()).as("nothing of it reached the client").isEqualTo(toClientBefore);
      assertNoSecretUpstream(h);
    }
    // The fast path's success (exactly 01 03) and the OK after it are relayed.
    TrackerHarness ok = loggingIn("caching_sha2_password");
    // (renumbered for the client, which counted its SSLRequest)
    assertThat(ok.server(packet(2, bytes(0x01, 0x03)))).isEqualTo(packet(3, bytes(0x01, 0x03)));
    ok.server(packet(3, Wire.ok(2)));
    assertThat(ok.tracker.inCommandPhase()).isTrue();
    // And during COM_CHANGE_USER as at login.
    TrackerHarness h = loggedIn();
    h.client(packet(0, changeUser(new byte[32], "caching_sha2_password")));
    assertThatThrownBy(() -> h.server(packet(1, bytes(0x04)))).isInstanceOf(ProtocolException.class);
  }

  @Test
  void aChangeUserArrivingInPiecesIsCheckedBeforeAnyOfItGoesUpstream() throws Exception {
    // Found in review: command packets streamed through, so the password (which comes before the
    // plugin name in COM_CHANGE_USER) left in the first read. Guarded, a command packet is held
    // until it is whole.
    TrackerHarness h = loggedIn();
    byte[] wire = packet(0, changeUser(CLEAR, "mysql_clear_password"));
    int cut = 4 + 1 + "other".length() + 1 + 1 + SECRET.length() + 2;
    assertThat(h.client(java.util.Arrays.copyOfRange(wire, 0, cut))).isEmpty();
    assertThatThrownBy(() -> h.client(java.util.Arrays.copyOfRange(wire, cut, wire.length)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("'mysql_clear_password'");
    assertNoSecretUpstream(h);
    // One too long to hold is refused at its first payload byte: at most its header moved.
    TrackerHarness big = loggedIn();
    byte[] longChangeUser = concat(bytes(0x11), Wire.nul("other"), bytes(CLEAR.length), CLEAR,
        Wire.nul("d".repeat(SessionTracker.MAX_HANDSHAKE_PACKET)), Wire.int2(45), Wire.nul("mysql_clear_password"));
    assertThatThrownBy(() -> big.client(packet(0, longChangeUser)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("COM_CHANGE_USER longer than");
    assertNoSecretUpstream(big);
    // A query arriving in pieces is held too and then relayed whole, unchanged.
    TrackerHarness q = loggedIn();
    byte[] query = packet(0, concat(bytes(0x03), Wire.ascii("SELECT 1")));
    assertThat(q.client(java.util.Arrays.copyOfRange(query, 0, 6))).isEmpty();
    assertThat(q.client(java.util.Arrays.copyOfRange(query, 6, query.length))).isEqualTo(query);
  }

  @Test
  void preferredWithAServerThatOffersNoTlsIsGuardedAndSaysWhy() throws Exception {
    TrackerHarness h = new TrackerHarness(true, UpstreamTls.Mode.PREFERRED);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password"))); // no CLIENT_SSL
    h.client(packet(1, sslRequest()));
    assertThat(h.tracker.takeStartTls()).isTrue();
    assertThatThrownBy(
            () -> h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", CLEAR, "mysql_clear_password"))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("did not offer TLS and --upstream-tls is preferred");
    assertNoSecretUpstream(h);
  }

  @Test
  void aChangeUserNamingAPasswordPluginIsRefusedAndNothingGoesUpstream() throws Exception {
    for (String plugin : REFUSED) {
      TrackerHarness h = loggedIn();
      byte[] changeUser = changeUser(CLEAR, plugin);
      assertThatThrownBy(() -> h.client(packet(0, changeUser)))
          .as(plugin)
          .isInstanceOf(ProtocolException.class)
          .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_ACCESS_DENIED))
          .hasMessageContaining("'" + plugin + "'")
          .hasMessageContaining("COM_CHANGE_USER");
      assertNoSecretUpstream(h);
    }
  }

  @Test
  void aChangeUserWithAChallengeResponseIsRelayedButASwitchToAPasswordPluginIsNot()
      throws Exception {
    for (String next : new String[] {"mysql_clear_password", "dialog", "mysql_native_password"}) {
      TrackerHarness h = loggedIn();
      byte[] changeUser = changeUser(new byte[20], "caching_sha2_password");
      assertThat(h.client(packet(0, changeUser))).isEqualTo(packet(0, changeUser));
      byte[] authSwitch = concat(bytes(0xfe), Wire.nul(next), new byte[20], bytes(0));
      if (next.equals("mysql_native_password")) {
        assertThat(h.server(packet(1, authSwitch))).isEqualTo(packet(1, authSwitch));
        h.client(packet(2, new byte[20]));
        h.server(packet(3, Wire.ok(2)));
        assertThat(h.profile().count(CommandType.CHANGE_USER)).isEqualTo(1);
      } else {
        assertThatThrownBy(() -> h.server(packet(1, authSwitch)))
            .as(next)
            .isInstanceOf(ProtocolException.class)
            .hasMessageContaining("'" + next + "'");
      }
    }
    // Full authentication asked during COM_CHANGE_USER: refused the same way.
    TrackerHarness h = loggedIn();
    h.client(packet(0, changeUser(new byte[32], "caching_sha2_password")));
    assertThatThrownBy(() -> h.server(packet(1, bytes(0x01, 0x04))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("full authentication");
  }

  @Test
  void aChangeUserWithoutAPluginNameCarriesTheScrambleAndIsRelayed() throws Exception {
    TrackerHarness h = loggedIn();
    byte[] changeUser = concat(bytes(0x11), Wire.nul("other"), bytes(20), new byte[20], Wire.nul("db"));
    assertThat(h.client(packet(0, changeUser))).isEqualTo(packet(0, changeUser));
  }

  @Test
  void aPluginNameCutOffInTheCapturedHeadIsNotTakenForAKnownOne() throws Exception {
    TrackerHarness h = loggedIn();
    h.client(packet(0, changeUser(new byte[20], "mysql_native_password")));
    // 0xFE + 40 characters: longer than the 32 bytes captured of a command-phase server packet,
    // so COM_CHANGE_USER's auth packets are held whole while guarded and the whole name checked.
    String longName = "mysql_native_password_but_much_longer_xx";
    byte[] authSwitch = concat(bytes(0xfe), Wire.nul(longName), new byte[20]);
    assertThatThrownBy(() -> h.server(packet(1, authSwitch)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("'" + longName + "'");
    assertThat(h.downstream.toString(StandardCharsets.ISO_8859_1)).doesNotContain(longName);
  }

  /**
   * Once the proxy no longer follows the protocol (here: a reply it cannot parse), it cannot see
   * which plugin a COM_CHANGE_USER or the server's answer names: refused outright.
   */
  @Test
  void aChangeUserAfterTheProxyStoppedFollowingTheProtocolIsRefused() throws Exception {
    TrackerHarness h = loggedIn();
    h.client(packet(0, Wire.query("SELECT 1")));
    h.server(packet(1, bytes(0xfc, 0, 0))); // a column count of 0: unparseable, goes opaque
    assertThat(h.stats.unparseableResponses.sum()).isEqualTo(1);
    byte[] other = packet(0, Wire.query("SELECT 2"));
    assertThat(h.client(other)).isEqualTo(other); // still forwarded, just not classified
    assertThatThrownBy(() -> h.client(packet(0, changeUser(new byte[20], "mysql_native_password"))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("COM_CHANGE_USER after the proxy stopped following");
  }

  @Test
  void aChangeUserWhosePluginNameLiesPastTheCommandCaptureIsReadWholeAndRefused() throws Exception {
    TrackerHarness h = loggedIn();
    // The name starts 21 bytes before the 64 KiB a command's head captures: what that head holds
    // of it is exactly "mysql_native_password". Guarded, the packet is held whole, so the whole
    // (longer) name is what is checked.
    int dbLength = SessionTracker.SQL_CAPTURE_LIMIT - 21 - 31;
    byte[] changeUser =
        concat(bytes(0x11), Wire.nul("other"), bytes(20), new byte[20], Wire.nul("d".repeat(dbLength)),
            Wire.int2(45), Wire.nul("mysql_native_password_or_rather_not"), CLEAR);
    assertThatThrownBy(() -> h.client(packet(0, changeUser)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("'mysql_native_password_or_rather_not'");
    assertNoSecretUpstream(h);
  }

  @Test
  void theAllowFlagRelaysEverything() throws Exception {
    TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, true);
    assertThat(h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", CLEAR, "mysql_clear_password"))))
        .isEqualTo(packet(1, Wire.handshakeResponse(CAPS, "app", CLEAR, "mysql_clear_password")));
    byte[] authSwitch = concat(bytes(0xfe), Wire.nul("dialog"), bytes(0x04), Wire.ascii("Password: "));
    assertThat(h.server(packet(2, authSwitch))).isEqualTo(packet(3, authSwitch));
    assertThat(h.client(packet(4, CLEAR))).isEqualTo(packet(3, CLEAR));
    assertThat(h.server(packet(4, bytes(0x01, 0x04)))).isEqualTo(packet(5, bytes(0x01, 0x04)));
    h.server(packet(5, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
    assertThat(h.client(packet(0, changeUser(CLEAR, "mysql_clear_password")))).isNotEmpty();
  }

  /**
   * Both legs plaintext: a clear password would cross both, so it is refused (it was relayed
   * before the proxy guarded plaintext client legs: issue 28); {@code --allow-cleartext-passwords}
   * relays it.
   */
  @Test
  void bothLegsPlaintextRefuseClearPasswordsUnlessCleartextIsAllowed() throws Exception {
    TrackerHarness refused = new TrackerHarness(false, UpstreamTls.Mode.OFF);
    refused.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_clear_password")));
    assertThatThrownBy(
            () -> refused.client(packet(1, Wire.handshakeResponse(CAPS, "app", CLEAR, "mysql_clear_password"))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("'mysql_clear_password'")
        .hasMessageContaining("this client's plaintext connection to the proxy")
        .hasMessageContaining("--allow-cleartext-passwords");
    assertNoSecretUpstream(refused);

    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF, false, true);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_clear_password")));
    byte[] response = packet(1, Wire.handshakeResponse(CAPS, "app", CLEAR, "mysql_clear_password"));
    assertThat(h.client(response)).isEqualTo(response);
    byte[] authSwitch = concat(bytes(0xfe), Wire.nul("dialog"), bytes(0x04), Wire.ascii("Password: "));
    assertThat(h.server(packet(2, authSwitch))).isEqualTo(packet(2, authSwitch));
    assertThat(h.client(packet(3, CLEAR))).isEqualTo(packet(3, CLEAR));
    h.server(packet(4, Wire.ok(2)));
    byte[] changeUser = packet(0, changeUser(CLEAR, "mysql_clear_password"));
    assertThat(h.client(changeUser)).isEqualTo(changeUser);
  }

  /** Both legs TLS: the password is encrypted on both: relayed. */
  @Test
  void bothLegsTlsRelayClearPasswords() throws Exception {
    TrackerHarness h = new TrackerHarness(true, UpstreamTls.Mode.REQUIRED);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "mysql_native_password")));
    h.client(packet(1, sslRequest()));
    h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", CLEAR, "mysql_clear_password")));
    assertThat(h.tracker.takeStartUpstreamTls()).isTrue();
    assertThat(h.tracker.upstreamSslRequest()).isNotNull();
    assertThat(h.tracker.upstreamHandshakeResponse())
        .isEqualTo(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", CLEAR, "mysql_clear_password")));
  }

  // ------------------------------------------------------------------ helpers

  /** Greeting and the client's SSLRequest seen; the client's HandshakeResponse (seq 2) is next. */
  private static TrackerHarness clientTlsPlaintextUpstream(UpstreamTls.Mode mode, boolean allow)
      throws ProtocolException {
    TrackerHarness h = new TrackerHarness(true, mode, allow);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | SSL, "caching_sha2_password")));
    h.client(packet(1, sslRequest()));
    assertThat(h.tracker.takeStartTls()).isTrue();
    assertThat(h.tracker.upstreamTls()).isFalse();
    return h;
  }

  /** Client TLS, upstream off: HandshakeResponse with {@code plugin} relayed, no answer yet. */
  private static TrackerHarness loggingIn(String plugin) throws ProtocolException {
    TrackerHarness h = clientTlsPlaintextUpstream(UpstreamTls.Mode.OFF, false);
    h.client(packet(2, Wire.handshakeResponse(CAPS | SSL, "app", new byte[20], plugin)));
    return h;
  }

  private static TrackerHarness loggedIn() throws ProtocolException {
    TrackerHarness h = loggingIn("mysql_native_password");
    h.server(packet(2, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
    return h;
  }

  /** COM_CHANGE_USER: user, auth response (1-byte length), database, charset, plugin, attrs. */
  private static byte[] changeUser(byte[] auth, String plugin) {
    return concat(bytes(0x11), Wire.nul("other"), bytes(auth.length), auth, Wire.nul("db"),
        Wire.int2(45), Wire.nul(plugin), Wire.lenenc(0));
  }

  private static byte[] sslRequest() {
    return concat(Wire.int4(CAPS | SSL), Wire.int4(1 << 24), bytes(0xff), new byte[23]);
  }

  private static void assertNoSecretUpstream(TrackerHarness h) {
    String sent = new String(h.upstream.toByteArray(), StandardCharsets.ISO_8859_1);
    assertThat(sent).doesNotContain(SECRET);
  }
}
