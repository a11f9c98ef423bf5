package io.wireadvisor.wire;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The comment Connector/J puts before its connect-time read of the server's variables, which names
 * the driver and its version even when the login sent no connection attributes.
 *
 * <p>{@code NativeSession.loadServerVariables} (8.0 and 9.x) sends {@code "/* " + version + " *&#47;"
 * + "SELECT  @@session.auto_increment_increment AS auto_increment_increment, ..."} with {@code
 * version = DatabaseMetaData.getDriverVersion() = CJ_FULL_NAME + " (Revision: " + CJ_REVISION +
 * ")"}: {@code mysql-connector-j-9.5.0 (Revision: a7b3c94f...)}, and {@code
 * mysql-connector-java-8.0.30 (Revision: ...)} up to 8.0.30. Left out under {@code paranoid=true};
 * sent once per URL and JVM under {@code cacheServerConfiguration=true} (which {@code
 * useConfigs=maxPerformance} sets).
 *
 * <p>Bounded: only the first {@link #MAX_CHARS} characters of a statement are looked at, and the
 * version is {@code X.Y.Z} followed by at most {@link #MAX_SUFFIX_CHARS} of {@code [0-9A-Za-z.-]}
 * ({@code -SNAPSHOT}, {@code -rc1}); anything else is no comment.
 */
public final class ConnectorJComment {
  /** Characters of a statement looked at. */
  public static final int MAX_CHARS = 120;

  /** Characters of a version after its {@code X.Y.Z}. */
  public static final int MAX_SUFFIX_CHARS = 20;

  private static final String PREFIX = "/* mysql-connector-j";

  private static final Pattern COMMENT =
      Pattern.compile(
          "/\\* mysql-connector-j(?:ava)?-(\\d+\\.\\d+\\.\\d+)([0-9A-Za-z.-]{0,"
              + MAX_SUFFIX_CHARS
              + "}) \\(Revision: ");

  private final String release;
  private final String version;

  private ConnectorJComment(String release, String version) {
    this.release = release;
    this.version = version;
  }

  /** The comment {@code sql} begins with, or null when it does not begin with one. */
  public static ConnectorJComment of(String sql) {
    if (sql == null || !sql.startsWith(PREFIX)) {
      return null;
    }
    Matcher m = COMMENT.matcher(sql.length() > MAX_CHARS ? sql.substring(0, MAX_CHARS) : sql);
    if (!m.lookingAt()) {
      return null;
    }
    return new ConnectorJComment(m.group(1), m.group(1) + m.group(2));
  }

  /** The version as the driver names it: {@code 9.5.0}, {@code 9.1.0-SNAPSHOT}. */
  public String version() {
    return version;
  }

  /** The {@code X.Y.Z} of {@link #version()}: the release to find on Maven Central. */
  public String release() {
    return release;
  }
}
