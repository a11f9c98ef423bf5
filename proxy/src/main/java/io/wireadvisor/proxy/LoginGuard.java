package io.wireadvisor.proxy;

import io.wireadvisor.wire.Bytes;

/**
 * The login phase's guard (TiProxy keeps the same in its authenticator, apart from the command
 * processor): which of the proxy's two legs is TLS, and, when only the client's is, that no
 * authentication exchange carries the password itself across the plaintext upstream leg. It reads
 * the plugin named by the client's HandshakeResponse and COM_CHANGE_USER and by the server's
 * AuthSwitchRequest, and the server's AuthMoreData, and refuses with ERR 1045 what is not a
 * challenge–response. {@link SessionTracker} follows the packets; this decides.
 */
final class LoginGuard {
  /** When the proxy talks TLS to the upstream (decided per connection by the greeting). */
  private final UpstreamTls.Mode upstreamMode;
  /** {@code --allow-plaintext-upstream-passwords}: see {@link #guardsPasswords()}. */
  private final boolean plaintextPasswordsAllowed;
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

  LoginGuard(UpstreamTls.Mode upstreamMode, boolean plaintextPasswordsAllowed) {
    this.upstreamMode = upstreamMode;
    this.plaintextPasswordsAllowed = plaintextPasswordsAllowed;
  }

  /**
   * Authentication plugins whose exchange never carries the password itself, only a proof
   * computed from it and the server's fresh scramble: relayed over a plaintext upstream leg even
   * when the client's leg is TLS. {@code caching_sha2_password} is here for its fast path only;
   * its full authentication (AuthMoreData 0x04) sends the password and is refused separately.
   * MariaDB's {@code client_ed25519} signs the scramble. Everything else is refused while {@link
   * #guardsPasswords()}: {@code mysql_clear_password} (also what LDAP simple, PAM and TiDB's
   * {@code tidb_auth_token} use on the client), {@code sha256_password} and {@code
   * tidb_sm3_password} (the password in clear over TLS), MariaDB's {@code dialog} (PAM prompts
   * answered in clear), {@code mysql_old_password}, and any plugin the proxy does not know.
   */
  static final java.util.Set<String> CHALLENGE_RESPONSE_PLUGINS =
      java.util.Set.of("mysql_native_password", "caching_sha2_password", "client_ed25519");

  private static final String CACHING_SHA2 = "caching_sha2_password";

