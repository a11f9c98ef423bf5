package io.wireadvisor.proxy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ServerError;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.Greeting;
import io.wireadvisor.wire.QueryAttributes;
import io.wireadvisor.wire.Replies;
import java.util.function.Consumer;

/**
 * The protocol state of one proxied connection: follows the handshake, matches every command to
 * its complete response, times it, and records it in the {@link ProfileRecorder}. It sees only
 * packet heads (via two {@link PacketScanner}s), never buffers a payload, and never decides what
 * is forwarded, except that it rewrites capability flags in the handshake and rejects client
 * packets that break the protocol.
 *
 * <p>Not thread-safe: both channels of a connection share one event loop, which calls it.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html">
 *     MySQL command phase</a>
 */
final class SessionTracker {
  /** SQL text classified per command: the head of the packet only, whatever its size. */
  static final int SQL_CAPTURE_LIMIT = 64 * 1024;
  /** Commands a client may pipeline before a response; beyond this it is treated as hostile. */
  static final int MAX_PIPELINED = 4096;
  /**
   * Largest login packet held whole (greeting, HandshakeResponse, auth packets while renumbered).
   * A HandshakeResponse is 32 fixed bytes, a user name, an auth response (an RSA-encrypted
   * password is 512 bytes at 4096 bits), a database name, a plugin name and the connection
   * attributes, which MySQL refuses past 64 KiB: so 64 KiB + 4 KiB. A larger one is hostile; it
   * gets ERR 1835 and is closed before the proxy holds it.
   */
  static final int MAX_HANDSHAKE_PACKET = 64 * 1024 + 4 * 1024;

  private static final int SERVER_CAPTURE = 32;

  private enum Phase {
    GREETING,
    HANDSHAKE_RESPONSE,
    AUTH,
    COMMAND,
    /** Replication or an unparseable server answer: bytes still flow, nothing is classified. */
    OPAQUE,
    CLOSED
  }

  private enum Expect {
    SIMPLE,
    ANY_ONE_PACKET,
    RESULT,
    COLUMN_DEFS,
    COLUMNS_EOF,
    ROWS,
    PREPARE,
    PREPARE_PARAMS,
    PREPARE_PARAMS_EOF,
    PREPARE_COLUMNS,
    PREPARE_COLUMNS_EOF,
    FIELD_LIST,
    AUTH
  }

  /** One command waiting for (the rest of) its response; pooled in a ring. */
  private static final class Pending {
    CommandType type;
    /** The command as the recording seam decoded it (its shape, statement, capture event). */
    final io.wireadvisor.command.CommandRecord record = new io.wireadvisor.command.CommandRecord();
    long startNanos;
    int lastClientSeq;
    boolean responseStarted;
    /** The error code of the ERR that ended the reply, or -1. */
    int errorCode = -1;
    /** The SQLSTATE of that ERR (five characters), or null. */
    String sqlState;
    /**
     * Rows of the reply's first result set (what the agent counts too: the driver's result for the
     * statement), -1 while none began or when a cursor holds them.
     */
    long rows = -1;
    /** The first result set ended: later ones of a multi-result reply are not counted. */
    boolean rowsDone;
    /** The status flags of the OK or EOF that ended the reply, -1 until one did. */
    int status = -1;

    void clear() {
      rows = -1;
      rowsDone = false;
      status = -1;
      type = null;
      record.clear();
      responseStarted = false;
      errorCode = -1;
      sqlState = null;
    }
  }

  private final ProfileRecorder recorder;
  /** This connection's part in captures (null: capture is off on this proxy). */
  private io.wireadvisor.capture.CaptureSession capture;
  /** The recording rules both collectors share: this tracker only finds the bytes. */
  private final WireSession session;
  /** The record of a command without a reply (COM_STMT_CLOSE, SEND_LONG_DATA, QUIT), reused. */
  private final io.wireadvisor.command.CommandRecord noReply =
      new io.wireadvisor.command.CommandRecord();
  /** A text's shape: the recorder's, from the text decoded (UTF-8, see QueryPacket). */
  private final io.wireadvisor.command.CommandRecord.Shapes shapes = this::textShape;
  private final Consumer<String> serverVersionListener;
  /** Told the client's kept connection attributes ({@link ClientAttributes}) at its login. */
  private java.util.function.Function<java.util.Map<String, String>, String> clientListener =
      attributes -> null;
  private final ProxyStats stats;
  /** The attributes of a client that sent no name, until its first command; else null. */
  private java.util.Map<String, String> unnamed;

  private Phase phase = Phase.GREETING;
  private int serverCapabilities;
  private int clientCapabilities;
  private boolean deprecateEof;
  private boolean queryAttributes;
  private boolean optionalMetadata;

  // Client side.
  private int clientExpectedSeq;
  private boolean clientInLocalInfile;
  private boolean clientInAuth;
  /** The length of the client packet being read (for a refusal of one that streams). */
  private int clientLength;

  // Pending commands, oldest first; grows (to MAX_PIPELINED) only for clients that pipeline.
  private Pending[] ring = new Pending[4];
  private int ringHead;
  private int ringSize;

  // Response side (for the oldest pending command).
  private Expect expect;
  private long remainingDefs;
  private int preparedColumns;
  private boolean preparedMetadata;
  private int serverNextSeq;

