package io.wireadvisor.sql;

/**
 * How the server reads a backslash inside a quoted string on one connection: as an escape (MySQL's
 * default) or as itself ({@code sql_mode} {@code NO_BACKSLASH_ESCAPES}). The two modes end a string
 * such as {@code 'x\'} at different places, so a lexer in the wrong mode reads literal text as SQL
 * and puts it into a digest (issue 28: {@code ALTER USER a IDENTIFIED BY 'x\', b IDENTIFIED BY
 * 'Secret'} put {@code secret} on {@code /profile}).
 *
 * <p>A collector learns the mode per connection from the server's status flag {@link
 * #SERVER_STATUS_NO_BACKSLASH_ESCAPES} in OK and EOF packets, and from a {@code SET sql_mode} the
 * connection sends (until the next reply says otherwise); see {@code WireSession}. Until then the
 * mode is {@link #UNKNOWN}: a string whose end depends on the mode is then read as running to the
 * end of the text, so no byte after its opening quote can reach a digest, whichever mode the
 * server is in.
 */
public enum Escaping {
  /** {@code \} escapes the next character (MySQL's and TiDB's default). */
  BACKSLASH,
  /** {@code NO_BACKSLASH_ESCAPES}: {@code \} is an ordinary character; only {@code ''} escapes. */
  NO_BACKSLASH,
  /** Not known: read so that neither mode can expose a literal. */
  UNKNOWN;

  /** The server status flag set in OK/EOF packets while {@code NO_BACKSLASH_ESCAPES} is on. */
  public static final int SERVER_STATUS_NO_BACKSLASH_ESCAPES = 0x0200;

  /** The mode a reply's status flags announce. */
  public static Escaping fromStatus(int status) {
    return (status & SERVER_STATUS_NO_BACKSLASH_ESCAPES) != 0 ? NO_BACKSLASH : BACKSLASH;
  }

  /** The mode an {@code sql_mode} value sets ({@code 'ANSI,NO_BACKSLASH_ESCAPES'}, ...). */
  public static Escaping fromSqlMode(String sqlMode) {
    if (sqlMode == null) {
      return UNKNOWN;
    }
    return sqlMode.toUpperCase(java.util.Locale.ROOT).contains("NO_BACKSLASH_ESCAPES")
        ? NO_BACKSLASH
        : BACKSLASH;
  }
}
