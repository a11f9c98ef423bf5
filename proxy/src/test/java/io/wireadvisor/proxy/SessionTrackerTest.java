package io.wireadvisor.proxy;

import io.wireadvisor.wire.Bytes;
import static io.wireadvisor.proxy.Wire.bytes;
import static io.wireadvisor.proxy.Wire.concat;
import static io.wireadvisor.proxy.Wire.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The protocol state machine on packet sequences written from the MySQL protocol documentation,
 * including what the local MariaDB cannot produce: caching_sha2_password fast and full auth,
 * auth switch, CLIENT_DEPRECATE_EOF, query attributes, optional result-set metadata.
 */
class SessionTrackerTest {
  private static final int CAPS = TrackerHarness.BASE_CAPS;
  private static final int DEPRECATE = CAPS | Capabilities.CLIENT_DEPRECATE_EOF;
  private static final int MORE = Capabilities.SERVER_MORE_RESULTS_EXISTS;

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  @Test
  void greetingLosesSslAndCompressionAndNothingElse() throws Exception {
    TrackerHarness h = new TrackerHarness();
    int offered =
        CAPS | Capabilities.CLIENT_SSL | Capabilities.CLIENT_COMPRESS
            | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM | Capabilities.CLIENT_DEPRECATE_EOF;
    byte[] greeting = packet(0, Wire.greeting("8.0.36", offered, "caching_sha2_password"));
    byte[] forwarded = h.server(greeting);
    byte[] expected =
        packet(0, Wire.greeting("8.0.36", offered & ~(Capabilities.CLIENT_SSL
            | Capabilities.CLIENT_COMPRESS | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM),
            "caching_sha2_password"));
    assertThat(forwarded).isEqualTo(expected);
    assertThat(h.versions).containsExactly("8.0.36");
  }

  @Test
  void mariaDbCachedMetadataCapabilityIsWithdrawn() throws Exception {
    TrackerHarness h = new TrackerHarness();
    int caps = CAPS & ~Capabilities.CLIENT_LONG_PASSWORD; // MariaDB's extended-capability marker
    int extended = Capabilities.MARIADB_CLIENT_CACHE_METADATA | 1 << 2;
    byte[] forwarded = h.server(packet(0, Wire.greeting("11.4.5-MariaDB", caps, "mysql_native_password", extended)));
    assertThat(forwarded)
        .isEqualTo(packet(0, Wire.greeting("11.4.5-MariaDB", caps, "mysql_native_password", 1 << 2)));
  }

