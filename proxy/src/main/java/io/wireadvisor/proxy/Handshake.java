package io.wireadvisor.proxy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.proxy.SessionTracker.Phase;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.Greeting;

/**
 * The login of one proxied connection, MySQL's connection phase (TiProxy keeps the same in its
 * authenticator, apart from the command processors): the server's greeting (capabilities
 * rewritten: no compression, CLIENT_SSL as the proxy offers it), the client's SSLRequest (client
 * TLS ends at the proxy), the upstream leg's own SSLRequest when the proxy talks TLS to the server,
 * the sequence ids of auth packets renumbered while only one leg is TLS, and, through {@link
 * LoginGuard}, the password guard of every packet that can carry a password: the auth exchange and
 * COM_CHANGE_USER.
 *
 * <pre>
 *  server                    proxy                                  client
 *  greeting ------------> greeting(): caps rewritten  ------------> greeting
 *                          handshakeResponse(): SSLRequest dropped <- SSLRequest  (client TLS)
 *           <------------ HandshakeResponse (caps settled)        <- HandshakeResponse
 *   (upstream TLS: SSLRequest, TLS, then the response: takeStartUpstreamTls())
 *  auth packets <-------> serverAuthPacket() / clientAuthPacket() <-> auth packets
 *  OK / ERR ------------> command phase / opaque  ----------------> OK / ERR
 * </pre>
 *
 * <p>It reads packet heads the scanners hand it and changes the rest of its connection only
 * through {@link Connection}. Not thread-safe: the connection's event loop calls it.
 */
final class Handshake {
  /**
   * What the proxy's configuration says of logins, the same for each of its connections.
   *
   * @param tlsOffered the proxy terminates client TLS (offers CLIENT_SSL, handles SSLRequest)
   * @param upstreamMode when the proxy talks TLS to the upstream
   * @param plaintextPasswordsAllowed relay logins that carry the password itself (not a
   *     challenge–response) from a TLS client leg over a plaintext upstream leg ({@code
   *     --allow-plaintext-upstream-passwords})
   * @param cleartextAllowed relay them over any plaintext leg ({@code --allow-cleartext-passwords})
   */
  record Policy(
      boolean tlsOffered,
      UpstreamTls.Mode upstreamMode,
      boolean plaintextPasswordsAllowed,
      boolean cleartextAllowed) {

    /** The proxy's: TLS offered with a certificate, its upstream TLS and password flags. */
    static Policy of(ProxyConfig config) {
      return new Policy(
          config.tls() != null,
          config.upstreamTls().mode(),
          config.upstreamTls().plaintextPasswordsAllowed(),
          config.cleartextPasswordsAllowed());
    }
  }

  /** What the login reads and changes in the rest of its connection ({@link SessionTracker}). */
  interface Connection {
    Phase phase();

    void phase(Phase phase);

    PacketScanner clientScanner();

    PacketScanner serverScanner();

    /** The greeting named the server (once, before the client answers it). */
    void server(String version);

    /**
     * The client's HandshakeResponse passed the guard: its attributes and database ({@code head},
     * {@code length} bytes) under the capabilities it sends upstream, and those both sides set.
     */
    void client(byte[] head, int length, int clientCapabilities, int negotiated);
  }

  private final Connection connection;
  /** The proxy terminates TLS: CLIENT_SSL is offered to clients. */
  private final boolean tlsOffered;
  /** When the proxy talks TLS to the upstream (decided per connection by the greeting). */
  private final UpstreamTls.Mode upstreamMode;
  /** Which leg is TLS, and no password in clear past a plaintext leg. */
  private final LoginGuard guard;

  private int serverCapabilities;
  /** The capabilities both sides set, once the HandshakeResponse went up. */
  private int negotiated;
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

  Handshake(Policy policy, Connection connection) {
    this.tlsOffered = policy.tlsOffered();
    this.upstreamMode = policy.upstreamMode();
    this.guard =
        new LoginGuard(
            policy.upstreamMode(), policy.plaintextPasswordsAllowed(), policy.cleartextAllowed());
    this.connection = connection;
  }

  /** The password guard, which the command phase asks about COM_CHANGE_USER too. */
  LoginGuard guard() {
    return guard;
  }

  /** CLIENT_DEPRECATE_EOF was negotiated: an OK ends a result set, not an EOF. */
  boolean deprecateEof() {
    return (negotiated & Capabilities.CLIENT_DEPRECATE_EOF) != 0;
  }

  /** CLIENT_OPTIONAL_RESULTSET_METADATA was negotiated. */
  boolean optionalMetadata() {
    return (negotiated & Capabilities.CLIENT_OPTIONAL_RESULTSET_METADATA) != 0;
  }

