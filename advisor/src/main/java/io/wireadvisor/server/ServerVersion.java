package io.wireadvisor.server;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The product version of a server: for TiDB the TiDB release ({@code 8.0.11-TiDB-v8.5.3} is 8.5.3,
 * not the MySQL compatibility version 8.0.11), otherwise the leading {@code x.y.z}.
 */
public final class ServerVersion implements Comparable<ServerVersion> {
  private static final Pattern TIDB = Pattern.compile("(?i)tidb-v?(\\d+)\\.(\\d+)(?:\\.(\\d+))?");
  private static final Pattern PLAIN = Pattern.compile("^\\D*(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

  private final int major;
  private final int minor;
  private final int patch;

  public ServerVersion(int major, int minor, int patch) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
  }

  /** Parses a {@code SELECT VERSION()} string; unknown formats give 0.0.0. */
  public static ServerVersion parse(String version) {
    if (version == null) {
      return new ServerVersion(0, 0, 0);
    }
    Matcher m = TIDB.matcher(version);
    if (!m.find()) {
      m = PLAIN.matcher(version);
      if (!m.find()) {
        return new ServerVersion(0, 0, 0);
      }
    }
    return new ServerVersion(
        Integer.parseInt(m.group(1)),
        Integer.parseInt(m.group(2)),
        m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
  }

  public int major() {
    return major;
  }

  public int minor() {
    return minor;
  }

  public int patch() {
    return patch;
  }

  public boolean atLeast(int major, int minor) {
    return compareTo(new ServerVersion(major, minor, 0)) >= 0;
  }

  @Override
  public int compareTo(ServerVersion o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) {
      c = Integer.compare(minor, o.minor);
    }
    return c != 0 ? c : Integer.compare(patch, o.patch);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServerVersion && compareTo((ServerVersion) o) == 0;
  }

  @Override
  public int hashCode() {
    return (major * 31 + minor) * 31 + patch;
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
