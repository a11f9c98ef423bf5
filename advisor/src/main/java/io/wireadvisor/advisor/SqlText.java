package io.wireadvisor.advisor;

import java.util.regex.Pattern;

/**
 * Quoting for the SQL the advisor prints. Names reach it from profiles and server views, which come
 * from files and traffic the advisor does not control, so every name is quoted: a printed statement
 * is exactly the one statement it says, whatever the name holds ({@code ;}, quotes, comments,
 * newlines).
 */
public final class SqlText {
  private static final Pattern BARE_VALUE = Pattern.compile("-?[0-9]+(\\.[0-9]+)?|(?i:ON|OFF|TRUE|FALSE)");

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

  /**
   * The value of a {@code SET [GLOBAL] name = value}, right for TiDB, MySQL and MariaDB: {@code
   * DEFAULT} for null; a number or {@code ON}/{@code OFF}/{@code TRUE}/{@code FALSE} bare; anything
   * else a {@link #literal} (enum names such as {@code READ-COMMITTED} are not one word to the
   * parser). Measured on MariaDB 11.4.5 and TiDB v8.4: MariaDB (like MySQL) answers 1232
   * "Incorrect argument type" to a quoted number for a numeric variable ({@code
   * max_prepared_stmt_count = '16000'}, {@code long_query_time = '5.5'}) and 1231 to a quoted
   * {@code 'TRUE'} or {@code '1'} for a boolean, TiDB 1231 to {@code 'TRUE'}; both take {@code ON},
   * {@code 'ON'}, {@code TRUE} and numbers bare. A string variable that holds digits wants them
   * quoted (MariaDB: {@code init_connect = 100} is 1232, {@code '100'} is taken), which {@link
   * #quotedSettingValue} gives: {@link io.wireadvisor.server.UndoLog#setGlobal} falls back to it on
   * 1232.
   */
  public static String settingValue(String value) {
    if (value == null) {
      return "DEFAULT";
    }
    return isBareSettingValue(value) ? value : literal(value);
  }

  /** True when {@link #settingValue} writes {@code value} bare (a number or a switch word). */
  public static boolean isBareSettingValue(String value) {
    return value != null && BARE_VALUE.matcher(value).matches();
  }

  /** {@code value} always as a string literal ({@code DEFAULT} for null): for string variables. */
  public static String quotedSettingValue(String value) {
    return value == null ? "DEFAULT" : literal(value);
  }
}
