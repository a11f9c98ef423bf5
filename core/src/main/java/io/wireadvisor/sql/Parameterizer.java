package io.wireadvisor.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Turns a text-protocol DML statement back into the template and the values an application's
 * {@code PreparedStatement} would have had: {@code SELECT * FROM t WHERE id = 42 AND s = 'a'}
 * becomes {@code SELECT * FROM t WHERE id = ? AND s = ?} with {@code [42, "a"]}. Capture uses it
 * to record what a text statement carried; replay binds the values to the template, so the
 * driver's settings decide, as in the application, whether they go as COM_QUERY or
 * COM_STMT_EXECUTE.
 *
 * <p>Only literals whose place takes a parameter become one. Kept verbatim: every statement that
 * is not SELECT/INSERT/REPLACE/UPDATE/DELETE (DDL sizes, SET values), column positions after
 * {@code ORDER BY}/{@code GROUP BY}, typed literals ({@code DATE '…'}, {@code TIMESTAMP '…'},
 * {@code TIME '…'}), hexadecimal, bit and national strings ({@code X'…'}, {@code 0x…},
 * {@code B'…'}, {@code N'…'}), strings with a character-set introducer, and any statement that
 * already has a {@code ?}.
 */
public final class Parameterizer {
  private Parameterizer() {}

  /** A statement as template and values. */
  public static final class Parameterized {
    private final String template;
    private final List<Literal> values;

    Parameterized(String template, List<Literal> values) {
      this.template = template;
      this.values = Collections.unmodifiableList(values);
    }

    /**
     * The statement with each parameterized literal replaced by {@code ?}; null when the text could
     * not be read safely (see {@link Parameterizer#parameterize(String, Escaping)}).
     */
    public String template() {
      return template;
    }

    /** The literals, in order of their {@code ?}; empty when the statement is kept verbatim. */
    public List<Literal> values() {
      return values;
    }
  }

  /** One literal's value. */
  public static final class Literal {
    private final boolean number;
    private final String value;

    Literal(boolean number, String value) {
      this.number = number;
      this.value = value;
    }

    /** True for a numeric literal (value is its decimal text), false for a string. */
    public boolean isNumber() {
      return number;
    }

    /** The number's text, or the string's value with quotes and escapes resolved. */
    public String value() {
      return value;
    }

    @Override
    public String toString() {
      return number ? value : "'" + value + "'";
    }
  }

  /**
   * The template and values of {@code sql}; the text itself with no values when not DML. Read
   * safely for either escaping mode: see {@link #parameterize(String, Escaping)}.
   */
  public static Parameterized parameterize(String sql) {
    return parameterize(sql, Escaping.UNKNOWN);
  }

  /**
   * The template and values of {@code sql} as the server reads it in {@code escaping}; the text
   * itself with no values when not DML; {@link Parameterized#template()} null when the text cannot
   * be read safely (a string whose end depends on a mode that is not known: nothing of it may be
   * kept as SQL).
   */
  public static Parameterized parameterize(String sql, Escaping escaping) {
    Escaping mode = escaping == null ? Escaping.UNKNOWN : escaping;
    Classification c = SqlClassifier.classify(sql, mode);
    if (c.cutAtUnknownEscaping()) {
      return new Parameterized(null, new ArrayList<Literal>());
    }
    if (c.setsEscaping() != null && c.setsEscaping() != mode) {
      mode = Escaping.UNKNOWN; // a multi-statement that changes the mode on the way
    }
    StatementKind kind = c.kind();
    if (kind != StatementKind.SELECT
        && kind != StatementKind.INSERT
        && kind != StatementKind.REPLACE
        && kind != StatementKind.UPDATE
        && kind != StatementKind.DELETE) {
      return verbatim(sql);
    }
    TokenList t = SqlLexer.lex(sql, mode);
    if (t.cut()) {
      return new Parameterized(null, new ArrayList<Literal>());
    }
    for (int i = 0; i < t.size(); i++) {
      if (t.type(i) == Token.PARAM) {
        return verbatim(sql);
      }
    }
    StringBuilder template = new StringBuilder(sql.length());
    List<Literal> values = new ArrayList<>();
    int copied = 0;
    // Depth at which ORDER BY / GROUP BY started, or -1: numbers there are column positions.
    int positionList = -1;
    for (int i = 0; i < t.size(); i++) {
      int type = t.type(i);
      if (positionList >= 0 && (t.depth(i) < positionList || endsPositionList(t, i, positionList))) {
        positionList = -1;
      }
      if (type == Token.WORD && t.is(i, Keyword.BY) && i > 0
          && (t.is(i - 1, Keyword.ORDER) || t.is(i - 1, Keyword.GROUP))) {
        positionList = t.depth(i);
        continue;
      }
      Literal literal = null;
      if (type == Token.NUMBER && positionList < 0) {
        literal = number(t.sql.substring(t.start(i), t.end(i)));
      } else if (type == Token.STRING && !typedLiteral(t, i)) {
        literal = string(t.sql, t.start(i), t.end(i), mode != Escaping.NO_BACKSLASH);
      }
      if (literal == null) {
        continue;
      }
      template.append(sql, copied, t.start(i)).append('?');
      copied = t.end(i);
      values.add(literal);
    }
    if (values.isEmpty()) {
      return verbatim(sql);
    }
    template.append(sql, copied, sql.length());
    return new Parameterized(template.toString(), values);
  }