  /** See {@link SessionTracker#takeStartTls()}. */
  boolean takeStartTls() {
    boolean start = startTls;
    startTls = false;
    return start;
  }

  /** See {@link SessionTracker#takeStartUpstreamTls()}. */
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

  /** The client's HandshakeResponse (header included) to send upstream under TLS; once. */
  byte[] upstreamHandshakeResponse() {
    byte[] b = upstreamHandshakeResponse;
    upstreamHandshakeResponse = null;
    return b;
  }

  /** True once this connection's upstream leg is (to be) TLS. */
  boolean upstreamTls() {
    return guard.upstreamTls;
  }

  /** The client's sequence id of server packet {@code seq}: auth packets are renumbered. */
  int clientSeq(int seq) {
    int shift = connection.phase() == Phase.AUTH ? authShift : 0;
    return (seq - shift) & 0xff;
  }

  // ---------------------------------------------------------------- server side

  /**
   * Hold the server's next packet whole? The greeting (its capabilities are rewritten), auth
   * packets while renumbered or guarded, and, guarded, each packet answering a COM_CHANGE_USER
   * ({@code changeUserReply}): checked whole before the client sees any of it (a request split
   * across reads would otherwise reach the client in part before the check refuses it).
   */
  boolean holdsServerPacket(boolean changeUserReply) {
    Phase phase = connection.phase();
    if (phase == Phase.COMMAND && changeUserReply && guard.guardsPasswords()) {
      connection.serverScanner().heldSeqShift(0); // commands are never renumbered
      return true;
    }
    return phase == Phase.GREETING
        || (phase == Phase.AUTH && (authShift != 0 || guard.guardsPasswords()));
  }

  void greeting(int length, byte[] head) throws ProtocolException {
    if (length > 0 && (head[0] & 0xff) == Packets.ERR) {
      connection.phase(Phase.OPAQUE); // refused (too many connections...): the client reads why
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
    guard.upstreamTls = upstreamMode != UpstreamTls.Mode.OFF && serverOffersTls;
    guard.serverIsTiDB = version.contains("TiDB");
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
    connection.phase(Phase.HANDSHAKE_RESPONSE);
    connection.server(version);
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
    connection.phase(Phase.OPAQUE);
  }

  /** A server packet of the login's auth exchange (after the HandshakeResponse). */
  void serverAuthPacket(int length, byte[] head, int headLength) throws ProtocolException {
    guard.checkServerAuthPacket(length, head, headLength);
    if (headLength > 0) {
      int first = head[0] & 0xff;
      if (first == Packets.OK || first == Packets.ERR) {
        // OK: logged in; ERR: the server closes the connection next.
        connection.phase(first == Packets.OK ? Phase.COMMAND : Phase.OPAQUE);
        // Sequence ids restart with each command: no renumbering after this packet.
        connection.clientScanner().heldSeqShift(0);
      }
    }
  }

  /** A server packet answering a COM_CHANGE_USER: the same guard as the login's. */
  void changeUserReply(int length, byte[] head, int headLength) throws ProtocolException {
    guard.checkServerAuthPacket(length, head, headLength);
  }

  // ---------------------------------------------------------------- client side

  /**
   * Hold the client's next packet whole? The HandshakeResponse, and auth packets while renumbered
   * or while a plaintext client's answer to "perform full authentication" is checked whole before
   * any byte of it moves ({@link LoginGuard#checkClientAuthPacket}).
   */
  boolean holdsClientPacket() {
    Phase phase = connection.phase();
    return phase == Phase.HANDSHAKE_RESPONSE
        || (phase == Phase.AUTH && (authShift != 0 || guard.checksClientAnswer()));
  }

  /**
   * Guarded ({@link LoginGuard#guardsPasswords()}), every command-phase packet up to the handshake
   * limit is held until it is whole: a COM_CHANGE_USER carries its auth response before its
   * plugin name, so one that arrives in pieces (a TLS record or a client buffer boundary) would
   * otherwise send the password upstream before the name that refuses it is read.
   */
  int clientHoldLimit() {
    Phase phase = connection.phase();
    return guard.guardsPasswords() && (phase == Phase.COMMAND || phase == Phase.OPAQUE)
        ? SessionTracker.MAX_HANDSHAKE_PACKET
        : 0;
  }

  /**
   * A client packet of {@code length} bytes that streams (too long to hold): guarded, a
   * COM_CHANGE_USER ({@code commandStart}: the first packet of a command) is refused before any
   * of it moves, and so is a plaintext client's auth packet ({@code inAuth}) that answers a
   * full-authentication request.
   */
  void clientStreaming(boolean inAuth, boolean commandStart, int length, int firstPayloadByte)
      throws ProtocolException {
    if (inAuth && guard.checksClientAnswer()) {
      guard.checkClientAuthPacket(length, new byte[0], 0, false);
    }
    if (guard.guardsPasswords() && commandStart
        && CommandType.fromCode((byte) firstPayloadByte) == CommandType.CHANGE_USER) {
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "a COM_CHANGE_USER longer than " + SessionTracker.MAX_HANDSHAKE_PACKET + " bytes: its"
              + " authentication plugin cannot be checked before its auth response would move,"
              + " and it would cross " + guard.plaintextLeg() + ", so it is refused."
              + guard.remedy());
    }
  }