  /** See {@link WireSession#STATEMENT_ENTRY_BYTES}. */
  static final long STATEMENT_ENTRY_BYTES = WireSession.STATEMENT_ENTRY_BYTES;
  /** See {@link WireSession#USED_SHAPE_ENTRY_BYTES}. */
  static final long USED_SHAPE_ENTRY_BYTES = WireSession.USED_SHAPE_ENTRY_BYTES;

  private final PacketScanner clientScanner;
  private final PacketScanner serverScanner;

  /** The proxy terminates TLS: CLIENT_SSL is offered to clients. */
  private final boolean tlsOffered;
  /** When the proxy talks TLS to the upstream (decided per connection by the greeting). */
  private final UpstreamTls.Mode upstreamMode;
  /** The login phase's guard: which leg is TLS, and no password in clear past a plaintext leg. */
  private final LoginGuard login;
  /** The client sent an SSLRequest; the TLS layer must be started before its next bytes. */
  private boolean startTls;
  /**
   * Added to the sequence id of each client auth packet on its way up (and subtracted from each
   * server auth packet on its way down): each TLS leg counts one SSLRequest the other leg never
   * saw. 0 when both or neither leg is TLS; auth packets are held (and renumbered) otherwise.
   */
  private int authShift;
  /**
   * Set when the client's HandshakeResponse arrived and the upstream leg is TLS: the caller must
   * send {@link #upstreamSslRequest}, start TLS on the upstream channel, then send {@link
   * #upstreamHandshakeResponse}.
   */
  private boolean startUpstreamTls;

  private byte[] upstreamSslRequest;
  private byte[] upstreamHandshakeResponse;


  /**
   * @param serverVersionListener told the server's version string from the greeting, once
   */
  SessionTracker(
      ProfileRecorder recorder, ProxyStats stats, Consumer<String> serverVersionListener) {
    this(recorder, stats, serverVersionListener, false);
  }

  /**
   * @param tlsOffered the proxy terminates client TLS (offers CLIENT_SSL, handles SSLRequest)
   */
  SessionTracker(
      ProfileRecorder recorder,
      ProxyStats stats,
      Consumer<String> serverVersionListener,
      boolean tlsOffered) {
    this(recorder, stats, serverVersionListener, tlsOffered, UpstreamTls.Mode.OFF);
  }

  /**
   * @param tlsOffered the proxy terminates client TLS (offers CLIENT_SSL, handles SSLRequest)
   * @param upstreamMode when the proxy talks TLS to the upstream
   */
  SessionTracker(
      ProfileRecorder recorder,
      ProxyStats stats,
      Consumer<String> serverVersionListener,
      boolean tlsOffered,
      UpstreamTls.Mode upstreamMode) {
    this(recorder, stats, serverVersionListener, tlsOffered, upstreamMode, false);
  }

  /**
   * @param tlsOffered the proxy terminates client TLS (offers CLIENT_SSL, handles SSLRequest)
   * @param upstream when the proxy talks TLS to the upstream, and whether passwords may cross a
   *     plaintext upstream leg when the client's leg is TLS
   */
  SessionTracker(
      ProfileRecorder recorder,
      ProxyStats stats,
      Consumer<String> serverVersionListener,
      boolean tlsOffered,
      UpstreamTls upstream) {
    this(
        recorder, stats, serverVersionListener, tlsOffered, upstream.mode(),
        upstream.plaintextPasswordsAllowed());
  }

  /**
   * @param tlsOffered the proxy terminates client TLS (offers CLIENT_SSL, handles SSLRequest)
   * @param upstreamMode when the proxy talks TLS to the upstream
   * @param plaintextPasswordsAllowed relay logins that carry the password itself (not a
   *     challenge–response) from a TLS client leg over a plaintext upstream leg
   */
  SessionTracker(
      ProfileRecorder recorder,
      ProxyStats stats,
      Consumer<String> serverVersionListener,
      boolean tlsOffered,
      UpstreamTls.Mode upstreamMode,
      boolean plaintextPasswordsAllowed) {
    this(recorder, stats, serverVersionListener, tlsOffered, upstreamMode, plaintextPasswordsAllowed,
        false);
  }

  /**
   * @param tlsOffered the proxy terminates client TLS (offers CLIENT_SSL, handles SSLRequest)
   * @param upstreamMode when the proxy talks TLS to the upstream
   * @param plaintextPasswordsAllowed relay logins that carry the password itself (not a
   *     challenge–response) from a TLS client leg over a plaintext upstream leg
   * @param cleartextAllowed relay them over any plaintext leg ({@code --allow-cleartext-passwords})
   */
  SessionTracker(
      ProfileRecorder recorder,
      ProxyStats stats,
      Consumer<String> serverVersionListener,
      boolean tlsOffered,
      UpstreamTls.Mode upstreamMode,
      boolean plaintextPasswordsAllowed,
      boolean cleartextAllowed) {
    this.tlsOffered = tlsOffered;
    this.upstreamMode = upstreamMode;
    this.login = new LoginGuard(upstreamMode, plaintextPasswordsAllowed, cleartextAllowed);
    this.recorder = recorder;
    this.stats = stats;
    this.session = new WireSession(recorder, stats.statements, null);
    session.limits(
        ProxyLimits.DEFAULT_STATEMENT_BYTES_PER_CONNECTION, ProxyLimits.DEFAULT_STATEMENT_BYTES_TOTAL);
    // The proxy sees no JDBC call: isolation and access mode come from the texts (the greeting
    // tells whether @@transaction_isolation = v is MySQL's next-transaction form).
    session.followTransactionSets(false);
    this.serverVersionListener = serverVersionListener;
    this.clientScanner = new PacketScanner(new ClientSide(), MAX_HANDSHAKE_PACKET);
    this.serverScanner = new PacketScanner(new ServerSide(), MAX_HANDSHAKE_PACKET);
  }

