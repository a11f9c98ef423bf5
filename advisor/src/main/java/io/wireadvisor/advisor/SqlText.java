package io.wireadvisor.advisor;

/**
 * Quoting for the SQL the advisor prints. Names reach it from profiles and server views, which come
 * from files and traffic the advisor does not control, so every name is quoted: a printed statement
 * is exactly the one statement it says, whatever the name holds ({@code ;}, quotes, comments,
 * newlines).
 */
public final class SqlText {
  private SqlText() {}

  /**
   * A MySQL/TiDB quoted identifier: {@code `name`} with each backtick doubled ({@code a`b} becomes
   * {@code `a``b`}). Inside backticks nothing but a backtick is special, in every SQL mode.
   *
   * @throws IllegalArgumentException when no server could have such a name (empty, NUL, or
   *     characters outside the Basic Multilingual Plane): such a name came from a forged file
   */
  public static String identifier(String name) {
    if (!isQuotableIdentifier(name)) {
      throw new IllegalArgumentException("not a MySQL identifier");
    }
    return "`" + name.replace("`", "``") + "`";
  }

  /**
   * True when the advisor prints SQL for an object of this name: 1..64 characters of the Basic
   * Multilingual Plane (MySQL's rule for quoted identifiers), none of them a control or format
   * character (newline, ESC, BEL, bidi overrides): a server may allow those, but printed they
   * drive the reader's terminal, reorder what the line shows or close a Markdown code fence, so
   * such a name gets evidence, never a statement to copy.
   */
  public static boolean isQuotableIdentifier(String name) {
    if (name == null || name.isEmpty() || name.length() > 64) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      int type = Character.getType(c);
      if (c == 0 || Character.isSurrogate(c) || type == Character.CONTROL || type == Character.FORMAT
          || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
        return false;
      }
    }
    return true;
  }

  /**
   * A string literal that is the same single literal whether or not the session has {@code
   * NO_BACKSLASH_ESCAPES}: quotes are doubled and backslashes escaped (under that mode a backslash
   * in the value then reads as two, but the literal still ends where it should). NUL is written as
   * {@code \0}.
   */
  public static String literal(String value) {
    StringBuilder sb = new StringBuilder(value.length() + 2).append('\'');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\'':
          sb.append("''");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case 0:
          sb.append("\\0");
          break;
        default:
          sb.append(c);
      }
    }
    return sb.append('\'').toString();
  }
}