  /** A client auth packet (the login's or a COM_CHANGE_USER's exchange). */
  void clientAuthPacket(int length, byte[] head, int headLength) throws ProtocolException {
    guard.checkClientAuthPacket(length, head, headLength, headLength == length);
  }

  /**
   * Bytes to capture of a client packet once the connection is opaque: guarded, the command byte
   * (a COM_CHANGE_USER is still refused, see {@link #opaqueClientPacket}).
   */
  int opaqueClientHead(boolean continuation, int seq) {
    return guard.guardsPasswords() && !continuation && seq == 0 ? 1 : 0;
  }

  /** A client packet once the connection is opaque: guarded, COM_CHANGE_USER is refused. */
  void opaqueClientPacket(boolean continuation, int seq, byte[] head, int headLength)
      throws ProtocolException {
    if (guard.guardsPasswords() && !continuation && seq == 0 && headLength > 0
        && CommandType.fromCode(head[0]) == CommandType.CHANGE_USER) {
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "COM_CHANGE_USER after the proxy stopped following this connection's protocol"
              + " (replication or a response it could not parse): its authentication"
              + " plugin cannot be checked, and it would cross " + guard.plaintextLeg()
              + ", so it is refused." + guard.remedy());
    }
  }

  /**
   * The client's SSLRequest or HandshakeResponse ({@code head}, held whole): an SSLRequest is
   * dropped (client TLS ends here); a response is checked by the guard, its capabilities settled
   * and rewritten in place, and forwarded, or, when the upstream leg is TLS, kept for {@link
   * #upstreamHandshakeResponse} behind the proxy's own SSLRequest.
   *
   * @return {@link PacketScanner#FORWARD} or {@link PacketScanner#DROP_AND_STOP}
   */
  int handshakeResponse(int length, int seq, byte[] head) throws ProtocolException {
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
      if (!guard.clientTls) {
        if (length != 32) {
          throw ProtocolException.malformed("SSLRequest of " + length + " bytes, not 32");
        }
        // The SSLRequest stays here: client TLS ends at the proxy; the upstream leg has its own.
        startTls = true;
        guard.clientTls = true;
        return PacketScanner.DROP_AND_STOP;
      }
      caps &= ~Capabilities.CLIENT_SSL;
    } else if (guard.clientTls) {
      throw ProtocolException.malformed("handshake response without CLIENT_SSL after TLS");
    }
    if ((caps & Capabilities.CLIENT_PROTOCOL_41) == 0) {
      throw ProtocolException.malformed("pre-4.1 clients are not supported");
    }
    // Not offered, so a client that sets them anyway would desynchronize framing: clear them.
    caps &= ~(Capabilities.CLIENT_COMPRESS | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM);
    // HandshakeResponse41 starts like an SSLRequest (flags, max packet, charset, 23 zero
    // bytes), then the user name: anything shorter is not a login.
    if (guard.upstreamTls && length < 33) {
      throw ProtocolException.malformed("handshake response of " + length + " bytes");
    }
    if (guard.guardsPasswords()) {
      // Before anything of this packet moves: it is held whole, and refused here it never leaves.
      String plugin = guard.handshakeResponsePlugin(head, length, caps);
      guard.refuseUnlessChallengeResponse(plugin, "the client's HandshakeResponse names it");
      guard.exchange(plugin);
    }
    negotiated = caps & serverCapabilities;
    connection.client(head, length, caps, negotiated);
    connection.phase(Phase.AUTH);
    authShift = (guard.upstreamTls ? 1 : 0) - (guard.clientTls ? 1 : 0);
    // Set now, not at the SSLRequest or the greeting: the shift applies from this packet on.
    connection.clientScanner().heldSeqShift(authShift);
    connection.serverScanner().heldSeqShift(-authShift);
    if (!guard.upstreamTls) {
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
}
