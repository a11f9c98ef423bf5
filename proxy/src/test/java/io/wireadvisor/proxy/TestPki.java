package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A test CA and server certificates it signs (or that sign themselves), made by the JDK's keytool
 * at test time (no BouncyCastle in this build): EC P-256 keys, PEM for the CA, an {@link
 * SSLContext} for each server certificate.
 */
final class TestPki {
  private static final String PASS = "test-only";
  private final Path dir;
  private final Path caStore;
  /** The CA's certificate as PEM (what --upstream-ca reads). */
  final Path caPem;

  private TestPki(Path dir, Path caStore, Path caPem) {
    this.dir = dir;
    this.caStore = caStore;
    this.caPem = caPem;
  }

  /** A new CA in {@code dir}. */
  static TestPki create(Path dir) throws Exception {
    Path store = dir.resolve("ca.p12");
    keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=wire-advisor test CA", "-ext", "bc:c", "-validity", "30",
        "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASS, "-keypass", PASS);
    Path pem = dir.resolve("ca.pem");
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", store.toString(),
        "-storepass", PASS, "-file", pem.toString());
    return new TestPki(dir, store, pem);
  }

  /**
   * A server certificate.
   *
   * @param name file name stem (unique per certificate)
   * @param san keytool's SAN value, e.g. {@code dns:localhost,ip:127.0.0.1}
   * @param startDate keytool's {@code -startdate}, e.g. {@code -10d}, or null for now
   * @param validityDays days from the start date
   * @param signedByCa false: self-signed (not issued by this CA)
   */
  SSLContext server(String name, String san, String startDate, int validityDays, boolean signedByCa)
      throws Exception {
    Path store = dir.resolve(name + ".p12");
    List<String> gen =
        new ArrayList<>(List.of("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname",
            "secp256r1", "-dname", "CN=" + name, "-ext", "SAN=" + san, "-validity",
            String.valueOf(validityDays), "-storetype", "PKCS12", "-keystore", store.toString(),
            "-storepass", PASS, "-keypass", PASS));
    if (startDate != null && !signedByCa) {
      gen.addAll(List.of("-startdate", startDate));
    }
    keytool(gen.toArray(String[]::new));
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(store.toFile())) {
      ks.load(in, PASS.toCharArray());
    }
    PrivateKey key = (PrivateKey) ks.getKey("server", PASS.toCharArray());
    Certificate[] chain;
    if (signedByCa) {
      Path csr = dir.resolve(name + ".csr");
      keytool("-certreq", "-alias", "server", "-keystore", store.toString(), "-storepass", PASS,
          "-file", csr.toString());
      Path cert = dir.resolve(name + ".pem");
      List<String> sign =
          new ArrayList<>(List.of("-gencert", "-rfc", "-alias", "ca", "-keystore",
              caStore.toString(), "-storepass", PASS, "-infile", csr.toString(), "-outfile",
              cert.toString(), "-ext", "SAN=" + san, "-validity", String.valueOf(validityDays)));
      if (startDate != null) {
        sign.addAll(List.of("-startdate", startDate));
      }
      keytool(sign.toArray(String[]::new));
      CertificateFactory f = CertificateFactory.getInstance("X.509");
      X509Certificate leaf;
      X509Certificate ca;
      try (InputStream in = Files.newInputStream(cert)) {
        leaf = (X509Certificate) f.generateCertificate(in);
      }
      try (InputStream in = Files.newInputStream(caPem)) {
        ca = (X509Certificate) f.generateCertificate(in);
      }
      chain = new Certificate[] {leaf, ca};
    } else {
      chain = ks.getCertificateChain("server");
    }
    KeyStore serving = KeyStore.getInstance("PKCS12");
    serving.load(null, null);
    serving.setKeyEntry("server", key, PASS.toCharArray(), chain);
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(serving, PASS.toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    return tls;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + new String(p.getInputStream().readAllBytes())).isZero();
  }
}