  private static Parameterized verbatim(String sql) {
    return new Parameterized(sql, new ArrayList<Literal>());
  }

  private static boolean endsPositionList(TokenList t, int i, int depth) {
    if (t.depth(i) != depth) {
      return false;
    }
    return t.is(i, Keyword.LIMIT) || t.is(i, Keyword.HAVING) || t.is(i, Keyword.WINDOW)
        || t.is(i, Keyword.FOR) || t.is(i, Keyword.UNION) || t.is(i, Keyword.INTO)
        || t.is(i, Keyword.LOCK) || t.is(i, Keyword.ORDER) || t.type(i) == Token.SEMICOLON;
  }

  /** {@code DATE '…'}, {@code TIME '…'}, {@code TIMESTAMP '…'}: the string is part of the type. */
  private static boolean typedLiteral(TokenList t, int i) {
    return i > 0 && t.type(i - 1) == Token.WORD
        && (t.textEquals(i - 1, "date") || t.textEquals(i - 1, "time")
            || t.textEquals(i - 1, "timestamp"));
  }

  private static Literal number(String text) {
    if (text.length() > 1 && text.charAt(0) == '0'
        && (text.charAt(1) == 'x' || text.charAt(1) == 'X' || text.charAt(1) == 'b' || text.charAt(1) == 'B')) {
      return null; // hexadecimal or bit value: a string of bytes, not a number
    }
    return new Literal(true, text);
  }

  /** A plain '…' or "…" string's value, or null for forms that must stay verbatim. */
  private static Literal string(String sql, int start, int end, boolean escapes) {
    char quote = sql.charAt(start);
    if (quote != '\'' && quote != '"') {
      return null; // N'…', X'…', B'…', _charset'…'
    }
    if (end - start < 2 || sql.charAt(end - 1) != quote) {
      return null; // unterminated
    }
    StringBuilder v = new StringBuilder(end - start);
    for (int i = start + 1; i < end - 1; i++) {
      char c = sql.charAt(i);
      if (c == quote && i + 1 < end - 1 && sql.charAt(i + 1) == quote) {
        v.append(quote);
        i++;
      } else if (escapes && c == '\\' && i + 1 < end - 1) {
        char e = sql.charAt(++i);
        switch (e) {
          case '0':
            v.append('\0');
            break;
          case 'b':
            v.append('\b');
            break;
          case 'n':
            v.append('\n');
            break;
          case 'r':
            v.append('\r');
            break;
          case 't':
            v.append('\t');
            break;
          case 'Z':
            v.append('\u001a');
            break;
          case '%':
          case '_':
            v.append('\\').append(e); // kept with the backslash, as MySQL does
            break;
          default:
            v.append(e);
        }
      } else {
        v.append(c);
      }
    }
    return new Literal(false, v.toString());
  }
}