  /**
   * True when a password sent in clear by the client would be protected on the client's leg
   * (TLS) but not on the upstream leg (plaintext) and the user did not allow that: the
   * authentication plugin is then followed through every place it can be named and only
   * {@link #CHALLENGE_RESPONSE_PLUGINS} pass. With both legs plaintext the password already
   * crossed the network in clear, the user's own choice: relayed.
   */
  boolean guardsPasswords() {
    return clientTls && !upstreamTls && !plaintextPasswordsAllowed;
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
            + " send the password itself, which would cross the proxy's plaintext upstream"
            + " connection" + upstreamPlaintextReason() + ", so the login is refused and"
            + " nothing of it is relayed." + SEND_IT_OVER_TLS);
  }

  static final String SEND_IT_OVER_TLS =
      " Run the proxy with --upstream-tls required so it crosses TLS, or,"
          + " only if the path to the server is trusted, --allow-plaintext-upstream-passwords";

  private static java.util.List<String> challengeResponseNames() {
    return java.util.List.of("mysql_native_password", "caching_sha2_password fast path", "client_ed25519");
  }

  String upstreamPlaintextReason() {
    return upstreamMode == UpstreamTls.Mode.OFF
        ? " (--upstream-tls off)"
        : " (the server's greeting did not offer TLS and --upstream-tls is " + upstreamMode + ")";
  }

  /**
   * Checks each server packet of an authentication exchange (login or COM_CHANGE_USER) when the
   * two legs differ in TLS, before it reaches the client.
   *
   * <ul>
   *   <li>Client TLS, plaintext upstream ({@link #guardsPasswords()}): an AuthSwitchRequest must
   *       name a challenge–response plugin (a switch to {@code mysql_clear_password} or {@code
   *       dialog} is refused before the client answers it); AuthMoreData is expected only from
   *       {@code caching_sha2_password}, and its "perform full authentication" (0x04), which the
   *       client answers with its password in clear, is refused. The client never sends the
   *       password: it is refused the request for it.
   *   <li>Plaintext client, TLS upstream: the client would RSA-encrypt (or ask for the server's
   *       public key) where the server reads a clear password: the login cannot succeed, so it
   *       is refused with the reason instead of the server's bare "access denied".
   * </ul>
   *
   * With both legs TLS, or neither, both ends agree and everything passes through.
   */
  void checkServerAuthPacket(int length, byte[] head, int headLength)
      throws ProtocolException {
    if (clientTls == upstreamTls) {
      return;
    }
    if (headLength == 0) {
      if (guardsPasswords()) {
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "the server sent an empty authentication packet, which a challenge-response exchange"
                + " has no place for; the client's answer could carry the password over the"
                + " proxy's plaintext upstream connection" + upstreamPlaintextReason() + "."
                + SEND_IT_OVER_TLS);
      }
      return;
    }
    int first = head[0] & 0xff;
    boolean fullAuth = length == 2 && headLength >= 2 && first == Packets.AUTH_MORE_DATA && head[1] == 0x04;
    String plugin = null;
    if (first == Packets.EOF) {
      plugin = authSwitchPlugin(length, head, headLength);
    }
    if (guardsPasswords()) {
      if (plugin != null) {
        refuseUnlessChallengeResponse(plugin, "the server's AuthSwitchRequest asks for it");
        authPlugin = plugin;
      } else if (first == Packets.OK || first == Packets.ERR) {
        return;
      } else if (first != Packets.AUTH_MORE_DATA) {
        // An allowlist, not a list of known dangers: a packet the exchange has no place for may
        // be read by some client as "send your password" (libmysqlclient takes a bare 0x04 so).
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "the server sent an authentication packet (first byte 0x" + Integer.toHexString(first)
                + ", " + length + " bytes) that a challenge-response exchange has no place for;"
                + " the client's answer could carry the password over the proxy's plaintext"
                + " upstream connection" + upstreamPlaintextReason() + "." + SEND_IT_OVER_TLS);
      } else {
        if (length == 2 && headLength >= 2 && head[1] == 0x03 && CACHING_SHA2.equals(authPlugin)) {
          return; // caching_sha2_password's fast path succeeded; OK follows
        }
        if (headLength >= 2 && head[1] == 0x04) {
          // 0x01 0x04 with anything after it is the same request to Connector/J.
          throw new ProtocolException(
              Packets.ER_ACCESS_DENIED,
              "the server asks for the password in full (caching_sha2_password full"
                  + " authentication), which would cross the proxy's plaintext upstream"
                  + " connection" + upstreamPlaintextReason() + "; log in once without TLS"
                  + " (fills the server's cache for fast authentication), use"
                  + " mysql_native_password, or:" + SEND_IT_OVER_TLS);
        }
        throw new ProtocolException(
            Packets.ER_ACCESS_DENIED,
            "the server sent more authentication data (AuthMoreData, " + length + " bytes) for"
                + " plugin '" + authPlugin + "' other than caching_sha2_password's fast-path"
                + " success (0x01 0x03), the only such step the proxy relays; the client's"
                + " answer could carry the password over the proxy's plaintext upstream"
                + " connection" + upstreamPlaintextReason() + "." + SEND_IT_OVER_TLS);
      }
      return;
    }
    if (clientTls) {
      return; // --allow-plaintext-upstream-passwords
    }
    if (fullAuth || "sha256_password".equals(plugin)) {
      String what = fullAuth ? "caching_sha2_password full authentication" : plugin;
      throw new ProtocolException(
          Packets.ER_ACCESS_DENIED,
          "the server asks for the password in full (" + what + ") and, as the proxy's"
              + " upstream connection is TLS, accepts it only in clear, but this client's"
              + " connection to the proxy is plaintext, so it would send it RSA-encrypted;"
              + " connect to the proxy with TLS (--tls-cert/--tls-key), log in once elsewhere"
              + " (fills the server's cache for fast authentication) or use"
              + " mysql_native_password");
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
