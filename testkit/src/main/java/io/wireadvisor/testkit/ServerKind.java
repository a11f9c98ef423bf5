package io.wireadvisor.testkit;

/** The family of MySQL-protocol server a test runs against, judged from {@code SELECT VERSION()}. */
public enum ServerKind {
  TIDB,
  MARIADB,
  MYSQL;

  /**
   * Classifies a server by the version string it reports.
   *
   * @param version e.g. {@code 8.0.11-TiDB-v8.5.3}, {@code 11.4.5-MariaDB}, {@code 8.4.6}
   */
  public static ServerKind fromVersion(String version) {
    String v = version == null ? "" : version.toLowerCase(java.util.Locale.ROOT);
    if (v.contains("tidb")) {
      return TIDB;
    }
    if (v.contains("mariadb")) {
      return MARIADB;
    }
    return MYSQL;
  }
}
