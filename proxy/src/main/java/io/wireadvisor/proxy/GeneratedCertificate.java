package io.wireadvisor.proxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A self-signed certificate made at start-up for client TLS when none is configured, as MySQL 8
 * and TiDB's {@code auto-tls} do: an RSA 2048 key pair that lives in memory only (never written
 * to disk) and a certificate for it, valid from an hour ago for ten years, signed with
 * SHA256withRSA.
 *
 * <p>Only JDK APIs: {@link KeyPairGenerator}, {@link Signature} and {@link CertificateFactory}
 * (which parses the result, so a malformed encoding fails here, at start-up). The few DER
 * structures of an X.509 v3 certificate without extensions are written by hand below. Netty's
 * {@code SelfSignedCertificate} was not used: without BouncyCastle it falls back to the JDK's
 * internal {@code sun.security.x509} (not an API, closed on newer JDKs) or to running the {@code
 * keytool} program, and it writes the private key to a temporary file.
 *
 * <pre>
 * Certificate    SEQUENCE { tbsCertificate, AlgorithmIdentifier, BIT STRING signature }
 * tbsCertificate SEQUENCE { [0] { INTEGER 2 }, INTEGER serial, AlgorithmIdentifier,
 *                           Name issuer, SEQUENCE { notBefore, notAfter }, Name subject,
 *                           SubjectPublicKeyInfo (the JDK's encoding of the public key) }
 * Name           SEQUENCE { SET { SEQUENCE { OID 2.5.4.3 (CN), UTF8String } } }
 * </pre>
 */
final class GeneratedCertificate {
  static final String DEFAULT_NAME = "wire-advisor proxy (generated at start-up)";
  private static final int RSA_BITS = 2048;
  private static final Duration VALIDITY = Duration.ofDays(3650);
  /** sha256WithRSAEncryption, 1.2.840.113549.1.1.11. */
  private static final byte[] SHA256_WITH_RSA = {
    0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x0b
  };
  /** commonName, 2.5.4.3. */
  private static final byte[] COMMON_NAME = {0x55, 0x04, 0x03};

  private final PrivateKey privateKey;
  private final X509Certificate certificate;

  private GeneratedCertificate(PrivateKey privateKey, X509Certificate certificate) {
    this.privateKey = privateKey;
    this.certificate = certificate;
  }

  /**
   * A new key pair and a certificate for it, subject and issuer {@code CN=commonName}.
   *
   * @throws IllegalStateException when the JDK cannot make an RSA key or SHA256withRSA signature
   */
  static GeneratedCertificate generate(String commonName) {
    try {
      SecureRandom random = new SecureRandom();
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(RSA_BITS, random);
      KeyPair pair = generator.generateKeyPair();
      byte[] serial = new byte[16];
      random.nextBytes(serial);
      serial[0] = (byte) ((serial[0] & 0x7f) | 0x40); // positive, 16 bytes, never zero
      Instant notBefore = Instant.now().minus(Duration.ofHours(1)); // some clocks lag
      Instant notAfter = notBefore.plus(VALIDITY);
      byte[] algorithm = sequence(tlv(0x06, SHA256_WITH_RSA), new byte[] {0x05, 0x00});
      byte[] name =
          sequence(tlv(0x31, sequence(tlv(0x06, COMMON_NAME),
              tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
      byte[] tbs =
          sequence(
              tlv(0xa0, tlv(0x02, new byte[] {2})), // v3
              tlv(0x02, serial),
              algorithm,
              name,
              sequence(time(notBefore), time(notAfter)),
              name,
              pair.getPublic().getEncoded()); // X.509 SubjectPublicKeyInfo
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(pair.getPrivate(), random);
      signer.update(tbs);
      byte[] signature = signer.sign();
      byte[] bitString = new byte[signature.length + 1]; // leading 0: no unused bits
      System.arraycopy(signature, 0, bitString, 1, signature.length);
      byte[] der = sequence(tbs, algorithm, tlv(0x03, bitString));
      X509Certificate certificate =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(new ByteArrayInputStream(der));
      certificate.verify(pair.getPublic()); // the encoding round-trips and the signature holds
      return new GeneratedCertificate(pair.getPrivate(), certificate);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot generate a TLS certificate for clients: " + e.getMessage()
              + "; give one with --tls-cert/--tls-key", e);
    }
  }

  PrivateKey privateKey() {
    return privateKey;
  }

  X509Certificate certificate() {
    return certificate;
  }

  /** The SHA-256 of the certificate's DER encoding, colon-separated upper-case hex. */
  String sha256Fingerprint() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      StringBuilder b = new StringBuilder(digest.length * 3);
      for (byte d : digest) {
        if (b.length() > 0) {
          b.append(':');
        }
        b.append(Character.toUpperCase(Character.forDigit((d >> 4) & 0xf, 16)));
        b.append(Character.toUpperCase(Character.forDigit(d & 0xf, 16)));
      }
      return b.toString();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** For the startup line: key, subject and expiry. */
  String describe() {
    return "RSA " + RSA_BITS + ", " + certificate.getSubjectX500Principal().getName()
        + ", valid until " + certificate.getNotAfter().toInstant();
  }

  /** UTCTime until 2049, GeneralizedTime from 2050 on (RFC 5280 4.1.2.5). */
  private static byte[] time(Instant t) {
    int year = t.atZone(ZoneOffset.UTC).getYear();
    boolean utc = year < 2050;
    String s =
        DateTimeFormatter.ofPattern(utc ? "yyMMddHHmmss'Z'" : "yyyyMMddHHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .format(t);
    return tlv(utc ? 0x17 : 0x18, s.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] sequence(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.writeBytes(p);
    }
    return tlv(0x30, b.toByteArray());
  }

  /** One DER tag-length-value (definite length, short or long form). */
  static byte[] tlv(int tag, byte[] value) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(value.length + 6);
    b.write(tag);
    int n = value.length;
    if (n < 0x80) {
      b.write(n);
    } else {
      int bytes = n > 0xffff ? (n > 0xffffff ? 4 : 3) : (n > 0xff ? 2 : 1);
      b.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        b.write(n >>> (8 * i));
      }
    }
    b.writeBytes(value);
    return b.toByteArray();
  }
}