  PacketScanner clientScanner() {
    return clientScanner;
  }

  /**
   * Logged in and nothing awaiting a response: a client that may be idle-closed (also one that
   * stopped in the middle of a command packet, which the server cannot answer either).
   */
  boolean idleBetweenCommands() {
    return phase == Phase.COMMAND && ringSize == 0;
  }

  /** Packet bytes both scanners hold now (heads and held login packets). */
  int heldBytes() {
    return clientScanner.heldBytes() + serverScanner.heldBytes();
  }

  PacketScanner serverScanner() {
    return serverScanner;
  }

  /** True after the server accepted the login; false during the handshake. */
  boolean inCommandPhase() {
    return phase == Phase.COMMAND;
  }

  /**
   * True once, right after the client's SSLRequest was scanned: the caller must put the TLS
   * layer in front of the client channel before handing it any further bytes.
   */
  boolean takeStartTls() {
    boolean start = startTls;
    startTls = false;
    return start;
  }

  /**
   * True once, right after the client's HandshakeResponse was scanned when the upstream leg is
   * TLS: the response was not forwarded; the caller sends {@link #upstreamSslRequest()}, puts
   * the TLS layer in front of the upstream channel, and after its handshake sends {@link
   * #upstreamHandshakeResponse()}. Nothing else may go upstream in between.
   */
  boolean takeStartUpstreamTls() {
    boolean start = startUpstreamTls;
    startUpstreamTls = false;
    return start;
  }

  /** The SSLRequest packet (header included) to send upstream in plaintext; once. */
  byte[] upstreamSslRequest() {
    byte[] b = upstreamSslRequest;
    upstreamSslRequest = null;
    return b;
  }

  /**
   * Registers the client of a login that named none, at its first command ({@code head} that
   * command's first bytes when it is a COM_QUERY, else null): Connector/J without connection
   * attributes by its connect-time comment ({@link ClientAttributes#fromFirstQuery}), any other
   * as a client without a name.
   */
  private void nameUnnamed(byte[] head, int headLength) {
    java.util.Map<String, String> attributes = unnamed;
    unnamed = null;
    if (head != null) {
      int offset = QueryAttributes.sqlOffset(head, headLength, queryAttributes);
      if (offset > 0) {
        java.util.Map<String, String> named = ClientAttributes.fromFirstQuery(
            QueryPacket.sql(head, offset, Math.min(headLength, offset + ClientAttributes.COMMENT_CHARS)));
        if (named != null) {
          java.util.Map<String, String> all = new java.util.TreeMap<>(attributes);
          all.putAll(named);
          attributes = all;
          if (capture != null) {
            capture.driver(named.get("_client_name"), named.get("_client_version"));
          }
        }
      }
    }
    session.client(clientListener.apply(attributes));
  }

  /** Tells {@code listener} the connection attributes each login names (bounded, see there). */
  void clientListener(java.util.function.Function<java.util.Map<String, String>, String> listener) {
    this.clientListener = listener;
  }

  /** The client's HandshakeResponse (header included) to send upstream under TLS; once. */
  byte[] upstreamHandshakeResponse() {
    byte[] b = upstreamHandshakeResponse;
    upstreamHandshakeResponse = null;
    return b;
  }

  /** True once this connection's upstream leg is (to be) TLS. */
  boolean upstreamTls() {
    return login.upstreamTls;
  }

  /**
   * The client's sequence id for the server packet read last (the one being answered in its
   * place by an ERR): auth packets are renumbered while only one leg is TLS.
   */
  int clientSeqOfServerPacket() {
    int shift = phase == Phase.AUTH ? authShift : 0;
    return (serverScanner.currentSeq() - shift) & 0xff;
  }

  /** True until the server's greeting has been seen. */
  boolean awaitingGreeting() {
    return phase == Phase.GREETING;
  }

  /** Commands sent upstream whose response has not fully arrived. */
  int pendingCommands() {
    return ringSize;
  }

  /**
   * The sequence id under which the proxy may send the client an ERR in place of the rest of
   * the current response, or -1 when an ERR cannot be inserted (mid-packet, or no command).
   */
  int errSequenceForClient() {
    if (phase != Phase.COMMAND || ringSize == 0 || !serverScanner.atPacketBoundary()) {
      return -1;
    }
    Pending p = ring[ringHead];
    return ((p.responseStarted ? serverNextSeq : p.lastClientSeq + 1)) & 0xff;
  }

  /**
   * The connection ended. Commands still waiting were sent to the server, so they are counted
   * (untimed). Idempotent.
   */
  void close() {
    if (phase == Phase.CLOSED) {
      return;
    }
    if (unnamed != null) {
      nameUnnamed(null, 0);
    }
    phase = Phase.CLOSED;
    while (ringSize > 0) {
      ring[ringHead].record.unanswered(session);
      pop();
    }
    session.end();
    if (capture != null) {
      capture.close();
    }
    session.release();
  }

