package io.wireadvisor.proxy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ServerError;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.QueryAttributes;
import io.wireadvisor.wire.Replies;
import java.util.function.Consumer;

/**
 * The protocol state of one proxied connection, split by concern as TiProxy splits its backend:
 * {@link Handshake} follows the login (greeting, TLS on either leg, the password guard), {@link
 * ResponseReader} reads the server's replies, and this class wires the two, reads the client's
 * commands (the request side), matches every command to its complete response, times it, and
 * records it in the connection's {@link WireSession} (and capture). It sees only packet heads (via
 * two {@link PacketScanner}s), never buffers a payload, and never decides what is forwarded,
 * except that the handshake rewrites capability flags and client packets that break the protocol
 * are rejected.
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

  /** Where the connection is: the login ({@link Handshake}), commands, or past following. */
  enum Phase {
    GREETING,
    HANDSHAKE_RESPONSE,
    AUTH,
    COMMAND,
    /** Replication or an unparseable server answer: bytes still flow, nothing is classified. */
    OPAQUE,
    CLOSED
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
  /** The client's capabilities as sent upstream (COM_CHANGE_USER's layout depends on them). */
  private int clientCapabilities;
  private boolean queryAttributes;

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

  /** See {@link WireSession#STATEMENT_ENTRY_BYTES}. */
  static final long STATEMENT_ENTRY_BYTES = WireSession.STATEMENT_ENTRY_BYTES;
  /** See {@link WireSession#USED_SHAPE_ENTRY_BYTES}. */
  static final long USED_SHAPE_ENTRY_BYTES = WireSession.USED_SHAPE_ENTRY_BYTES;

  private final PacketScanner clientScanner;
  private final PacketScanner serverScanner;
  /** The server's side: the greeting and auth packets to the handshake, then the replies. */
  private final ResponseReader reader;

  /** The login: greeting, SSLRequest, HandshakeResponse, auth exchange, TLS on each leg. */
  private final Handshake handshake;
  /** The login's password guard ({@link Handshake#guard()}), asked about COM_CHANGE_USER too. */
  private final LoginGuard login;

  /**
   * The one constructor: the proxy's ({@link FrontendHandler}, with {@link
   * Handshake.Policy#of(ProxyConfig)}) and the tests' ({@code TrackerHarness}'s) connections.
   *
   * @param recorder the proxy's recorder, shared by its connections
   * @param stats the proxy's counters, and the statement-table budget over all connections
   * @param serverVersionListener told the server's version string from the greeting, once
   * @param policy TLS on either leg, and which logins may carry a password in clear
   */
  SessionTracker(
      ProfileRecorder recorder,
      ProxyStats stats,
      Consumer<String> serverVersionListener,
      Handshake.Policy policy) {
    this.handshake = new Handshake(policy, new Login());
    this.login = handshake.guard();
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
    this.reader = new ResponseReader(handshake, new Reply());
    this.serverScanner = new PacketScanner(reader, MAX_HANDSHAKE_PACKET);
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
    return handshake.takeStartTls();
  }

  /**
   * True once, right after the client's HandshakeResponse was scanned when the upstream leg is
   * TLS: the response was not forwarded; the caller sends {@link #upstreamSslRequest()}, puts
   * the TLS layer in front of the upstream channel, and after its handshake sends {@link
   * #upstreamHandshakeResponse()}. Nothing else may go upstream in between.
   */
  boolean takeStartUpstreamTls() {
    return handshake.takeStartUpstreamTls();
  }

  /** The SSLRequest packet (header included) to send upstream in plaintext; once. */
  byte[] upstreamSslRequest() {
    return handshake.upstreamSslRequest();
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
    return handshake.upstreamHandshakeResponse();
  }

  /** True once this connection's upstream leg is (to be) TLS. */
  boolean upstreamTls() {
    return handshake.upstreamTls();
  }

  /**
   * The client's sequence id for the server packet read last (the one being answered in its
   * place by an ERR): auth packets are renumbered while only one leg is TLS.
   */
  int clientSeqOfServerPacket() {
    return handshake.clientSeq(serverScanner.currentSeq());
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
    return ((p.responseStarted ? reader.nextSeq() : p.lastClientSeq + 1)) & 0xff;
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

  // ---------------------------------------------------------------- login

  /** What the {@link Handshake} reads and changes of this connection, and what it tells it. */
  private final class Login implements Handshake.Connection {
    @Override
    public Phase phase() {
      return phase;
    }

    @Override
    public void phase(Phase next) {
      phase = next;
    }

    @Override
    public PacketScanner clientScanner() {
      return clientScanner;
    }

    @Override
    public PacketScanner serverScanner() {
      return serverScanner;
    }

    @Override
    public void server(String version) {
      // MySQL applies SET @@transaction_isolation = v to the next transaction only (its manual);
      // TiDB to the session (measured on v8.4); MariaDB is taken as the session's (not measured).
      session.followTransactionSets(!version.contains("TiDB") && !version.contains("MariaDB"));
      serverVersionListener.accept(version);
    }

    @Override
    public void client(byte[] head, int length, int caps, int negotiated) {
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
      queryAttributes = (negotiated & Capabilities.CLIENT_QUERY_ATTRIBUTES) != 0;
    }
  }

  // ---------------------------------------------------------------- client side

  private final class ClientSide implements PacketScanner.Handler {
    @Override
    public boolean holdNextPacket() {
      return handshake.holdsClientPacket();
    }

    @Override
    public int holdIfAtMost() {
      return handshake.clientHoldLimit();
    }

    @Override
    public void streaming(int firstPayloadByte) throws ProtocolException {
      boolean commandStart =
          (phase == Phase.OPAQUE || (phase == Phase.COMMAND && !clientInAuth && !clientInLocalInfile))
              && clientScanner.currentSeq() == 0;
      handshake.clientStreaming(
          phase == Phase.AUTH || (phase == Phase.COMMAND && clientInAuth),
          commandStart,
          clientLength,
          firstPayloadByte);
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
          return handshake.opaqueClientHead(continuation, seq);
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
          return handshake.handshakeResponse(length, seq, head);
        case COMMAND:
          break;
        case OPAQUE:
          handshake.opaqueClientPacket(continuation, seq, head, headLength);
          return PacketScanner.FORWARD;
        case AUTH:
          handshake.clientAuthPacket(length, head, headLength);
          return PacketScanner.FORWARD;
        default:
          return PacketScanner.FORWARD;
      }
      if (clientInAuth) {
        handshake.clientAuthPacket(length, head, headLength);
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

  // ---------------------------------------------------------------- replies and recording

  /** What the {@link ResponseReader} tells of the reply to the oldest pending command. */
  private final class Reply implements ResponseReader.Commands {
    @Override
    public Phase phase() {
      return phase;
    }

    @Override
    public boolean waiting() {
      return ringSize > 0;
    }

    @Override
    public void replyPacket(int first, byte[] head, int headLength) {
      Pending p = ring[ringHead];
      p.responseStarted = true;
      if (first == Packets.ERR && p.errorCode < 0) {
        p.errorCode = Replies.errCode(head, headLength);
        p.sqlState = Replies.errSqlState(head, headLength);
      }
    }

    @Override
    public void resultSet() {
      Pending p = ring[ringHead];
      if (!p.rowsDone) {
        p.rows = Math.max(p.rows, 0);
      }
    }

    @Override
    public void row() {
      Pending p = ring[ringHead];
      if (p.type != CommandType.STMT_FETCH && !p.rowsDone) {
        p.rows++;
      }
    }

    @Override
    public void rowsEnded(boolean cursor) {
      Pending p = ring[ringHead];
      if (cursor && !p.rowsDone) {
        p.rows = -1; // COM_STMT_FETCH brings them (not counted)
      }
      p.rowsDone = true;
    }

    @Override
    public void resultEnded(int status) {
      ring[ringHead].status = status;
      serverStatus(status);
    }

    @Override
    public void prepared(int id, int params) {
      SessionTracker.this.prepared(id, params, ring[ringHead]);
    }

    @Override
    public void localInfile(int clientSeq) {
      clientInLocalInfile = true;
      clientExpectedSeq = clientSeq;
    }

    @Override
    public void changeUserEnded(boolean ok) {
      clientInAuth = false;
      if (ok) {
        forgetStatements(); // a new session: the server dropped every prepared statement
      }
    }

    @Override
    public void complete(boolean error) {
      SessionTracker.this.complete(error);
    }

    @Override
    public void unparseable() {
      SessionTracker.this.unparseable();
    }
  }

  private void startResponse(Pending p) {
    reader.expectReplyTo(p.type);
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
