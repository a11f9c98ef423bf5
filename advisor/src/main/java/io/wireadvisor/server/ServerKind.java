package io.wireadvisor.server;

import java.util.Locale;

/** The family of MySQL-protocol server, judged from {@code SELECT VERSION()}. */
public enum ServerKind {
  TIDB,
  MYSQL,
  MARIADB;

  /** Classifies a version string such as {@code 8.0.11-TiDB-v8.5.3} or {@code 11.4.5-MariaDB}. */
  public static ServerKind fromVersion(String version) {
    String v = version == null ? "" : version.toLowerCase(Locale.ROOT);
    if (v.contains("tidb")) {
      return TIDB;
    }
    if (v.contains("mariadb")) {
      return MARIADB;
    }
    return MYSQL;
  }
}