  // ---------------------------------------------------------------- client side

  private final class ClientSide implements PacketScanner.Handler {
    @Override
    public boolean holdNextPacket() {
      // A plaintext client's answer to "perform full authentication" is checked whole before
      // any byte of it moves (LoginGuard#checkClientAuthPacket).
      return phase == Phase.HANDSHAKE_RESPONSE
          || (phase == Phase.AUTH && (authShift != 0 || login.checksClientAnswer()));
    }

    /**
     * Guarded ({@link LoginGuard#guardsPasswords()}), every command-phase packet up to the handshake limit
     * is held until it is whole: a COM_CHANGE_USER carries its auth response before its plugin
     * name, so one that arrives in pieces (a TLS record or a client buffer boundary) would
     * otherwise send the password upstream before the name that refuses it is read.
     */
    @Override
    public int holdIfAtMost() {
      return login.guardsPasswords() && (phase == Phase.COMMAND || phase == Phase.OPAQUE) ? MAX_HANDSHAKE_PACKET : 0;
    }

    /**
     * Guarded, a COM_CHANGE_USER too long to hold is refused before any of it moves, and so is
     * a plaintext client's answer to a full-authentication request.
     */
    @Override
    public void streaming(int firstPayloadByte) throws ProtocolException {
      if ((phase == Phase.AUTH || (phase == Phase.COMMAND && clientInAuth))
          && login.checksClientAnswer()) {
        login.checkClientAuthPacket(clientLength, new byte[0], 0, false);
      }
      boolean commandStart =
          (phase == Phase.OPAQUE || (phase == Phase.COMMAND && !clientInAuth && !clientInLocalInfile))
              && clientScanner.currentSeq() == 0;
      if (login.guardsPasswords() && commandStart
          && CommandType.fromCode((byte) firstPayloadByte) == CommandType.CHANGE_USER) {
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "a COM_CHANGE_USER longer than " + MAX_HANDSHAKE_PACKET + " bytes: its authentication"
                + " plugin cannot be checked before its auth response would move, and it would"
                + " cross " + login.plaintextLeg() + ", so it is refused." + login.remedy());
      }
    }

    @Override
    public int begin(int length, int seq, boolean continuation) throws ProtocolException {
      clientLength = length;
      switch (phase) {
        case GREETING:
          throw ProtocolException.outOfOrder("client sent data before the server's greeting");
        case HANDSHAKE_RESPONSE:
          return length;
        case COMMAND:
          break;
        case OPAQUE:
          // Still guarded: the command byte tells a COM_CHANGE_USER (see packet()).
          return login.guardsPasswords() && !continuation && seq == 0 ? 1 : 0;
        default:
          return 0;
      }
      if (clientInAuth) {
        return 0; // COM_CHANGE_USER's auth exchange: the server checks it
      }
      if (continuation || clientInLocalInfile) {
        if (seq != clientExpectedSeq) {
          throw ProtocolException.outOfOrder(
              "packet sequence id " + seq + " where " + clientExpectedSeq + " was expected");
        }
        return 0;
      }
      if (seq != 0) {
        throw ProtocolException.outOfOrder("command packet with sequence id " + seq + ", not 0");
      }
      if (length == 0) {
        throw ProtocolException.malformed("empty command packet");
      }
      return Math.min(length, SQL_CAPTURE_LIMIT);
    }

