package io.wireadvisor.proxy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.File;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * TLS between the proxy and the upstream server ({@code --upstream-tls}, {@code --upstream-ca}):
 * when it applies and how the server's certificate is checked. Immutable.
 *
 * <p>With a CA file the server's certificate chain must lead to one of its certificates; the
 * host name is not checked (managed services and self-signed servers are reached by names and
 * addresses their certificates often do not list). Without a CA any certificate is accepted:
 * the link is encrypted against eavesdroppers but not authenticated, so an active attacker on
 * the path could impersonate the server.
 */
public final class UpstreamTls {
  /** When the proxy uses TLS to the upstream. */
  public enum Mode {
    /** Never (plaintext to the upstream, whatever it offers). */
    OFF,
    /** When the server's greeting offers CLIENT_SSL; plaintext otherwise. */
    PREFERRED,
    /** Always: a server whose greeting lacks CLIENT_SSL is refused with an ERR to the client. */
    REQUIRED;

    /**
     * Parses {@code off}, {@code preferred} or {@code required} (any case).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Mode parse(String value) {
      String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
      switch (v) {
        case "off":
          return OFF;
        case "preferred":
          return PREFERRED;
        case "required":
          return REQUIRED;
        default:
          throw new IllegalArgumentException(
              "upstream TLS must be off, preferred or required, was '" + value + "'");
      }
    }

    /** True when a server that offers no TLS is refused. */
    public boolean requiresTls() {
      return this == REQUIRED;
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final UpstreamTls OFF = new UpstreamTls(Mode.OFF, null, null, false);

  private final Mode mode;
  private final File ca;
  private final SslContext context;
  private final boolean plaintextPasswordsAllowed;

  private UpstreamTls(Mode mode, File ca, SslContext context, boolean plaintextPasswordsAllowed) {
    this.mode = mode;
    this.ca = ca;
    this.context = context;
    this.plaintextPasswordsAllowed = plaintextPasswordsAllowed;
  }

  /**
   * A copy that relays (true) or refuses (false, the default) logins that carry the password
   * itself from a TLS client leg over a plaintext upstream leg ({@code
   * --allow-plaintext-upstream-passwords}).
   */
  UpstreamTls withPlaintextPasswordsAllowed(boolean allowed) {
    return new UpstreamTls(mode, ca, context, allowed);
  }

  /** {@code --allow-plaintext-upstream-passwords}: see {@link #withPlaintextPasswordsAllowed}. */
  public boolean plaintextPasswordsAllowed() {
    return plaintextPasswordsAllowed;
  }

  /**
   * @param ca PEM file of the CAs to verify the server's certificate chain against, or null to
   *     accept any certificate
   * @throws IllegalArgumentException when the CA file cannot be read as PEM certificates
   */
  static UpstreamTls of(Mode mode, File ca) {
    if (mode == Mode.OFF) {
      if (ca != null) {
        throw new IllegalArgumentException("--upstream-ca needs --upstream-tls preferred or required");
      }
      return OFF;
    }
    SslContextBuilder b = SslContextBuilder.forClient();
    try {
      if (ca != null) {
        b.trustManager(ca);
      } else {
        b.trustManager(InsecureTrustManagerFactory.INSTANCE);
      }
      // Chain only: see the class comment. Netty 4.2 checks the host name by default.
      b.endpointIdentificationAlgorithm(null);
      return new UpstreamTls(mode, ca, b.build(), false);
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "cannot use upstream CA file " + ca + ": " + e.getMessage(), e);
    }
  }

  public Mode mode() {
    return mode;
  }

  /** The CA file the server's certificate is verified against, or null (not verified). */
  public File ca() {
    return ca;
  }

  /** A client-mode TLS handler for one upstream connection (SNI names {@code host}). */
  SslHandler newHandler(ByteBufAllocator alloc, String host, int port, long handshakeTimeoutMillis) {
    SslHandler h = context.newHandler(alloc, host, port);
    h.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    return h;
  }

  /** For the startup line: the mode and whether the server's certificate is verified. */
  String describe() {
    String passwords =
        plaintextPasswordsAllowed
            ? "; passwords MAY cross a plaintext upstream (--allow-plaintext-upstream-passwords)"
            : "";
    if (mode == Mode.OFF) {
      return "upstream TLS off" + passwords;
    }
    return "upstream TLS " + mode
        + (ca != null
            ? " (server certificate verified against " + ca + ")"
            : " (server certificate NOT verified: no --upstream-ca; encrypted but not"
                + " authenticated)")
        + passwords;
  }
}
