package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/** A self-signed certificate for localhost made by the JDK's keytool at test time, as PEM files. */
record TestCertificate(File cert, File key) {
  static TestCertificate generate(Path dir) throws Exception {
    Path store = dir.resolve("proxy.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process p =
        new ProcessBuilder(
                keytool, "-genkeypair", "-alias", "proxy", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "test-only", "-keypass", "test-only")
            .redirectErrorStream(true)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(store.toFile())) {
      ks.load(in, "test-only".toCharArray());
    }
    PrivateKey privateKey = (PrivateKey) ks.getKey("proxy", "test-only".toCharArray());
    Certificate certificate = ks.getCertificate("proxy");
    File cert = dir.resolve("cert.pem").toFile();
    File key = dir.resolve("key.pem").toFile();
    Files.writeString(cert.toPath(), pem("CERTIFICATE", certificate.getEncoded()));
    Files.writeString(key.toPath(), pem("PRIVATE KEY", privateKey.getEncoded()));
    return new TestCertificate(cert, key);
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