    @Override
    public int packet(int length, int seq, boolean continuation, byte[] head, int headLength)
        throws ProtocolException {
      switch (phase) {
        case HANDSHAKE_RESPONSE:
          return handshakeResponse(length, seq, head);
        case COMMAND:
          break;
        case OPAQUE:
          if (login.guardsPasswords() && !continuation && seq == 0 && headLength > 0
              && CommandType.fromCode(head[0]) == CommandType.CHANGE_USER) {
            throw new ProtocolException(
                Packets.ER_ACCESS_DENIED,
                "COM_CHANGE_USER after the proxy stopped following this connection's protocol"
                    + " (replication or a response it could not parse): its authentication"
                    + " plugin cannot be checked, and it would cross " + login.plaintextLeg()
                    + ", so it is refused." + login.remedy());
          }
          return PacketScanner.FORWARD;
        case AUTH:
          login.checkClientAuthPacket(length, head, headLength, headLength == length);
          return PacketScanner.FORWARD;
        default:
          return PacketScanner.FORWARD;
      }
      if (clientInAuth) {
        login.checkClientAuthPacket(length, head, headLength, headLength == length);
        return PacketScanner.FORWARD;
      }
      clientExpectedSeq = (seq + 1) & 0xff;
      if (continuation) {
        if (ringSize > 0 && length < Packets.MAX_CHUNK) {
          ring[(ringHead + ringSize - 1) % ring.length].lastClientSeq = seq;
        }
        return PacketScanner.FORWARD;
      }
      if (clientInLocalInfile) {
        if (length == 0) {
          clientInLocalInfile = false; // end of the file; the server answers OK or ERR
          ring[ringHead].lastClientSeq = seq;
        }
        return PacketScanner.FORWARD;
      }
      command(length, seq, head, headLength);
      return PacketScanner.FORWARD;
    }
  }

  private int handshakeResponse(int length, int seq, byte[] head) throws ProtocolException {
    if (length < 4) {
      throw ProtocolException.malformed("handshake response of " + length + " bytes");
    }
    int caps = Bytes.int32(head, 0);
    if ((caps & Capabilities.CLIENT_SSL) != 0) {
      if (!tlsOffered) {
        throw new ProtocolException(
            Packets.ER_UNKNOWN_ERROR,
            "TLS was requested but this wire-advisor proxy does not terminate TLS (CLIENT_SSL is"
                + " not offered); connect without TLS");
      }
      if (!login.clientTls) {
        if (length != 32) {
          throw ProtocolException.malformed("SSLRequest of " + length + " bytes, not 32");
        }
        // The SSLRequest stays here: client TLS ends at the proxy; the upstream leg has its own.
        startTls = true;
        login.clientTls = true;
        return PacketScanner.DROP_AND_STOP;
      }
      caps &= ~Capabilities.CLIENT_SSL;
    } else if (login.clientTls) {
      throw ProtocolException.malformed("handshake response without CLIENT_SSL after TLS");
    }
    if ((caps & Capabilities.CLIENT_PROTOCOL_41) == 0) {
      throw ProtocolException.malformed("pre-4.1 clients are not supported");
    }
    // Not offered, so a client that sets them anyway would desynchronize framing: clear them.
    caps &= ~(Capabilities.CLIENT_COMPRESS | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM);
    // HandshakeResponse41 starts like an SSLRequest (flags, max packet, charset, 23 zero
    // bytes), then the user name: anything shorter is not a login.
    if (login.upstreamTls && length < 33) {
      throw ProtocolException.malformed("handshake response of " + length + " bytes");
    }
    if (login.guardsPasswords()) {
      // Before anything of this packet moves: it is held whole, and refused here it never leaves.
      String plugin = login.handshakeResponsePlugin(head, length, caps);
      login.refuseUnlessChallengeResponse(plugin, "the client's HandshakeResponse names it");
      login.exchange(plugin);
    }
    java.util.Map<String, String> attributes = ClientAttributes.parse(head, length, caps);
    if (attributes.containsKey("_client_name")) {
      session.client(clientListener.apply(attributes));
    } else {
      unnamed = attributes; // named at the first command: Connector/J may name itself there
    }
    clientCapabilities = caps;
    if (capture != null) {
      capture.schema(LoginGuard.handshakeDatabase(head, length, caps));
      // A capture names the driver its connections run (replay compares it with its own); a
      // Connector/J that sent no attributes names itself at its first query (nameUnnamed).
      if (attributes.containsKey("_client_name")) {
        capture.driver(attributes.get("_client_name"), attributes.get("_client_version"));
      }
    }
    int negotiated = caps & serverCapabilities;
    deprecateEof = (negotiated & Capabilities.CLIENT_DEPRECATE_EOF) != 0;
    queryAttributes = (negotiated & Capabilities.CLIENT_QUERY_ATTRIBUTES) != 0;
    optionalMetadata = (negotiated & Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA) != 0;
    phase = Phase.AUTH;
    authShift = (login.upstreamTls ? 1 : 0) - (login.clientTls ? 1 : 0);
    // Set now, not at the SSLRequest or the greeting: the shift applies from this packet on.
    clientScanner.heldSeqShift(authShift);
    serverScanner.heldSeqShift(-authShift);
    if (!login.upstreamTls) {
      putInt32(head, 0, caps);
      return PacketScanner.FORWARD;
    }
    putInt32(head, 0, caps | Capabilities.CLIENT_SSL);
    int upstreamSeq = (seq + authShift - 1) & 0xff; // the SSLRequest takes the response's place
    byte[] request = new byte[Packets.HEADER_LENGTH + 32];
    putHeader(request, 32, upstreamSeq);
    // The response's first 32 bytes, as a client's own SSLRequest repeats them: flags, max
    // packet, character set and the filler, whose last 4 bytes carry MariaDB's extended
    // capabilities (a MariaDB server reads them from the first packet only: zeroed, the MariaDB
    // mysql CLI got "malformed packet" at its first query over TLS on both legs).
    System.arraycopy(head, 0, request, Packets.HEADER_LENGTH, 32);
    byte[] response = new byte[Packets.HEADER_LENGTH + length];
    putHeader(response, length, upstreamSeq + 1);
    System.arraycopy(head, 0, response, Packets.HEADER_LENGTH, length);
    upstreamSslRequest = request;
    upstreamHandshakeResponse = response;
    startUpstreamTls = true;
    return PacketScanner.DROP_AND_STOP;
  }

  private static void putInt32(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }

  private static void putHeader(byte[] b, int length, int seq) {
    b[0] = (byte) length;
    b[1] = (byte) (length >>> 8);
    b[2] = (byte) (length >>> 16);
    b[3] = (byte) seq;
  }

  private void command(int length, int seq, byte[] head, int headLength)
      throws ProtocolException {
    CommandType type = CommandType.fromCode(head[0]);
    if (io.wireadvisor.command.CommandRecord.lacksStatementId(type, headLength)) {
      throw ProtocolException.malformed(type.wireName() + " without a statement id");
    }
    if (length == Packets.MAX_CHUNK) {
      clientExpectedSeq = (seq + 1) & 0xff; // a continuation chunk follows
    }
    switch (type) {
      case QUIT:
      case STMT_CLOSE:
      case STMT_SEND_LONG_DATA:
        {
          // No reply: recorded as sent, untimed, in the one record these commands need.
          io.wireadvisor.command.CommandRecord r = noReply.begin(session, capture, shapes, type,
              head, headLength, length, System.nanoTime(), queryAttributes);
          r.complete(session, capture, WireSession.NO_ERROR, null, -1, System.nanoTime(), -1, -1);
          if (type == CommandType.STMT_CLOSE && r.shape() == null) {
            stats.closesOfUnknownStatements.increment();
          }
          r.clear();
          return;
        }
      case BINLOG_DUMP:
      case BINLOG_DUMP_GTID:
      case TABLE_DUMP:
      case CONNECT_OUT:
      case DAEMON:
        // Replication streams have no request/response shape to follow.
        session.command(type, -1);
        phase = Phase.OPAQUE;
        return;
      default:
        break;
    }
    if (ringSize == MAX_PIPELINED) {
      throw ProtocolException.malformed(
          "more than " + MAX_PIPELINED + " commands sent without waiting for a response");
    }
    if (ringSize == ring.length) {
      Pending[] bigger = new Pending[ring.length * 2];
      for (int i = 0; i < ringSize; i++) {
        bigger[i] = ring[(ringHead + i) % ring.length];
      }
      ring = bigger;
      ringHead = 0;
    }
    if (type == CommandType.CHANGE_USER && login.guardsPasswords()) {
      String plugin = login.changeUserPlugin(clientCapabilities, head, Math.min(length, headLength), length);
      login.refuseUnlessChallengeResponse(plugin, "the client's COM_CHANGE_USER names it");
      login.exchange(plugin);
    }
    if (unnamed != null) {
      nameUnnamed(type == CommandType.QUERY ? head : null, headLength);
    }
    Pending p = push(type, seq);
    // Decoded once (text offset, statement id, shape); a prepare's text is kept until PREPARE_OK
    // only for a capture (found in review: kept always, 4,000 pipelined 60 KB prepares held
    // 249 MB without any capture).
    p.record.begin(session, capture, shapes, type, head, headLength, length, p.startNanos,
        queryAttributes);
    if (type == CommandType.CHANGE_USER) {
      clientInAuth = true;
    }
    if (ringSize == 1) {
      startResponse(p);
    }
  }

  private Pending push(CommandType type, int seq) {
    int i = (ringHead + ringSize) % ring.length;
    Pending p = ring[i];
    if (p == null) {
      p = new Pending();
      ring[i] = p;
    }
    ringSize++;
    p.type = type;
    p.startNanos = System.nanoTime();
    p.lastClientSeq = seq;
    return p;
  }

  private void pop() {
    ring[ringHead].clear();
    ringHead = (ringHead + 1) % ring.length;
    ringSize--;
  }

  // ---------------------------------------------------------------- server side

  private final class ServerSide implements PacketScanner.Handler {
    @Override
    public boolean holdNextPacket() {
      // Guarded, each server auth packet is checked whole before the client sees any of it,
      // COM_CHANGE_USER's too (a request split across reads would otherwise reach the client in
      // part before the check refuses it).
      if (phase == Phase.COMMAND && ringSize > 0 && expect == Expect.AUTH && login.guardsPasswords()) {
        serverScanner.heldSeqShift(0); // commands are never renumbered
        return true;
      }
      return phase == Phase.GREETING
          || (phase == Phase.AUTH && (authShift != 0 || login.guardsPasswords()));
    }

    @Override
    public int begin(int length, int seq, boolean continuation) {
      return continuation ? 0 : SERVER_CAPTURE;
    }

    @Override
    public int packet(int length, int seq, boolean continuation, byte[] head, int headLength)
        throws ProtocolException {
      serverNextSeq = (seq + 1) & 0xff;
      if (continuation) {
        return PacketScanner.FORWARD;
      }
      switch (phase) {
        case GREETING:
          greeting(length, head);
          break;
        case AUTH:
          login.checkServerAuthPacket(length, head, headLength);
          if (headLength > 0) {
            int first = head[0] & 0xff;
            if (first == Packets.OK || first == Packets.ERR) {
              // OK: logged in; ERR: the server closes the connection next.
              phase = first == Packets.OK ? Phase.COMMAND : Phase.OPAQUE;
              // Sequence ids restart with each command: no renumbering after this packet.
              clientScanner.heldSeqShift(0);
            }
          }
          break;
        case COMMAND:
          if (ringSize > 0) {
            response(length, head, headLength);
          }
          break;
        default:
          break;
      }
      return PacketScanner.FORWARD;
    }
  }


  private void greeting(int length, byte[] head) throws ProtocolException {
    if (length > 0 && (head[0] & 0xff) == Packets.ERR) {
      phase = Phase.OPAQUE; // refused (too many connections...): the client reads why
      return;
    }
    if (length == 0 || head[0] != 10) {
      unreadableGreeting(); // a protocol we do not follow
      return;
    }
    Greeting greeting = Greeting.parse(head, Math.min(length, head.length));
    if (greeting == null) {
      unreadableGreeting();
      return;
    }
    String version = greeting.version();
    int caps = greeting.capabilities();
    boolean serverOffersTls = (caps & Capabilities.CLIENT_SSL) != 0;
    if (upstreamMode.requiresTls() && !serverOffersTls) {
      throw new ProtocolException(
          Packets.ER_UNKNOWN_ERROR,
          "server " + version + " does not offer TLS (no CLIENT_SSL in its greeting) and the"
              + " proxy runs with --upstream-tls " + upstreamMode
              + ": the login is not sent in plaintext");
    }
    // The upstream leg only: what the client is offered depends on client TLS alone.
    login.upstreamTls = upstreamMode != UpstreamTls.Mode.OFF && serverOffersTls;
    login.serverIsTiDB = version.contains("TiDB");
    // MySQL applies SET @@transaction_isolation = v to the next transaction only (its manual); TiDB
    // to the session (measured on v8.4); MariaDB is taken as the session's (not measured).
    session.followTransactionSets(!version.contains("TiDB") && !version.contains("MariaDB"));
    caps &=
        ~(Capabilities.CLIENT_SSL
            | Capabilities.CLIENT_COMPRESS
            | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM);
    if (tlsOffered) {
      caps |= Capabilities.CLIENT_SSL; // offered by the proxy, whatever the upstream offers
    }
    // MariaDB's cached metadata would let it omit column definitions the tracker counts on.
    greeting.rewriteCapabilities(head, caps, Greeting.MARIADB_CLIENT_CACHE_METADATA);
    serverCapabilities = caps;
    phase = Phase.HANDSHAKE_RESPONSE;
    serverVersionListener.accept(version);
  }

  /**
   * A greeting this tracker cannot follow: forwarded unchanged (opaque), unless upstream TLS is
   * required, because the login would then cross the upstream link in plaintext.
   */
  private void unreadableGreeting() throws ProtocolException {
    if (upstreamMode.requiresTls()) {
      throw ProtocolException.malformed(
          "greeting is not a MySQL protocol 10 greeting the proxy can read, so it cannot start"
              + " TLS as --upstream-tls " + upstreamMode + " demands");
    }
    phase = Phase.OPAQUE;
  }

  private void startResponse(Pending p) {
    switch (p.type) {
      case QUERY:
      case STMT_EXECUTE:
      case PROCESS_INFO:
      case UNKNOWN:
        expect = Expect.RESULT;
        break;
      case STMT_FETCH:
        expect = Expect.ROWS;
        break;
      case STMT_PREPARE:
        expect = Expect.PREPARE;
        break;
      case FIELD_LIST:
        expect = Expect.FIELD_LIST;
        break;
      case STATISTICS:
        expect = Expect.ANY_ONE_PACKET;
        break;
      case CHANGE_USER:
        expect = Expect.AUTH;
        break;
      default:
        expect = Expect.SIMPLE;
        break;
    }
  }

  private void response(int length, byte[] head, int headLength) throws ProtocolException {
    Pending p = ring[ringHead];
    p.responseStarted = true;
    int first = headLength > 0 ? head[0] & 0xff : -1;
    if (first == Packets.ERR && p.errorCode < 0) {
      p.errorCode = Replies.errCode(head, headLength);
      p.sqlState = Replies.errSqlState(head, headLength);
    }
    boolean terminator = first == Packets.EOF && length < Packets.MAX_CHUNK;
    switch (expect) {
      case ANY_ONE_PACKET:
        complete(false);
        return;
      case SIMPLE:
        complete(first == Packets.ERR);
        return;
      case AUTH:
        login.checkServerAuthPacket(length, head, headLength); // COM_CHANGE_USER too
        if (first == Packets.OK || first == Packets.ERR) {
          clientInAuth = false;
          if (first == Packets.OK) {
            forgetStatements(); // a new session: the server dropped every prepared statement
          }
          complete(first == Packets.ERR);
        }
        return;
      case RESULT:
        if (first == Packets.OK) {
          p.status = Replies.okStatusOrUnknown(head, headLength);
          serverStatus(Replies.okStatusOrUnknown(head, headLength));
          endOfResult(Replies.okStatus(head, headLength));
        } else if (first == Packets.ERR) {
          complete(true);
        } else if (first == Packets.LOCAL_INFILE) {
          clientInLocalInfile = true;
          clientExpectedSeq = serverNextSeq;
        } else {
          long columns = Bytes.lenenc(head, 0, headLength);
          if (columns <= 0) {
            unparseable();
            return;
          }
          boolean metadata = true;
          int at = Bytes.lenencSize(first);
          if (optionalMetadata && at < headLength) {
            metadata = head[at] != 0;
          }
          remainingDefs = metadata ? columns : 0;
          if (!p.rowsDone) {
            p.rows = Math.max(p.rows, 0);
          }
          expect = remainingDefs > 0 ? Expect.COLUMN_DEFS : afterColumnDefs();
        }
        return;
      case COLUMN_DEFS:
        if (first == Packets.ERR) {
          complete(true);
        } else if (--remainingDefs == 0) {
          expect = afterColumnDefs();
        }
        return;
      case COLUMNS_EOF:
        if (first == Packets.ERR) {
          complete(true);
        } else if ((Replies.eofStatus(head, headLength) & Capabilities.SERVER_STATUS_CURSOR_EXISTS) != 0) {
          // A cursor was opened: no rows now, COM_STMT_FETCH brings them (not counted).
          p.rows = p.rowsDone ? p.rows : -1;
          p.rowsDone = true;
          p.status = Replies.eofStatusOrUnknown(head, headLength);
          serverStatus(Replies.eofStatusOrUnknown(head, headLength));
          endOfResult(Replies.eofStatus(head, headLength));
        } else {
          expect = Expect.ROWS;
        }
        return;
      case ROWS:
        if (terminator) {
          p.status = deprecateEof ? Replies.okStatusOrUnknown(head, headLength)
              : Replies.eofStatusOrUnknown(head, headLength);
          if (!p.rowsDone && (p.status & Capabilities.SERVER_STATUS_CURSOR_EXISTS) != 0
              && p.status >= 0) {
            p.rows = -1; // without EOF packets a cursor's opening ends the column definitions here
          }
          p.rowsDone = true;
          serverStatus(deprecateEof ? Replies.okStatusOrUnknown(head, headLength)
              : Replies.eofStatusOrUnknown(head, headLength));
          endOfResult(deprecateEof ? Replies.okStatus(head, headLength) : Replies.eofStatus(head, headLength));
        } else if (first == Packets.ERR) {
          complete(true); // 0xFF cannot start a row: the statement failed mid-result
        } else if (p.type != CommandType.STMT_FETCH && !p.rowsDone) {
          p.rows++;
        }
        return;
      case PREPARE:
        if (first == Packets.OK && headLength >= Replies.PREPARE_OK_LENGTH) {
          int id = Replies.preparedId(head);
          preparedColumns = Replies.preparedColumns(head);
          int params = Replies.preparedParams(head);
          preparedMetadata = Replies.preparedMetadataFollows(head, headLength, optionalMetadata);
          prepared(id, params, p);
          if (preparedMetadata && params > 0) {
            remainingDefs = params;
            expect = Expect.PREPARE_PARAMS;
          } else {
            startPreparedColumns();
          }
        } else if (first == Packets.ERR) {
          complete(true);
        } else {
          unparseable();
        }
        return;
      case PREPARE_PARAMS:
        if (--remainingDefs == 0) {
          if (deprecateEof) {
            startPreparedColumns();
          } else {
            expect = Expect.PREPARE_PARAMS_EOF;
          }
        }
        return;
      case PREPARE_PARAMS_EOF:
        startPreparedColumns();
        return;
      case PREPARE_COLUMNS:
        if (--remainingDefs == 0) {
          if (deprecateEof) {
            complete(false);
          } else {
            expect = Expect.PREPARE_COLUMNS_EOF;
          }
        }
        return;
      case PREPARE_COLUMNS_EOF:
        complete(false);
        return;
      case FIELD_LIST:
        if (first == Packets.ERR) {
          complete(true);
        } else if (terminator) {
          complete(false);
        }
        return;
      default:
        throw new IllegalStateException(String.valueOf(expect));
    }
  }

  private Expect afterColumnDefs() {
    return deprecateEof ? Expect.ROWS : Expect.COLUMNS_EOF;
  }

  private void startPreparedColumns() {
    if (preparedMetadata && preparedColumns > 0) {
      remainingDefs = preparedColumns;
      expect = Expect.PREPARE_COLUMNS;
    } else {
      complete(false);
    }
  }

  private ProfileRecorder.ShapeHandle textShape(io.wireadvisor.profile.CommandType type, byte[] b,
      int from, int to, io.wireadvisor.sql.Escaping escaping) {
    return recorder.shape(QueryPacket.sql(b, from, to), escaping);
  }

  private void prepared(int id, int params, Pending p) {
    p.record.prepared(session, capture, id, params);
  }

  private void forgetStatements() {
    session.forgetStatements();
    if (capture != null) {
      capture.forgetStatements();
    }
  }

  /** Takes part in {@code c}'s captures from now on (set before the first command). */
  void capture(io.wireadvisor.capture.CaptureSession c) {
    this.capture = c;
  }

  /**
   * The status flags ending a result: they tell the connection's escaping mode, unless a command
   * sent after this one is still waiting (a pipelined SET sql_mode the flags do not know yet).
   */
  private void serverStatus(int status) {
    if (ringSize == 1) {
      session.serverStatus(status);
    }
  }

  private void endOfResult(int status) {
    if ((status & Capabilities.SERVER_MORE_RESULTS_EXISTS) != 0) {
      expect = Expect.RESULT;
    } else {
      complete(false);
    }
  }

  /** The server said something this tracker cannot follow: stop classifying, keep forwarding. */
  private void unparseable() {
    stats.unparseableResponse();
    complete(false);
    phase = Phase.OPAQUE;
  }

  private void complete(boolean error) {
    Pending p = ring[ringHead];
    long now = System.nanoTime();
    // The server's code of the ERR, or ServerError.OTHER when the reply was cut before it.
    int code = !error ? WireSession.NO_ERROR : p.errorCode > 0 ? p.errorCode : ServerError.OTHER;
    p.record.complete(session, capture, code, p.sqlState, now - p.startNanos, now, p.rows,
        p.status);
    if (p.type == CommandType.STMT_PREPARE && error) {
      stats.preparesFailed.increment();
    }
    pop();
    if (ringSize > 0) {
      startResponse(ring[ringHead]);
    }
  }

  /** Bytes this connection's statement map is accounted (see {@link #STATEMENT_ENTRY_BYTES}). */
  long statementBytes() {
    return session.statementBytes();
  }

  /** Per connection and over every connection sharing {@code stats}; see ProxyLimits. */
  void statementLimits(long perConnection, long total) {
    session.limits(perConnection, total);
  }
}
