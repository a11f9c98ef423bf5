package io.wireadvisor.proxy;

import static io.wireadvisor.proxy.Wire.bytes;
import static io.wireadvisor.proxy.Wire.concat;
import static io.wireadvisor.proxy.Wire.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The client's leg plaintext (issue 28): a password in clear crosses no plaintext leg. The
 * answer to caching_sha2_password's "perform full authentication" passes only as the RSA
 * public-key exchange (0x02, the server's key, a ciphertext); a clear answer is held whole and
 * refused, nothing of it upstream; plugins that send the password itself are refused wherever
 * they are named, before the client answers a server that asks for one.
 */
class ClientLegPasswordTest {
  private static final int CAPS = TrackerHarness.BASE_CAPS;
  private static final String SECRET = "S3cr3t-pa55word";
  private static final byte[] CLEAR = Wire.nul(SECRET);
  private static final byte[] FULL_AUTH = bytes(0x01, 0x04);
  private static final byte[] PEM =
      concat(bytes(0x01), Wire.ascii("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----\n"));

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void fullAuthenticationPassesAsThePublicKeyExchange() throws Exception {
    TrackerHarness h = sha2LoggingIn(false);
    assertThat(h.server(packet(2, FULL_AUTH))).isEqualTo(packet(2, FULL_AUTH));
    assertThat(h.client(packet(3, bytes(0x02)))).isEqualTo(packet(3, bytes(0x02)));
    assertThat(h.server(packet(4, PEM))).isEqualTo(packet(4, PEM));
    byte[] ciphertext = new byte[256];
    Arrays.fill(ciphertext, (byte) 0x5a);
    assertThat(h.client(packet(5, ciphertext))).isEqualTo(packet(5, ciphertext));
    h.server(packet(6, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
  }

  @Test
  void aClearAnswerToFullAuthenticationIsRefusedAndNothingOfItGoesUpstream() throws Exception {
    for (boolean upstreamPreferredWithoutTls : new boolean[] {false, true}) {
      TrackerHarness h = sha2LoggingIn(upstreamPreferredWithoutTls);
      h.server(packet(2, FULL_AUTH));
      int before = h.upstream.size();
      assertThatThrownBy(() -> h.client(packet(3, CLEAR)))
          .isInstanceOf(ProtocolException.class)
          .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_ACCESS_DENIED))
          .hasMessageContaining("not with a request for the server's RSA public key")
          .hasMessageContaining("--allow-cleartext-passwords")
          .hasMessageContaining(upstreamPreferredWithoutTls ? "--upstream-tls is preferred" : "--upstream-tls off");
      assertThat(h.upstream.size()).isEqualTo(before);
      assertNoSecretUpstream(h);
    }
  }

  @Test
  void aClearAnswerArrivingInPiecesIsHeldWholeAndRefused() throws Exception {
    TrackerHarness h = sha2LoggingIn(false);
    h.server(packet(2, FULL_AUTH));
    byte[] answer = packet(3, CLEAR);
    // Header and the first bytes of the password in one read, the rest in the next.
    assertThat(h.client(Arrays.copyOfRange(answer, 0, 7))).isEmpty();
    assertThatThrownBy(() -> h.client(Arrays.copyOfRange(answer, 7, answer.length)))
        .isInstanceOf(ProtocolException.class);
    assertNoSecretUpstream(h);
  }

  /**
   * A ciphertext made with a key the client had beforehand cannot be told from a password of
   * the same length: refused, the client is told to retrieve the key instead.
   */
  @Test
  void anAnswerThatIsNotTheKeyRequestIsRefusedWhateverItLooksLike() throws Exception {
    for (byte[] answer : new byte[][] {new byte[256], bytes(0x02, 0x00), bytes(0x01), new byte[0]}) {
      TrackerHarness h = sha2LoggingIn(false);
      h.server(packet(2, FULL_AUTH));
      assertThatThrownBy(() -> h.client(packet(3, answer)))
          .as("%d bytes", answer.length)
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("allowPublicKeyRetrieval");
    }
    // After the key, a ciphertext is at least 64 bytes: a short "password\0" is not one.
    TrackerHarness h = sha2LoggingIn(false);
    h.server(packet(2, FULL_AUTH));
    h.client(packet(3, bytes(0x02)));
    h.server(packet(4, PEM));
    assertThatThrownBy(() -> h.client(packet(5, CLEAR)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("too short for an RSA ciphertext");
    assertNoSecretUpstream(h);
  }

  @Test
  void aSecondFullAuthenticationRequestOrAKeyNobodyAskedForIsRefused() throws Exception {
    TrackerHarness h = sha2LoggingIn(false);
    assertThatThrownBy(() -> h.server(packet(2, PEM)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("AuthMoreData");
    TrackerHarness twice = sha2LoggingIn(false);
    twice.server(packet(2, FULL_AUTH));
    twice.client(packet(3, bytes(0x02)));
    assertThatThrownBy(() -> twice.server(packet(4, FULL_AUTH)))
        .isInstanceOf(ProtocolException.class);
  }

  @Test
  void aSwitchToAPluginThatSendsThePasswordIsRefusedBeforeTheClientSeesIt() throws Exception {
    for (String plugin : new String[] {"mysql_clear_password", "dialog", "sha256_password", "tidb_sm3_password"}) {
      TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF);
      h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
      h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")));
      byte[] authSwitch = concat(bytes(0xfe), Wire.nul(plugin), new byte[20], bytes(0));
      assertThatThrownBy(() -> h.server(packet(2, authSwitch)))
          .as(plugin)
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("'" + plugin + "'");
      assertThat(h.downstream.toString(StandardCharsets.ISO_8859_1)).doesNotContain(plugin);
    }
  }

  @Test
  void aHandshakeResponseCarryingAClearPasswordIsRefused() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
    assertThatThrownBy(
            () -> h.client(packet(1, Wire.handshakeResponse(CAPS, "app", CLEAR, "mysql_clear_password"))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("HandshakeResponse");
    assertNoSecretUpstream(h);
  }

  @Test
  void changeUserIsGuardedTheSameWay() throws Exception {
    TrackerHarness h = loggedIn();
    assertThatThrownBy(() -> h.client(packet(0, changeUser(CLEAR, "mysql_clear_password"))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("COM_CHANGE_USER");
    assertNoSecretUpstream(h);

    TrackerHarness sha2 = loggedIn();
    byte[] changeUser = packet(0, changeUser(new byte[32], "caching_sha2_password"));
    assertThat(sha2.client(changeUser)).isEqualTo(changeUser);
    assertThat(sha2.server(packet(1, FULL_AUTH))).isEqualTo(packet(1, FULL_AUTH));
    assertThatThrownBy(() -> sha2.client(packet(2, CLEAR))).isInstanceOf(ProtocolException.class);
    assertNoSecretUpstream(sha2);

    // TiDB's request split across two reads during COM_CHANGE_USER: held, none of it shown.
    TrackerHarness split = new TrackerHarness(false, UpstreamTls.Mode.OFF);
    split.server(packet(0, Wire.greeting("8.0.11-TiDB-v9.0.0", CAPS, "mysql_native_password")));
    split.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")));
    split.server(packet(2, Wire.ok(2)));
    split.client(changeUser);
    int shown = split.downstream.size();
    byte[] request = packet(1, FULL_AUTH);
    assertThat(split.server(Arrays.copyOfRange(request, 0, 5))).isEmpty();
    assertThatThrownBy(() -> split.server(Arrays.copyOfRange(request, 5, request.length)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("TiDB asks for the full password");
    assertThat(split.downstream.size()).isEqualTo(shown);

    // An answer too long to hold streams: refused at its first byte, before any of it moves.
    TrackerHarness longAnswer = loggedIn();
    longAnswer.client(changeUser);
    longAnswer.server(packet(1, FULL_AUTH));
    byte[] huge = new byte[SessionTracker.MAX_HANDSHAKE_PACKET + 10];
    System.arraycopy(CLEAR, 0, huge, 0, CLEAR.length);
    int before = longAnswer.upstream.size();
    assertThatThrownBy(() -> longAnswer.client(packet(2, huge))).isInstanceOf(ProtocolException.class);
    assertThat(longAnswer.upstream.size()).isEqualTo(before);

    // And the key exchange passes there too.
    TrackerHarness rsa = loggedIn();
    rsa.client(changeUser);
    rsa.server(packet(1, FULL_AUTH));
    assertThat(rsa.client(packet(2, bytes(0x02)))).isEqualTo(packet(2, bytes(0x02)));
    rsa.server(packet(3, PEM));
    byte[] ciphertext = new byte[256];
    assertThat(rsa.client(packet(4, ciphertext))).isEqualTo(packet(4, ciphertext));
    rsa.server(packet(5, Wire.ok(2)));
  }

  @Test
  void challengeResponseLoginsAndSwitchesPassUnchanged() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    byte[] response = packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password"));
    assertThat(h.client(response)).isEqualTo(response);
    byte[] authSwitch = concat(bytes(0xfe), Wire.nul("mysql_native_password"), new byte[20], bytes(0));
    assertThat(h.server(packet(2, authSwitch))).isEqualTo(packet(2, authSwitch));
    assertThat(h.client(packet(3, new byte[20]))).isEqualTo(packet(3, new byte[20]));
    h.server(packet(4, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
    // caching_sha2_password's fast path.
    TrackerHarness fast = sha2LoggingIn(false);
    assertThat(fast.server(packet(2, bytes(0x01, 0x03)))).isEqualTo(packet(2, bytes(0x01, 0x03)));
    fast.server(packet(3, Wire.ok(2)));
    assertThat(fast.tracker.inCommandPhase()).isTrue();
  }

  /**
   * TiDB reads full authentication only in clear (no RSA exchange): a plaintext client is never
   * shown the request, which the MariaDB mysql CLI answers with its password in clear.
   */
  @Test
  void tidbsFullAuthenticationRequestNeverReachesAPlaintextClient() throws Exception {
    for (UpstreamTls.Mode mode : new UpstreamTls.Mode[] {UpstreamTls.Mode.OFF, UpstreamTls.Mode.PREFERRED}) {
      TrackerHarness h = new TrackerHarness(false, mode);
      h.server(packet(0, Wire.greeting("8.0.11-TiDB-v9.0.0", CAPS, "mysql_native_password")));
      h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")));
      byte[] authSwitch = concat(bytes(0xfe), Wire.nul("caching_sha2_password"), new byte[20], bytes(0));
      assertThat(h.server(packet(2, authSwitch))).isEqualTo(packet(2, authSwitch));
      assertThat(h.client(packet(3, new byte[32]))).isEqualTo(packet(3, new byte[32]));
      int shown = h.downstream.size();
      assertThatThrownBy(() -> h.server(packet(4, FULL_AUTH)))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("TiDB asks for the full password")
          .hasMessageContaining("--upstream-tls preferred or required");
      assertThat(h.downstream.size()).isEqualTo(shown);
    }
  }

  @Test
  void theCleartextFlagRelaysAClearAnswer() throws Exception {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF, false, true);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
    h.server(packet(2, FULL_AUTH));
    assertThat(h.client(packet(3, CLEAR))).isEqualTo(packet(3, CLEAR));
  }

  // ------------------------------------------------------------------ helpers

  /** Plaintext client and upstream, a caching_sha2_password HandshakeResponse relayed. */
  private static TrackerHarness sha2LoggingIn(boolean preferredWithoutTls) throws ProtocolException {
    TrackerHarness h =
        new TrackerHarness(false, preferredWithoutTls ? UpstreamTls.Mode.PREFERRED : UpstreamTls.Mode.OFF);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    byte[] response = packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password"));
    assertThat(h.client(response)).isEqualTo(response);
    return h;
  }

  private static TrackerHarness loggedIn() throws ProtocolException {
    TrackerHarness h = new TrackerHarness(false, UpstreamTls.Mode.OFF);
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
    h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")));
    h.server(packet(2, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
    return h;
  }

  /** COM_CHANGE_USER: user, auth response (1-byte length), database, charset, plugin, attrs. */
  private static byte[] changeUser(byte[] auth, String plugin) {
    return concat(bytes(0x11), Wire.nul("other"), bytes(auth.length), auth, Wire.nul("db"),
        Wire.int2(45), Wire.nul(plugin), Wire.lenenc(0));
  }

  private static void assertNoSecretUpstream(TrackerHarness h) {
    String sent = new String(h.upstream.toByteArray(), StandardCharsets.ISO_8859_1);
    assertThat(sent).doesNotContain(SECRET);
  }
}