  @Test
  void sslRequestIsRefusedWithAnErrorThatSaysWhy() throws Exception {
    TrackerHarness h = new TrackerHarness();
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | Capabilities.CLIENT_SSL, "mysql_native_password")));
    byte[] sslRequest = concat(Wire.int4(CAPS | Capabilities.CLIENT_SSL), Wire.int4(1 << 24), bytes(33), new byte[23]);
    assertThatThrownBy(() -> h.client(packet(1, sslRequest)))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("TLS");
  }

  @Test
  void withTlsTheSslRequestStaysAtTheProxyAndAuthPacketsAreRenumbered() throws Exception {
    TrackerHarness h = new TrackerHarness(true);
    // The upstream offers no TLS; the proxy offers it.
    byte[] greeting = h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
    assertThat(Bytes.uint16(greeting, 4 + 1 + "8.0.36".length() + 1 + 4 + 8 + 1) & Capabilities.CLIENT_SSL)
        .isNotZero();
    int tlsCaps = CAPS | Capabilities.CLIENT_SSL;
    byte[] sslRequest = concat(Wire.int4(tlsCaps), Wire.int4(1 << 24), bytes(33), new byte[23]);
    // The TLS ClientHello follows in the same read: the scanner must stop after the request.
    io.netty.buffer.ByteBuf in =
        io.netty.buffer.Unpooled.wrappedBuffer(concat(packet(1, sslRequest), bytes(0x16, 0x03, 0x01)));
    java.util.List<io.netty.buffer.ByteBuf> out = new java.util.ArrayList<>();
    try {
      h.tracker.clientScanner().scan(in, out);
      assertThat(out).isEmpty();
      assertThat(h.tracker.takeStartTls()).isTrue();
      assertThat(h.tracker.takeStartTls()).isFalse();
      assertThat(in.readableBytes()).isEqualTo(3);
    } finally {
      in.release();
    }
    // After TLS (decrypted by the TLS layer): the response arrives as packet 2, goes up as 1.
    byte[] response = Wire.handshakeResponse(tlsCaps, "app", new byte[20], "mysql_native_password");
    assertThat(h.client(packet(2, response)))
        .isEqualTo(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")));
    byte[] authSwitch = concat(bytes(0xfe), Wire.nul("mysql_native_password"), new byte[20], bytes(0));
    assertThat(h.server(packet(2, authSwitch))).isEqualTo(packet(3, authSwitch));
    assertThat(h.client(packet(4, new byte[20]))).isEqualTo(packet(3, new byte[20]));
    assertThat(h.server(packet(4, Wire.ok(2)))).isEqualTo(packet(5, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
    // Commands are numbered from 0 again on both sides: no renumbering.
    assertSelectOneWorks(h, false);
  }

  @Test
  void withTlsOnlyToTheProxyAPasswordInClearIsNeverRelayedUpstream() throws Exception {
    for (byte[] ask :
        new byte[][] {
          bytes(0x01, 0x04), // caching_sha2_password: perform full authentication
          concat(bytes(0xfe), Wire.nul("mysql_clear_password")),
        }) {
      TrackerHarness h = new TrackerHarness(true);
      h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
      int tlsCaps = CAPS | Capabilities.CLIENT_SSL;
      h.client(packet(1, concat(Wire.int4(tlsCaps), Wire.int4(1 << 24), bytes(33), new byte[23])));
      assertThat(h.tracker.takeStartTls()).isTrue();
      h.client(packet(2, Wire.handshakeResponse(tlsCaps, "app", new byte[32], "caching_sha2_password")));
      assertThatThrownBy(() -> h.server(packet(2, ask)))
          .isInstanceOf(ProtocolException.class)
          .hasMessageContaining("plaintext upstream");
    }
    // Without client TLS the same request passes through (the RSA exchange protects it).
    TrackerHarness plain = new TrackerHarness(true);
    plain.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    plain.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
    assertThat(plain.server(packet(2, bytes(0x01, 0x04)))).isEqualTo(packet(2, bytes(0x01, 0x04)));
  }

  @Test
  void clientCompressionFlagIsClearedWhenNotOffered() throws Exception {
    TrackerHarness h = new TrackerHarness();
    h.server(packet(0, Wire.greeting("8.0.36", CAPS | Capabilities.CLIENT_COMPRESS, "mysql_native_password")));
    byte[] response = Wire.handshakeResponse(CAPS | Capabilities.CLIENT_COMPRESS, "u", new byte[20], "mysql_native_password");
    byte[] forwarded = h.client(packet(1, response));
    assertThat(forwarded)
        .isEqualTo(packet(1, Wire.handshakeResponse(CAPS, "u", new byte[20], "mysql_native_password")));
  }

  @Test
  void cachingSha2FastAuthPassesThroughAndEndsAtOk() throws Exception {
    TrackerHarness h = new TrackerHarness();
    h.server(packet(0, Wire.greeting("8.0.36", DEPRECATE, "caching_sha2_password")));
    byte[] scramble = new byte[32];
    byte[][] exchange = {
      packet(1, Wire.handshakeResponse(DEPRECATE, "app", scramble, "caching_sha2_password")),
      packet(2, bytes(0x01, 0x03)), // fast_auth_success
      packet(3, Wire.ok(2)),
    };
    assertThat(h.client(exchange[0])).isEqualTo(exchange[0]);
    assertThat(h.tracker.inCommandPhase()).isFalse();
    assertThat(h.server(exchange[1])).isEqualTo(exchange[1]);
    assertThat(h.tracker.inCommandPhase()).isFalse();
    assertThat(h.server(exchange[2])).isEqualTo(exchange[2]);
    assertThat(h.tracker.inCommandPhase()).isTrue();
    assertSelectOneWorks(h, true);
  }

  @Test
  void cachingSha2FullAuthWithRsaKeyExchangePassesThrough() throws Exception {
    TrackerHarness h = new TrackerHarness();
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    byte[] pem = Wire.ascii("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n");
    byte[] encrypted = new byte[256];
    new java.util.Random(9).nextBytes(encrypted);
    byte[][] exchange = {
      packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")),
      packet(2, bytes(0x01, 0x04)), // perform_full_authentication
      packet(3, bytes(0x02)), // request public key
      packet(4, concat(bytes(0x01), pem)), // AuthMoreData with the key
      packet(5, encrypted), // RSA-encrypted password
      packet(6, Wire.ok(2)),
    };
    for (int i = 0; i < exchange.length; i++) {
      boolean fromClient = i == 0 || i == 2 || i == 4;
      byte[] forwarded = fromClient ? h.client(exchange[i]) : h.server(exchange[i]);
      assertThat(forwarded).as("packet %d", i).isEqualTo(exchange[i]);
      assertThat(h.tracker.inCommandPhase()).isEqualTo(i == exchange.length - 1);
    }
    assertSelectOneWorks(h, false);
  }

  @Test
  void authSwitchRequestContinuesTheHandshake() throws Exception {
    TrackerHarness h = new TrackerHarness();
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "caching_sha2_password")));
    h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[32], "caching_sha2_password")));
    h.server(packet(2, concat(bytes(0xfe), Wire.nul("mysql_native_password"), new byte[20], bytes(0))));
    assertThat(h.tracker.inCommandPhase()).isFalse();
    h.client(packet(3, new byte[20]));
    h.server(packet(4, Wire.ok(2)));
    assertThat(h.tracker.inCommandPhase()).isTrue();
    assertSelectOneWorks(h, false);
  }

  @Test
  void failedLoginClassifiesNothing() throws Exception {
    TrackerHarness h = new TrackerHarness();
    h.server(packet(0, Wire.greeting("8.0.36", CAPS, "mysql_native_password")));
    h.client(packet(1, Wire.handshakeResponse(CAPS, "app", new byte[20], "mysql_native_password")));
    h.server(packet(2, Wire.err(1045, "Access denied")));
    assertThat(h.tracker.inCommandPhase()).isFalse();
    h.client(packet(0, Wire.query("SELECT 1")));
    assertThat(h.profile().totalCommands()).isZero();
  }

  @Test
  void resultSetsWithAndWithoutDeprecateEofAndMultipleResultsAreEachMatchedToTheirCommand()
      throws Exception {
    for (boolean deprecate : new boolean[] {false, true}) {
      TrackerHarness h = new TrackerHarness().loggedIn(deprecate ? DEPRECATE : CAPS);
      byte[] end = deprecate ? Wire.okEof(2) : Wire.eof(2);
      byte[] endMore = deprecate ? Wire.okEof(2 | MORE) : Wire.eof(2 | MORE);
      // Pipelined: a two-result query and a ping, sent before any answer.
      h.client(packet(0, Wire.query("SELECT a FROM t; SELECT b, c FROM u")), packet(0, bytes(0x0e)));
      int seq = 1;
      h.server(packet(seq++, Wire.lenenc(1)), packet(seq++, Wire.columnDef("a")));
      if (!deprecate) {
        h.server(packet(seq++, Wire.eof(2)));
      }
      // A text row that starts with 0xFE (a length above 2^24) is not an EOF: only short ones are.
      h.server(packet(seq++, Wire.textRow("1")), packet(seq++, Wire.textRow("2")), packet(seq++, endMore));
      assertThat(h.profile().count(CommandType.QUERY)).as("deprecate=%s", deprecate).isZero();
      h.server(packet(seq++, Wire.lenenc(2)), packet(seq++, Wire.columnDef("b")), packet(seq++, Wire.columnDef("c")));
      if (!deprecate) {
        h.server(packet(seq++, Wire.eof(2)));
      }
      h.server(packet(seq++, Wire.textRow("x", null)));
      assertThat(h.profile().count(CommandType.QUERY)).isZero();
      h.server(packet(seq, end));
      assertThat(h.profile().count(CommandType.QUERY)).isEqualTo(1);
      assertThat(h.profile().count(CommandType.PING)).isZero();
      h.server(packet(1, Wire.ok(2)));
      TrafficProfile p = h.profile();
      assertThat(p.count(CommandType.PING)).isEqualTo(1);
      assertThat(p.commands().get(CommandType.QUERY).latency().count()).isEqualTo(1);
      assertThat(h.tracker.pendingCommands()).isZero();
    }
  }

  @Test
  void deepPipelinesAreMatchedInOrderUpToTheLimit() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE);
    for (int i = 0; i < 100; i++) {
      h.client(packet(0, Wire.query("SELECT " + i)), packet(0, bytes(0x0e)));
    }
    assertThat(h.tracker.pendingCommands()).isEqualTo(200);
    for (int i = 0; i < 100; i++) {
      h.server(packet(1, Wire.err(1064, "syntax")));
      h.server(packet(1, Wire.ok(2)));
    }
    TrafficProfile p = h.profile();
    assertThat(p.count(CommandType.QUERY)).isEqualTo(100);
    assertThat(p.count(CommandType.PING)).isEqualTo(100);
    // Every ERR went to a query, every OK to a ping.
    assertThat(p.total(Via.ERRORS)).isEqualTo(100);
    assertThat(h.tracker.pendingCommands()).isZero();
    TrackerHarness flood = new TrackerHarness().loggedIn(DEPRECATE);
    for (int i = 0; i < SessionTracker.MAX_PIPELINED; i++) {
      flood.client(packet(0, bytes(0x0e)));
    }
    assertThatThrownBy(() -> flood.client(packet(0, bytes(0x0e))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("without waiting");
  }

  @Test
  void textsAreReadInTheEscapingModeTheServersStatusFlagsAnnounce() throws Exception {
    // Issue 28 point 2: after NO_BACKSLASH_ESCAPES, 'x\' ends its string and 'Secret' is a literal.
    String issue = "ALTER USER a IDENTIFIED BY 'x\\', b IDENTIFIED BY 'Secret'";
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE);
    h.client(packet(0, Wire.query(issue))); // the mode is not known before the first reply
    h.server(packet(1, Wire.err(1064, "syntax")));
    h.client(packet(0, Wire.query("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'")));
    h.server(packet(1, Wire.ok(2 | 0x0200)));
    h.client(packet(0, Wire.query(issue)));
    h.server(packet(1, Wire.ok(2 | 0x0200)));
    // Pipelined: the SET's reply must not stand for the mode after the second SET.
    h.client(packet(0, Wire.query("SET sql_mode = ''")));
    h.client(packet(0, Wire.query("SELECT 'it\\'s', n FROM t")));
    h.server(packet(1, Wire.ok(2)));
    h.server(packet(1, Wire.err(1146, "no table")));
    java.util.Set<String> texts = new java.util.HashSet<>();
    for (ShapeStats s : h.profile().shapes().values()) {
      texts.add(s.digestText());
    }
    assertThat(texts).contains("alter user a identified by ? ...",
        "alter user a identified by ?, b identified by ?", "select ?, n from t");
    assertThat(texts).noneMatch(t -> t.contains("secret"));
  }

  @Test
  void okWithMoreResultsThenErrorEndsTheCommandAsFailed() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE);
    h.client(packet(0, Wire.query("UPDATE t SET a = 1; SELECT nope")));
    h.server(packet(1, Wire.ok(2 | MORE)));
    assertThat(h.tracker.pendingCommands()).isEqualTo(1);
    h.server(packet(2, Wire.err(1054, "Unknown column")));
    assertThat(h.tracker.pendingCommands()).isZero();
    ShapeStats shape = h.profile().shapes().values().iterator().next();
    assertThat(shape.count(Via.TEXT_EXECUTES)).isEqualTo(1);
    assertThat(shape.count(Via.ERRORS)).isEqualTo(1);
  }

  @Test
  void preparedStatementLifecycleIsTrackedByStatementIdInBothEofModes() throws Exception {
    for (boolean deprecate : new boolean[] {false, true}) {
      TrackerHarness h = new TrackerHarness().loggedIn(deprecate ? DEPRECATE : CAPS);
      h.client(packet(0, concat(bytes(0x16), Wire.ascii("SELECT a, b FROM t WHERE id = ? AND k = ?"))));
      int seq = 1;
      h.server(packet(seq++, Wire.prepareOk(7, 2, 2)));
      h.server(packet(seq++, Wire.columnDef("?")), packet(seq++, Wire.columnDef("?")));
      if (!deprecate) {
        h.server(packet(seq++, Wire.eof(2)));
      }
      h.server(packet(seq++, Wire.columnDef("a")));
      assertThat(h.tracker.pendingCommands()).isEqualTo(1);
      h.server(packet(seq++, Wire.columnDef("b")));
      if (!deprecate) {
        assertThat(h.tracker.pendingCommands()).isEqualTo(1);
        h.server(packet(seq, Wire.eof(2)));
      }
      assertThat(h.tracker.pendingCommands()).as("deprecate=%s", deprecate).isZero();
      // EXECUTE with a cursor: columns, then an end-of-metadata EOF saying a cursor exists.
      h.client(packet(0, Wire.stmt(0x17, 7, bytes(0x01, 1, 0, 0, 0))));
      h.server(packet(1, Wire.lenenc(2)), packet(2, Wire.columnDef("a")), packet(3, Wire.columnDef("b")));
      h.server(packet(4, deprecate ? Wire.okEof(2 | Capabilities.SERVER_STATUS_CURSOR_EXISTS)
          : Wire.eof(2 | Capabilities.SERVER_STATUS_CURSOR_EXISTS)));
      assertThat(h.tracker.pendingCommands()).isZero();
      // FETCH: binary rows, then the end.
      h.client(packet(0, Wire.stmt(0x1c, 7, Wire.int4(2))));
      h.server(packet(1, bytes(0x00, 0x00, 1, 1)), packet(2, bytes(0x00, 0x00, 2, 2)));
      h.server(packet(3, deprecate ? Wire.okEof(2 | 0x80) : Wire.eof(2 | 0x80)));
      // SEND_LONG_DATA and CLOSE have no reply; RESET has one.
      h.client(packet(0, Wire.stmt(0x18, 7, concat(Wire.int2(0), new byte[10]))));
      h.client(packet(0, Wire.stmt(0x1a, 7, new byte[0])));
      h.server(packet(1, Wire.ok(2)));
      h.client(packet(0, Wire.stmt(0x19, 7, new byte[0])));
      // After CLOSE the id is unknown: counted as a command, not attributed to the shape.
      h.client(packet(0, Wire.stmt(0x17, 7, bytes(0, 1, 0, 0, 0))));
      h.server(packet(1, Wire.err(1243, "Unknown prepared statement handler")));
      TrafficProfile p = h.profile();
      ShapeStats shape = p.shapes().values().iterator().next();
      assertThat(shape.digestText()).isEqualTo("select a, b from t where id = ? and k = ?");
      assertThat(shape.count(Via.PREPARES)).isEqualTo(1);
      assertThat(shape.count(Via.EXECUTES)).isEqualTo(1);
      assertThat(shape.count(Via.FETCHES)).isEqualTo(1);
      assertThat(shape.count(Via.SEND_LONG_DATA)).isEqualTo(1);
      assertThat(shape.count(Via.RESETS)).isEqualTo(1);
      assertThat(shape.count(Via.CLOSES)).isEqualTo(1);
      assertThat(p.count(CommandType.STMT_EXECUTE)).isEqualTo(2);
      assertThat(h.tracker.pendingCommands()).isZero();
    }
  }

  @Test
  void mariaDbPipelinedPrepareAndExecuteWithLastStatementIdIsAttributed() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(CAPS);
    h.client(
        packet(0, concat(bytes(0x16), Wire.ascii("SELECT 1"))),
        packet(0, Wire.stmt(0x17, -1, bytes(0, 1, 0, 0, 0))));
    h.server(packet(1, Wire.prepareOk(3, 1, 0)), packet(2, Wire.columnDef("1")), packet(3, Wire.eof(2)));
    h.server(packet(1, Wire.lenenc(1)), packet(2, Wire.columnDef("1")), packet(3, Wire.eof(2)),
        packet(4, bytes(0x00, 0x00, 1)), packet(5, Wire.eof(2)));
    ShapeStats shape = h.profile().shapes().values().iterator().next();
    assertThat(shape.count(Via.PREPARES)).isEqualTo(1);
    assertThat(shape.count(Via.EXECUTES)).isEqualTo(1);
    assertThat(h.tracker.pendingCommands()).isZero();
  }

  @Test
  void queryAttributesAreSkippedToFindTheSql() throws Exception {
    int caps = DEPRECATE | Capabilities.CLIENT_QUERY_ATTRIBUTES;
    TrackerHarness h = new TrackerHarness().loggedIn(caps);
    // Two attributes: a VARCHAR "trace" = "abc" and a LONGLONG "n" = 5; then the SQL.
    byte[] attrs =
        concat(
            Wire.lenenc(2), Wire.lenenc(1), bytes(0x00), bytes(0x01),
            Wire.int2(253), Wire.lenencString("trace"),
            Wire.int2(8), Wire.lenencString("n"),
            Wire.lenencString("abc"), new byte[] {5, 0, 0, 0, 0, 0, 0, 0});
    h.client(packet(0, concat(bytes(0x03), attrs, Wire.ascii("SELECT @@session.transaction_isolation"))));
    h.server(packet(1, Wire.lenenc(1)), packet(2, Wire.columnDef("x")), packet(3, Wire.textRow("READ-COMMITTED")),
        packet(4, Wire.okEof(2)));
    // No attributes: the two counts and the SQL.
    h.client(packet(0, concat(bytes(0x03), Wire.lenenc(0), Wire.lenenc(1), Wire.ascii("COMMIT"))));
    h.server(packet(1, Wire.ok(2)));
    TrafficProfile p = h.profile();
    assertThat(p.shapes().values()).extracting(ShapeStats::digestText)
        .containsExactlyInAnyOrder("select @@session.transaction_isolation", "commit");
    assertThat(p.probes().get(ProbeKind.ISOLATION_READ).count()).isEqualTo(1);
  }

  @Test
  void optionalResultSetMetadataWithoutColumnsIsFollowed() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE | Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA);
    h.client(packet(0, Wire.query("SELECT 1")));
    // column count 1, metadata_follows = 0 (RESULTSET_METADATA_NONE): rows come next.
    h.server(packet(1, concat(Wire.lenenc(1), bytes(0))), packet(2, Wire.textRow("1")), packet(3, Wire.okEof(2)));
    assertThat(h.tracker.pendingCommands()).isZero();
    assertThat(h.profile().count(CommandType.QUERY)).isEqualTo(1);
  }

  @Test
  void loadDataLocalInfileStreamsTheFileThenWaitsForTheResult() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE);
    h.client(packet(0, Wire.query("LOAD DATA LOCAL INFILE 'f' INTO TABLE t")));
    h.server(packet(1, concat(bytes(0xfb), Wire.ascii("f"))));
    h.client(packet(2, Wire.ascii("1\ta\n")), packet(3, Wire.ascii("2\tb\n")));
    assertThat(h.tracker.pendingCommands()).isEqualTo(1);
    h.client(packet(4, new byte[0]));
    h.server(packet(5, Wire.ok(2)));
    assertThat(h.tracker.pendingCommands()).isZero();
    // The next command starts at sequence 0 again.
    assertSelectOneWorks(h, true);
  }

  @Test
  void outOfSequenceAndEmptyCommandPacketsAreRejected() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(CAPS);
    assertThatThrownBy(() -> h.client(packet(3, Wire.query("SELECT 1"))))
        .isInstanceOf(ProtocolException.class)
        .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_NET_PACKETS_OUT_OF_ORDER));
    TrackerHarness h2 = new TrackerHarness().loggedIn(CAPS);
    assertThatThrownBy(() -> h2.client(packet(0, new byte[0])))
        .isInstanceOf(ProtocolException.class)
        .satisfies(e -> assertThat(((ProtocolException) e).code()).isEqualTo(Packets.ER_MALFORMED_PACKET));
    TrackerHarness h3 = new TrackerHarness().loggedIn(CAPS);
    assertThatThrownBy(() -> h3.client(packet(0, bytes(0x17, 1))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("statement id");
  }

  @Test
  void clientDataBeforeTheGreetingIsRejected() {
    TrackerHarness h = new TrackerHarness();
    assertThatThrownBy(() -> h.client(packet(0, Wire.query("SELECT 1")))).isInstanceOf(ProtocolException.class);
  }

  @Test
  void largeCommandContinuationMustKeepItsSequence() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(CAPS);
    byte[] sql = new byte[Wire.MAX];
    java.util.Arrays.fill(sql, (byte) ' ');
    sql[0] = 0x03;
    System.arraycopy(Wire.ascii("SELECT 1"), 0, sql, 1, 8);
    h.client(concat(Wire.header(Wire.MAX, 0), sql));
    assertThatThrownBy(() -> h.client(packet(5, new byte[10])))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("expected");
    TrackerHarness ok = new TrackerHarness().loggedIn(CAPS);
    ok.client(concat(Wire.header(Wire.MAX, 0), sql), packet(1, new byte[0]));
    ok.server(packet(2, Wire.lenenc(1)), packet(3, Wire.columnDef("1")), packet(4, Wire.eof(2)),
        packet(5, Wire.textRow("1")), packet(6, Wire.eof(2)));
    assertThat(ok.profile().shapes().values()).extracting(ShapeStats::digestText).containsExactly("select ?");
    assertThat(ok.tracker.pendingCommands()).isZero();
  }

  @Test
  void changeUserWithAuthSwitchStartsANewSessionWithoutStatements() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(CAPS);
    h.client(packet(0, concat(bytes(0x16), Wire.ascii("SELECT 1"))));
    h.server(packet(1, Wire.prepareOk(1, 0, 0)));
    h.client(packet(0, concat(bytes(0x11), Wire.nul("other"), bytes(20), new byte[20], Wire.nul("db"))));
    h.server(packet(1, concat(bytes(0xfe), Wire.nul("caching_sha2_password"), new byte[20], bytes(0))));
    h.client(packet(2, new byte[32]));
    h.server(packet(3, bytes(0x01, 0x03)));
    h.server(packet(4, Wire.ok(2)));
    assertThat(h.tracker.pendingCommands()).isZero();
    h.client(packet(0, Wire.stmt(0x17, 1, bytes(0, 1, 0, 0, 0))));
    h.server(packet(1, Wire.err(1243, "Unknown prepared statement handler")));
    TrafficProfile p = h.profile();
    assertThat(p.count(CommandType.CHANGE_USER)).isEqualTo(1);
    assertThat(p.total(Via.EXECUTES)).isZero();
    assertThat(p.count(CommandType.STMT_EXECUTE)).isEqualTo(1);
  }

  @Test
  void resetConnectionForgetsStatementsAndQuitIsCountedWithoutReply() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE);
    h.client(packet(0, concat(bytes(0x16), Wire.ascii("SELECT 1"))));
    h.server(packet(1, Wire.prepareOk(1, 0, 0)));
    h.client(packet(0, bytes(0x1f)));
    h.server(packet(1, Wire.ok(2)));
    h.client(packet(0, Wire.stmt(0x19, 1, new byte[0])));
    h.client(packet(0, bytes(0x01)));
    TrafficProfile p = h.profile();
    assertThat(p.count(CommandType.RESET_CONNECTION)).isEqualTo(1);
    assertThat(p.count(CommandType.STMT_CLOSE)).isEqualTo(1);
    assertThat(p.total(Via.CLOSES)).isZero();
    assertThat(p.count(CommandType.QUIT)).isEqualTo(1);
    assertThat(h.stats.closesOfUnknownStatements.sum()).isEqualTo(1);
  }

  @Test
  void closingWithCommandsInFlightCountsThemUntimed() throws Exception {
    TrackerHarness h = new TrackerHarness().loggedIn(DEPRECATE);
    h.client(packet(0, Wire.query("SELECT SLEEP(10)")));
    assertThat(h.tracker.errSequenceForClient()).isEqualTo(1);
    h.server(packet(1, Wire.lenenc(1)));
    assertThat(h.tracker.errSequenceForClient()).isEqualTo(2);
    h.tracker.close();
    h.tracker.close();
    TrafficProfile p = h.profile();
    assertThat(p.count(CommandType.QUERY)).isEqualTo(1);
    assertThat(p.commands().get(CommandType.QUERY).latency()).isNull();
    assertThat(p.connections().connections()).isEqualTo(1);
  }

  private static void assertSelectOneWorks(TrackerHarness h, boolean deprecate) throws Exception {
    long before = h.profile().count(CommandType.QUERY);
    byte[] q = packet(0, Wire.query("SELECT 1"));
    assertThat(h.client(q)).isEqualTo(q);
    h.server(packet(1, Wire.lenenc(1)), packet(2, Wire.columnDef("1")));
    if (!deprecate) {
      h.server(packet(3, Wire.eof(2)));
    }
    h.server(packet(4, Wire.textRow("1")), packet(5, deprecate ? Wire.okEof(2) : Wire.eof(2)));
    assertThat(h.profile().count(CommandType.QUERY)).isEqualTo(before + 1);
    assertThat(h.tracker.pendingCommands()).isZero();
  }
}
