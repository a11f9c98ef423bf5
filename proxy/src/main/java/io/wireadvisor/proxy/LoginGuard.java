package io.wireadvisor.proxy;

import io.wireadvisor.wire.Bytes;

/**
 * The login phase's guard (TiProxy keeps the same in its authenticator, apart from the command
 * processor): which of the proxy's two legs is TLS, and that no authentication exchange carries a
 * password in clear across a plaintext leg, whichever leg that is. It reads the plugin named by
 * the client's HandshakeResponse and COM_CHANGE_USER and by the server's AuthSwitchRequest, the
 * server's AuthMoreData and, when the client's own leg is plaintext, the client's answers to
 * them, and refuses with ERR 1045 what is neither a challenge–response nor caching_sha2_password's
 * RSA public-key exchange. {@link Handshake} follows the login's packets (and {@link
 * SessionTracker} COM_CHANGE_USER's); this decides.
 *
 * <pre>
 *  client leg   upstream leg   what may pass (without --allow-cleartext-passwords)
 *  TLS          TLS            everything (the password is encrypted on both legs)
 *  TLS          plaintext      challenge-response only; "full authentication" refused
 *  plaintext    plaintext      challenge-response; full authentication only as the RSA exchange
 *                              (client 02, server's public key, client's ciphertext)
 *  plaintext    TLS            challenge-response only (the server wants the password in clear)
 * </pre>
 */
final class LoginGuard {
  /** When the proxy talks TLS to the upstream (decided per connection by the greeting). */
  private final UpstreamTls.Mode upstreamMode;
  /** {@code --allow-plaintext-upstream-passwords}: the upstream leg only, client leg TLS. */
  private final boolean plaintextPasswordsAllowed;
  /** {@code --allow-cleartext-passwords}: any plaintext leg may carry a password in clear. */
  private final boolean cleartextAllowed;
  /** TLS is on between client and proxy (the client counted an SSLRequest). */
  boolean clientTls;
  /** TLS is on between proxy and server (the server counts the proxy's SSLRequest). */
  boolean upstreamTls;
  /**
   * The authentication plugin of the exchange under way (login or COM_CHANGE_USER), as named by
   * the client or by the server's last AuthSwitchRequest; followed only while {@link
   * #guardsPasswords()}.
   */
  String authPlugin;
  /**
   * The server is TiDB (its greeting's version says so): it reads caching_sha2_password's full
   * authentication only as the password in clear, with no RSA exchange (TiDB's {@code
   * clientConn.authSha}: "requestRsaPubKey = 2 // Not supported yet"), so a plaintext client is
   * never shown that request: some clients (the MariaDB mysql CLI) would answer it in clear.
   */
  boolean serverIsTiDB;

  /** What the server last asked a plaintext client for: what its next auth packet may be. */
  private enum Asked {
    /** Nothing that a password could answer (a scramble, a fast-path result). */
    NOTHING,
    /** caching_sha2_password full authentication: only 0x02 (send me your public key) passes. */
    FULL_AUTH,
    /** The client asked for the public key; the server's next packet must be it. */
    KEY_REQUESTED,
    /** The server sent its public key: the client's next packet is the RSA ciphertext. */
    CIPHERTEXT
  }

  private Asked asked = Asked.NOTHING;

  LoginGuard(UpstreamTls.Mode upstreamMode, boolean plaintextPasswordsAllowed) {
    this(upstreamMode, plaintextPasswordsAllowed, false);
  }

  LoginGuard(UpstreamTls.Mode upstreamMode, boolean plaintextPasswordsAllowed, boolean cleartextAllowed) {
    this.upstreamMode = upstreamMode;
    this.plaintextPasswordsAllowed = plaintextPasswordsAllowed;
    this.cleartextAllowed = cleartextAllowed;
  }

  /**
   * Authentication plugins whose exchange never carries the password itself, only a proof
   * computed from it and the server's fresh scramble: relayed over a plaintext leg. {@code
   * caching_sha2_password} is here for its fast path; its full authentication (AuthMoreData
   * 0x04), which a client under TLS answers with the password itself, is refused from a TLS
   * client over a plaintext upstream, and passes a plaintext client only as the RSA public-key
   * exchange. MariaDB's {@code client_ed25519} signs the scramble. Everything else is refused
   * while {@link #guardsPasswords()}: {@code mysql_clear_password} (also what LDAP simple, PAM
   * and TiDB's {@code tidb_auth_token} use on the client), {@code sha256_password} and {@code
   * tidb_sm3_password} (the password in clear over TLS), MariaDB's {@code dialog} (PAM prompts
   * answered in clear), {@code mysql_old_password}, and any plugin the proxy does not know.
   */
  static final java.util.Set<String> CHALLENGE_RESPONSE_PLUGINS =
      java.util.Set.of("mysql_native_password", "caching_sha2_password", "client_ed25519");

