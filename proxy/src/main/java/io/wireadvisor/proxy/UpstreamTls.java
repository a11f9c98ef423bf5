package io.wireadvisor.proxy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.NetUtil;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS between the proxy and the upstream server ({@code --upstream-tls}, {@code --upstream-ca},
 * {@code --allow-plaintext-upstream-passwords}): when it applies and how the server's
 * certificate is checked. Immutable.
 *
 * <p>The modes are MySQL's {@code --ssl-mode} names. What is verified:
 *
 * <table>
 *   <tr><th>mode</th><th>without --upstream-ca</th><th>with --upstream-ca</th></tr>
 *   <tr><td>preferred, required</td><td>nothing (encrypted, not authenticated)</td>
 *       <td>chain to the CA file and host name</td></tr>
 *   <tr><td>verify-ca</td><td>chain to the JDK's default CAs</td><td>chain to the CA file</td></tr>
 *   <tr><td>verify-identity</td><td>chain to the JDK's default CAs and host name</td>
 *       <td>chain to the CA file and host name</td></tr>
 * </table>
 *
 * A CA file alone therefore means the host name is checked too: a public CA bundle (TiDB Cloud's)
 * would otherwise let any holder of a publicly trusted certificate pose as the server. Only
 * {@code verify-ca} checks the chain without the name. The host name is the {@code --upstream}
 * host: it is also sent as SNI, and a certificate must list it (DNS name, or IP address for an
 * address) in its subject alternative names, as HTTPS clients require.
 */
public final class UpstreamTls {
  /** When the proxy uses TLS to the upstream, and what it verifies. */
  public enum Mode {
    /** Never (plaintext to the upstream, whatever it offers). */
    OFF,
    /** When the server's greeting offers CLIENT_SSL; plaintext otherwise. */
    PREFERRED,
    /** Always: a server whose greeting lacks CLIENT_SSL is refused with an ERR to the client. */
    REQUIRED,
    /** As REQUIRED, and the certificate chain must lead to a trusted CA (name not checked). */
    VERIFY_CA,
    /** As VERIFY_CA, and the certificate must be issued for the {@code --upstream} host name. */
    VERIFY_IDENTITY;

    /**
     * Parses {@code off}, {@code preferred}, {@code required}, {@code verify-ca} or {@code
     * verify-identity} (any case; {@code _} for {@code -} and {@code disabled} for {@code off},
     * as MySQL's {@code --ssl-mode} spells them).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Mode parse(String value) {
      String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
      switch (v) {
        case "off":
        case "disabled":
          return OFF;
        case "preferred":
          return PREFERRED;
        case "required":
          return REQUIRED;
        case "verify-ca":
          return VERIFY_CA;
        case "verify-identity":
          return VERIFY_IDENTITY;
        default:
          throw new IllegalArgumentException(
              "upstream TLS must be off, preferred, required, verify-ca or verify-identity, was '"
                  + value + "'");
      }
    }

    /** True when a server that offers no TLS is refused (every mode but off and preferred). */
    public boolean requiresTls() {
      return this != OFF && this != PREFERRED;
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  static final UpstreamTls OFF = new UpstreamTls(Mode.OFF, null, null, false, false, false);

  private final Mode mode;
  private final File ca;
  private final SslContext context;
  private final boolean verifiesChain;
  private final boolean verifiesHostName;
  private final boolean plaintextPasswordsAllowed;

  private UpstreamTls(
      Mode mode,
      File ca,
      SslContext context,
      boolean verifiesChain,
      boolean verifiesHostName,
      boolean plaintextPasswordsAllowed) {
    this.mode = mode;
    this.ca = ca;
    this.context = context;
    this.verifiesChain = verifiesChain;
    this.verifiesHostName = verifiesHostName;
    this.plaintextPasswordsAllowed = plaintextPasswordsAllowed;
  }

  /**
   * @param ca PEM file of the CAs to verify the server's certificate chain against, or null (see
   *     the class comment for what each mode then verifies)
   * @throws IllegalArgumentException when the CA file cannot be read as PEM certificates, or a
   *     CA is given with mode off
   */
  static UpstreamTls of(Mode mode, File ca) {
    if (mode == Mode.OFF) {
      if (ca != null) {
        throw new IllegalArgumentException(
            "--upstream-ca needs --upstream-tls preferred or required (or verify-ca,"
                + " verify-identity)");
      }
      return OFF;
    }
    boolean chain = ca != null || mode == Mode.VERIFY_CA || mode == Mode.VERIFY_IDENTITY;
    boolean hostName = mode == Mode.VERIFY_IDENTITY || (ca != null && mode != Mode.VERIFY_CA);
    SslContextBuilder b = SslContextBuilder.forClient();
    try {
      if (chain) {
        b.trustManager(new VerifyingTrustManager(trusted(ca), ca, hostName));
      } else {
        b.trustManager(InsecureTrustManagerFactory.INSTANCE);
      }
      // The JDK checks the name (against the engine's peer host) inside the trust manager's
      // checkServerTrusted(chain, authType, engine) only when this is set.
      b.endpointIdentificationAlgorithm(hostName ? "HTTPS" : null);
      return new UpstreamTls(mode, ca, b.build(), chain, hostName, false);
    } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          (ca == null ? "cannot load the JDK's default CA certificates: "
                  : "cannot use upstream CA file " + ca + ": ")
              + e.getMessage(),
          e);
    }
  }

  /**
   * A copy that relays (true) or refuses (false, the default) logins that carry the password
   * itself from a TLS client leg over a plaintext upstream leg ({@code
   * --allow-plaintext-upstream-passwords}).
   */
  UpstreamTls withPlaintextPasswordsAllowed(boolean allowed) {
    return new UpstreamTls(mode, ca, context, verifiesChain, verifiesHostName, allowed);
  }

  /** The JDK's X509 trust manager over the CA file's certificates, or over its default CAs. */
  private static X509ExtendedTrustManager trusted(File ca)
      throws GeneralSecurityException, IOException {
    KeyStore store = null;
    if (ca != null) {
      Collection<? extends Certificate> certificates;
      try (InputStream in = new FileInputStream(ca)) {
        certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
      }
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException("no PEM certificate in it");
      }
      store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate c : certificates) {
        store.setCertificateEntry("ca-" + i++, c);
      }
    }
    TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    f.init(store);
    for (TrustManager t : f.getTrustManagers()) {
      if (t instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("no X509 trust manager in " + f.getAlgorithm());
  }

  public Mode mode() {
    return mode;
  }

  /** The CA file the server's certificate is verified against, or null. */
  public File ca() {
    return ca;
  }

  /** True when the server's certificate chain must lead to a trusted CA. */
  public boolean verifiesChain() {
    return verifiesChain;
  }

  /** True when the server's certificate must be issued for the {@code --upstream} host name. */
  public boolean verifiesHostName() {
    return verifiesHostName;
  }

  /** {@code --allow-plaintext-upstream-passwords}: see {@link #withPlaintextPasswordsAllowed}. */
  public boolean plaintextPasswordsAllowed() {
    return plaintextPasswordsAllowed;
  }

  /**
   * A client-mode TLS handler for one upstream connection: {@code host} is the engine's peer host,
   * so it is sent as SNI and is the name the certificate must match when the name is verified.
   */
  SslHandler newHandler(ByteBufAllocator alloc, String host, int port, long handshakeTimeoutMillis) {
    SslHandler h = context.newHandler(alloc, host, port);
    if (!NetUtil.isValidIpV4Address(host) && !NetUtil.isValidIpV6Address(host)) {
      // The JDK sends SNI by itself only for names with a dot: set it for any host name.
      SSLEngine engine = h.engine();
      SSLParameters parameters = engine.getSSLParameters();
      try {
        parameters.setServerNames(List.of(new SNIHostName(host)));
        engine.setSSLParameters(parameters);
      } catch (IllegalArgumentException notAHostName) {
        // e.g. an underscore: no SNI; the certificate's name is still checked against host
      }
    }
    h.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    return h;
  }

  /**
   * Why the upstream TLS handshake failed, for the client's ERR: the proxy's own explanation of a
   * certificate it refused (which names the host, the certificate's names, its validity and the
   * flag that applies), else {@code message}.
   */
  static String explainFailure(String message, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof RefusedCertificate r) {
        return r.getMessage();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return message;
  }

  /** For the startup line: the mode and what is verified. */
  String describe() {
    String passwords =
        plaintextPasswordsAllowed
            ? "; passwords MAY cross a plaintext upstream (--allow-plaintext-upstream-passwords)"
            : "";
    if (mode == Mode.OFF) {
      return "upstream TLS off" + passwords;
    }
    String trust = ca != null ? ca.toString() : "the JDK's default CAs";
    String verified;
    if (verifiesHostName) {
      verified = "server certificate and host name verified against " + trust;
    } else if (verifiesChain) {
      verified = "server certificate verified against " + trust + "; host name NOT checked";
    } else {
      verified =
          "server certificate NOT verified: no --upstream-ca; encrypted but not authenticated";
    }
    return "upstream TLS " + mode + " (" + verified + ")" + passwords;
  }

  /** A server certificate this proxy refused, with a message meant for the client's ERR. */
  static final class RefusedCertificate extends CertificateException {
    RefusedCertificate(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Verifies the server's chain with the JDK's trust manager, then its name (the JDK's HTTPS
   * endpoint identification, against the engine's peer host), and explains a refusal in terms
   * of this proxy's flags.
   */
  private static final class VerifyingTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager delegate;
    private final File ca;
    private final boolean hostName;

    VerifyingTrustManager(X509ExtendedTrustManager delegate, File ca, boolean hostName) {
      this.delegate = delegate;
      this.ca = ca;
      this.hostName = hostName;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      String host = engine == null ? null : engine.getPeerHost();
      X509Certificate leaf = chain == null || chain.length == 0 ? null : chain[0];
      try {
        delegate.checkServerTrusted(chain, authType, (SSLEngine) null); // the chain alone
      } catch (CertificateException e) {
        throw new RefusedCertificate(chainFailure(leaf, e), e);
      }
      if (hostName) {
        try {
          delegate.checkServerTrusted(chain, authType, engine); // and the name
        } catch (CertificateException e) {
          throw new RefusedCertificate(
              "the server's certificate is not issued for host name '" + host + "' (its names: "
                  + names(leaf) + "): connect with --upstream set to a name the certificate lists,"
                  + " or, to check the CA only, use --upstream-tls verify-ca (" + e.getMessage()
                  + ")",
              e);
        }
      }
    }

    private String chainFailure(X509Certificate leaf, CertificateException e) {
      String against = ca != null ? "--upstream-ca " + ca : "the JDK's default CAs";
      if (leaf != null) {
        try {
          leaf.checkValidity();
        } catch (CertificateExpiredException expired) {
          return "the server's certificate does not verify against " + against + ": it expired"
              + " on " + leaf.getNotAfter().toInstant() + " (" + describe(leaf) + ")";
        } catch (CertificateNotYetValidException early) {
          return "the server's certificate does not verify against " + against + ": it is not"
              + " valid before " + leaf.getNotBefore().toInstant() + " (" + describe(leaf) + ")";
        }
      }
      return "the server's certificate does not verify against " + against + ": it was not"
          + " issued by a CA there (" + (leaf == null ? "no certificate" : describe(leaf))
          + "; " + e.getMessage() + ")";
    }

    private static String describe(X509Certificate c) {
      return "subject " + c.getSubjectX500Principal().getName() + ", issuer "
          + c.getIssuerX500Principal().getName() + ", names " + names(c);
    }

    /** The certificate's subject alternative names (DNS and IP), else its subject. */
    static String names(X509Certificate c) {
      if (c == null) {
        return "none";
      }
      List<String> out = new ArrayList<>();
      try {
        Collection<List<?>> sans = c.getSubjectAlternativeNames();
        if (sans != null) {
          for (List<?> san : sans) {
            Object type = san.get(0);
            if (Integer.valueOf(2).equals(type)) {
              out.add("DNS:" + san.get(1));
            } else if (Integer.valueOf(7).equals(type)) {
              out.add("IP:" + san.get(1));
            }
          }
        }
      } catch (CertificateException e) {
        // unreadable extension: fall back to the subject
      }
      return out.isEmpty()
          ? "no DNS or IP subject alternative names; subject " + c.getSubjectX500Principal().getName()
          : String.join(", ", out);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, java.net.Socket socket)
        throws CertificateException {
      throw new CertificateException("the upstream TLS trust manager works on SSLEngines only");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("the upstream TLS trust manager works on SSLEngines only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, java.net.Socket socket)
        throws CertificateException {
      throw new CertificateException("client certificates are not checked here");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("client certificates are not checked here");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("client certificates are not checked here");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return delegate.getAcceptedIssuers();
    }
  }
}