  private static final String CACHING_SHA2 = "caching_sha2_password";

  /** The smallest RSA ciphertext a client sends (a 512-bit key; servers use 2048 and more). */
  static final int MIN_RSA_CIPHERTEXT = 64;

  /**
   * True when a password sent in clear would cross a plaintext leg and no flag allows it: the
   * client's own leg is plaintext, or it is TLS and the upstream's is not (then {@code
   * --allow-plaintext-upstream-passwords} allows it too). The authentication plugin is then
   * followed through every place it can be named and only {@link #CHALLENGE_RESPONSE_PLUGINS}
   * pass. Only with TLS on both legs, or {@code --allow-cleartext-passwords}, is everything
   * relayed.
   */
  boolean guardsPasswords() {
    if (cleartextAllowed) {
      return false;
    }
    return !clientTls || (!upstreamTls && !plaintextPasswordsAllowed);
  }

  /** A new exchange starts (HandshakeResponse, COM_CHANGE_USER) with the plugin it names. */
  void exchange(String plugin) {
    authPlugin = plugin;
    asked = Asked.NOTHING;
  }

  /**
   * Refuses, with ERR 1045 to the client and the upstream closed, an authentication plugin that
   * is not a challenge–response while {@link #guardsPasswords()}.
   *
   * @param where which packet named it, for the message
   */
  void refuseUnlessChallengeResponse(String plugin, String where)
      throws ProtocolException {
    if (CHALLENGE_RESPONSE_PLUGINS.contains(plugin)) {
      return;
    }
    throw new ProtocolException(
        Packets.ER_ACCESS_DENIED,
        "authentication plugin '" + plugin + "' (" + where + ") is not a challenge-response"
            + " the proxy knows (" + String.join(", ", challengeResponseNames()) + "): it may"
            + " send the password itself, which would cross " + plaintextLeg() + ", so the"
            + " login is refused and nothing of it is relayed." + remedy());
  }

  /** The TLS-client, plaintext-upstream remedy (kept for the messages that name it alone). */
  static final String SEND_IT_OVER_TLS =
      " Run the proxy with --upstream-tls required so it crosses TLS, or,"
          + " only if the path to the server is trusted, --allow-plaintext-upstream-passwords";

  private static final String CLIENT_TLS_REMEDY =
      " Connect to the proxy with TLS (it offers TLS: Connector/J sslMode=REQUIRED, mysql --ssl,"
          + " PyMySQL ssl={...}) and run it with --upstream-tls required, or, only if every path"
          + " is trusted, with --allow-cleartext-passwords";

  /** What to do about a refusal, for the leg that is plaintext. */
  String remedy() {
    return clientTls ? SEND_IT_OVER_TLS : CLIENT_TLS_REMEDY;
  }

  /** The plaintext leg a clear password would cross, for messages. */
  String plaintextLeg() {
    return clientTls
        ? "the proxy's plaintext upstream connection" + upstreamPlaintextReason()
        : "this client's plaintext connection to the proxy"
            + (upstreamTls ? "" : " and the proxy's plaintext upstream connection"
                + upstreamPlaintextReason());
  }

  private static java.util.List<String> challengeResponseNames() {
    return java.util.List.of("mysql_native_password", "caching_sha2_password fast path", "client_ed25519");
  }

  String upstreamPlaintextReason() {
    return upstreamMode == UpstreamTls.Mode.OFF
        ? " (--upstream-tls off)"
        : " (the server's greeting did not offer TLS and --upstream-tls is " + upstreamMode + ")";
  }

  /**
   * Checks each server packet of an authentication exchange (login or COM_CHANGE_USER), before
   * it reaches the client.
   *
   * <ul>
   *   <li>While {@link #guardsPasswords()}, an AuthSwitchRequest must name a challenge–response
   *       plugin (a switch to {@code mysql_clear_password} or {@code dialog} is refused before
   *       the client answers it), and what else the server may send is an allowlist: OK, ERR,
   *       and AuthMoreData only from {@code caching_sha2_password}: its fast-path success (0x01
   *       0x03); with a plaintext client and upstream, its "perform full authentication" (0x01
   *       0x04), whose answer {@link #checkClientAuthPacket} then checks, and the public key the
   *       client asked for. A TLS client answers full authentication with its password in
   *       clear: over a plaintext upstream it is refused.
   *   <li>Plaintext client, TLS upstream: the client would RSA-encrypt (or ask for the server's
   *       public key) where the server reads a clear password: the login cannot succeed, so it
   *       is refused with the reason instead of the server's bare "access denied".
   * </ul>
   */
  void checkServerAuthPacket(int length, byte[] head, int headLength)
      throws ProtocolException {
    if (!guardsPasswords()) {
      if (!clientTls && upstreamTls) {
        refuseRsaOverTlsUpstream(length, head, headLength); // cannot work
      }
      return;
    }
    if (headLength == 0) {
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "the server sent an empty authentication packet, which a challenge-response exchange"
              + " has no place for; the client's answer could carry the password over "
              + plaintextLeg() + "." + remedy());
    }
    if (!clientTls && upstreamTls) {
      refuseRsaOverTlsUpstream(length, head, headLength); // says why it cannot work
    }
    int first = head[0] & 0xff;
    if (first == Packets.EOF) {
      String plugin = authSwitchPlugin(length, head, headLength);
      refuseUnlessChallengeResponse(plugin, "the server's AuthSwitchRequest asks for it");
      authPlugin = plugin;
      asked = Asked.NOTHING; // the client answers with a proof over the new scramble
      return;
    }
    if (first == Packets.OK || first == Packets.ERR) {
      asked = Asked.NOTHING;
      return;
    }
    if (first != Packets.AUTH_MORE_DATA) {
      // An allowlist, not a list of known dangers: a packet the exchange has no place for may
      // be read by some client as "send your password" (libmysqlclient takes a bare 0x04 so).
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "the server sent an authentication packet (first byte 0x" + Integer.toHexString(first)
              + ", " + length + " bytes) that a challenge-response exchange has no place for;"
              + " the client's answer could carry the password over " + plaintextLeg() + "."
              + remedy());
    }
    boolean sha2 = CACHING_SHA2.equals(authPlugin);
    if (sha2 && length == 2 && headLength >= 2 && head[1] == 0x03) {
      asked = Asked.NOTHING;
      return; // caching_sha2_password's fast path succeeded; OK follows
    }
    boolean fullAuth = headLength >= 2 && head[1] == 0x04; // 0x01 0x04 …: the same to Connector/J
    if (clientTls && fullAuth) {
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "the server asks for the password in full (caching_sha2_password full"
              + " authentication), which would cross " + plaintextLeg() + "; "
              + (serverIsTiDB ? "" : "log in once without TLS (fills the server's cache for fast"
                  + " authentication), ")
              + "use mysql_native_password, or:" + remedy());
    }
    if (!clientTls && sha2 && fullAuth && serverIsTiDB) {
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          // Under 512 bytes with the proxy's prefix: the mysql CLI cuts messages there.
          "TiDB asks for the full password (caching_sha2_password) and reads it only in clear"
              + " (no RSA exchange); it would cross " + plaintextLeg() + ". Connect to the proxy"
              + " with TLS and run it with --upstream-tls preferred or required, use"
              + " mysql_native_password, or, only if every path is trusted,"
              + " --allow-cleartext-passwords");
    }
    if (!clientTls && sha2 && fullAuth && asked == Asked.NOTHING) {
      asked = Asked.FULL_AUTH; // relayed; the client's answer is checked
      return;
    }
    if (!clientTls && sha2 && asked == Asked.KEY_REQUESTED && headLength >= 6
        && head[1] == '-' && head[2] == '-' && head[3] == '-' && head[4] == '-' && head[5] == '-') {
      asked = Asked.CIPHERTEXT; // the PEM public key the client asked for
      return;
    }
    throw new ProtocolException(
        Packets.ER_ACCESS_DENIED,
        "the server sent more authentication data (AuthMoreData, " + length + " bytes) for"
            + " plugin '" + authPlugin + "' other than caching_sha2_password's fast-path"
            + " success (0x01 0x03)"
            + (clientTls ? "" : ", its full-authentication request (0x01 0x04) or the public key"
                + " the client asked for")
            + ", the only such steps the proxy relays; the client's answer could carry the"
            + " password over " + plaintextLeg() + "." + remedy());
  }

  /**
   * With a plaintext client leg, checks each of the client's auth packets after the
   * HandshakeResponse (or COM_CHANGE_USER) before any byte of it moves: after "perform full
   * authentication" only the request for the server's public key (the single byte 0x02) passes,
   * and after the public key only a ciphertext (at least {@value #MIN_RSA_CIPHERTEXT} bytes).
   * Anything else there is the password in clear (NUL-terminated) or a ciphertext made with a
   * key the client had beforehand, which the proxy cannot tell from it: refused with ERR 1045,
   * nothing of it relayed. Answers to a scramble (a challenge–response proof) pass.
   *
   * @param whole false when the packet streams (too long to hold): only a scramble's answer may
   */
  void checkClientAuthPacket(int length, byte[] head, int headLength, boolean whole)
      throws ProtocolException {
    if (!guardsPasswords() || clientTls) {
      return; // a TLS client: what the server may ask it is checked on the server's side
    }
    switch (asked) {
      case FULL_AUTH:
        if (whole && length == 1 && headLength == 1 && head[0] == 0x02) {
          asked = Asked.KEY_REQUESTED;
          return;
        }
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "this client's connection to the proxy is plaintext and it answered the server's"
                + " request for its full password (caching_sha2_password full authentication)"
                + " with " + length + " bytes, not with a request for the server's RSA public"
                + " key (the byte 0x02): that is the password in clear (or encrypted with a key"
                + " the client had, which the proxy cannot tell apart), so it is not relayed"
                + (upstreamTls ? "" : " over the proxy's plaintext upstream connection"
                    + upstreamPlaintextReason())
                + ". Let the client retrieve the key (Connector/J allowPublicKeyRetrieval=true)"
                + " or:" + remedy());
      case CIPHERTEXT:
        if (whole && length >= MIN_RSA_CIPHERTEXT) {
          asked = Asked.NOTHING;
          return;
        }
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "this client's connection to the proxy is plaintext and it answered the server's"
                + " public key with " + length + " bytes, too short for an RSA ciphertext: it"
                + " is not relayed." + remedy());
      case KEY_REQUESTED:
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "this client's connection to the proxy is plaintext and it sent another"
                + " authentication packet (" + length + " bytes) before the server's public"
                + " key arrived: it is not relayed." + remedy());
      default:
        return;
    }
  }

  /** True while a plaintext client's next auth packet must be held whole and checked. */
  boolean checksClientAnswer() {
    return guardsPasswords() && !clientTls && asked != Asked.NOTHING;
  }

  /**
   * Plaintext client, TLS upstream: over TLS the server reads the password in full only in
   * clear, while a client whose own connection is plaintext sends it RSA-encrypted: full
   * authentication and {@code sha256_password} cannot succeed and are refused with the reason.
   */
  private void refuseRsaOverTlsUpstream(int length, byte[] head, int headLength)
      throws ProtocolException {
    if (headLength == 0) {
      return;
    }
    int first = head[0] & 0xff;
    boolean fullAuth =
        length == 2 && headLength >= 2 && first == Packets.AUTH_MORE_DATA && head[1] == 0x04;
    String plugin = first == Packets.EOF ? authSwitchPlugin(length, head, headLength) : null;
    if (fullAuth || "sha256_password".equals(plugin)) {
      String what = fullAuth ? "caching_sha2_password full authentication" : plugin;
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "the server asks for the password in full (" + what + ") and, as the proxy's"
              + " upstream connection is TLS, accepts it only in clear, but this client's"
              + " connection to the proxy is plaintext, so it would send it RSA-encrypted;"
              + " connect to the proxy with TLS (it offers TLS), "
              + (serverIsTiDB ? "" : "log in once elsewhere (fills the server's cache for fast"
                  + " authentication) ")
              + "or use mysql_native_password");
    }
  }

  /**
   * The plugin an AuthSwitchRequest (0xFE) names; {@code mysql_old_password} for the bare 0xFE
   * of pre-4.1 servers; a name that does not end within the captured head is reported as
   * truncated (and so matches no known plugin).
   */
  private static String authSwitchPlugin(int length, byte[] head, int headLength) {
    if (length == 1) {
      return "mysql_old_password";
    }
    int limit = Math.min(length, headLength);
    int end = 1;
    while (end < limit && head[end] != 0) {
      end++;
    }
    String name = QueryPacket.sql(head, 1, end);
    return end < limit || end == length ? name : name + "...(truncated)";
  }

  /** The client plugin a HandshakeResponse41 names (held whole: {@code head} is the payload). */
  String handshakeResponsePlugin(byte[] head, int length, int caps) {
    if ((caps & Capabilities.CLIENT_PLUGIN_AUTH) == 0) {
      return "mysql_native_password"; // the 4.1 scramble: what servers assume without a name
    }
    int p = 32; // flags, max packet, charset, 23 filler bytes
    p = skipNul(head, p, length); // user name
    if (p < 0) {
      return "(unreadable)";
    }
    if ((caps & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
      if (p >= length) {
        return "(unreadable)";
      }
      int size = Bytes.lenencSize(head[p] & 0xff);
      long n = size < 0 || p + size > length ? -1 : Bytes.lenenc(head, p, length);
      if (n < 0 || n > length) {
        return "(unreadable)";
      }
      p += size + (int) n;
    } else if ((caps & CLIENT_SECURE_CONNECTION) != 0) {
      if (p >= length) {
        return "(unreadable)";
      }
      p += 1 + (head[p] & 0xff);
    } else {
      p = skipNul(head, p, length);
    }
    if ((caps & Capabilities.CLIENT_CONNECT_WITH_DB) != 0) {
      p = skipNul(head, p, length);
    }
    return pluginNameAt(head, p, length, length);
  }

  /**
   * The client plugin a COM_CHANGE_USER names: command, user, auth response (length-prefixed with
   * CLIENT_SECURE_CONNECTION), database, character set (2), then the plugin name with
   * CLIENT_PLUGIN_AUTH.
   */
  String changeUserPlugin(int clientCapabilities, byte[] head, int limit, int length) {
    int p = skipNul(head, 1, limit); // user
    if (p < 0) {
      return "(unreadable)";
    }
    if ((clientCapabilities & CLIENT_SECURE_CONNECTION) != 0) {
      if (p >= limit) {
        return "(unreadable)";
      }
      p += 1 + (head[p] & 0xff);
    } else {
      p = skipNul(head, p, limit);
    }
    p = skipNul(head, p, limit); // database
    if (p < 0) {
      return "(unreadable)";
    }
    if (p == limit || (clientCapabilities & Capabilities.CLIENT_PLUGIN_AUTH) == 0) {
      return "mysql_native_password"; // nothing after the database: the 4.1 scramble
    }
    return pluginNameAt(head, p + 2, limit, length);
  }

  /**
   * A NUL-terminated (or packet-terminated) plugin name at {@code p}. A packet that ends before
   * it, though the client announced one (CLIENT_PLUGIN_AUTH), is not guessed at: whatever its
   * auth response holds, it gets a name that matches no known plugin; so does a name cut off
   * where the captured head ({@code limit}) ends before the packet ({@code length}).
   */
  private static String pluginNameAt(byte[] head, int p, int limit, int length) {
    if (p < 0 || p > limit) {
      return "(unreadable)";
    }
    if (p == limit) {
      return "(no name, though CLIENT_PLUGIN_AUTH announces one)";
    }
    int end = p;
    while (end < limit && head[end] != 0) {
      end++;
    }
    String name = QueryPacket.sql(head, p, end);
    return end == limit && limit < length ? name + "...(truncated)" : name;
  }

  /** The index after the NUL ending the string at {@code p}, or -1 when none is within limit. */
  /**
   * The database a HandshakeResponse41 names (CLIENT_CONNECT_WITH_DB), or null: walks past the
   * user name and the auth response (never kept) to the database field.
   */
  static String handshakeDatabase(byte[] head, int length, int caps) {
    if ((caps & Capabilities.CLIENT_CONNECT_WITH_DB) == 0 || length < 33) {
      return null;
    }
    int p = skipNul(head, 32, length); // user name
    if (p < 0 || p >= length) {
      return null;
    }
    if ((caps & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
      int size = Bytes.lenencSize(head[p] & 0xff);
      long n = size < 0 || p + size > length ? -1 : Bytes.lenenc(head, p, length);
      if (n < 0 || n > length) {
        return null;
      }
      p += size + (int) n;
    } else if ((caps & CLIENT_SECURE_CONNECTION) != 0) {
      p += 1 + (head[p] & 0xff);
    } else {
      p = skipNul(head, p, length);
    }
    if (p < 0 || p >= length) {
      return null;
    }
    int end = skipNul(head, p, length);
    int stop = end < 0 ? length : end - 1;
    return stop > p ? new String(head, p, stop - p, java.nio.charset.StandardCharsets.UTF_8) : null;
  }

  private static int skipNul(byte[] head, int p, int limit) {
    if (p < 0) {
      return -1;
    }
    while (p < limit && head[p] != 0) {
      p++;
    }
    return p < limit ? p + 1 : -1;
  }

  private static final int CLIENT_SECURE_CONNECTION = 1 << 15;
  private static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;
}
