package io.wireadvisor.sql;

/**
 * A single forward pass over the SQL text that yields MySQL tokens. Comments vanish here (hints
 * and the contents of version comments survive), so no later pass has to think about them.
 *
 * <p>Strings follow the connection's {@link Escaping}. A string that ends elsewhere with backslash
 * escapes than without them makes the text {@linkplain TokenList#dependsOnEscaping() depend on the
 * mode}; when the mode is not known (or, for a {@code "}-quoted string, {@code ANSI_QUOTES} may
 * make it an identifier read without escapes) that string runs to the end of the text and the
 * list is {@linkplain TokenList#cut() cut} there: what follows could be literal text in the
 * server's reading, so none of it becomes a token.
 */
final class SqlLexer {
  private static final String[] OPERATORS = {
    "<=>", "->>", "<=", ">=", "<>", "!=", ":=", "||", "&&", "<<", ">>", "->"
  };
  private static final String[] CHARSET_INTRODUCERS = {
    "_binary", "_utf8mb4", "_utf8mb3", "_utf8", "_latin1", "_ascii", "_gbk", "_gb18030",
    "_utf16", "_utf32", "_ucs2", "_big5"
  };

  private SqlLexer() {}

  /** Lexes {@code sql} safely for either mode ({@link Escaping#UNKNOWN}). */
  static TokenList lex(String sql) {
    return lex(sql, Escaping.UNKNOWN);
  }

  static TokenList lex(String sql, Escaping escaping) {
    TokenList out = new TokenList(sql);
    int n = sql.length();
    int i = 0;
    int depth = 0;
    int versionComments = 0;
    int[] open = new int[8];
    while (i < n) {
      char c = sql.charAt(i);
      if (c <= ' ') {
        i++;
      } else if (c == '#') {
        i = lineEnd(sql, i);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
          && (i + 2 == n || sql.charAt(i + 2) <= ' ')) {
        // MySQL needs whitespace after "--", so "a--1" is a minus minus one, not a comment.
        i = lineEnd(sql, i);
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        char third = i + 2 < n ? sql.charAt(i + 2) : 0;
        if (third == '+') {
          int close = commentEnd(sql, i + 3);
          out.add(Token.HINT, i, close, depth, null);
          i = close;
        } else if (third == '!' || (third == 'M' && i + 3 < n && sql.charAt(i + 3) == '!')) {
          // Version comments are executed by the server, so their contents are real tokens.
          versionComments++;
          i += third == '!' ? 3 : 4;
          while (i < n && isDigit(sql.charAt(i))) {
            i++;
          }
        } else {
          i = commentEnd(sql, i + 2);
        }
      } else if (c == '*' && versionComments > 0 && i + 1 < n && sql.charAt(i + 1) == '/') {
        versionComments--;
        i += 2;
      } else if (c == '\'' || c == '"') {
        i = string(sql, i, i, out, depth, escaping);
      } else if (c == '`') {
        int close = quotedIdentEnd(sql, i);
        out.add(Token.QUOTED_IDENT, i, close, depth, null);
        i = close;
      } else if (isDigit(c)
          || (c == '.' && i + 1 < n && isDigit(sql.charAt(i + 1)) && !followsName(out, i))) {
        i = number(sql, i, out, depth);
      } else if (c == '?') {
        out.add(Token.PARAM, i, i + 1, depth, null);
        i++;
      } else if (c == '@') {
        int close = variableEnd(sql, i, out, escaping);
        if (close < 0) {
          i = cut(sql, i, out, depth);
        } else {
          out.add(Token.VARIABLE, i, close, depth, null);
          i = close;
        }
      } else if (c == '(') {
        if (depth == open.length) {
          open = java.util.Arrays.copyOf(open, depth * 2);
        }
        open[depth++] = out.size();
        out.add(Token.LPAREN, i, i + 1, depth - 1, null);
        i++;
      } else if (c == ')') {
        if (depth > 0) {
          depth--;
          out.add(Token.RPAREN, i, i + 1, depth, null);
          out.link(open[depth], out.size() - 1);
        } else {
          out.add(Token.RPAREN, i, i + 1, 0, null);
        }
        i++;
      } else if (c == ',') {
        out.add(Token.COMMA, i, i + 1, depth, null);
        i++;
      } else if (c == ';') {
        out.add(Token.SEMICOLON, i, i + 1, depth, null);
        i++;
      } else if (c == '.') {
        out.add(Token.DOT, i, i + 1, depth, null);
        i++;
      } else if (isIdentStart(c)) {
        i = word(sql, i, out, depth, escaping);
      } else {
        int len = 1;
        for (String op : OPERATORS) {
          if (sql.startsWith(op, i)) {
            len = op.length();
            break;
          }
        }
        out.add(Token.OPERATOR, i, i + len, depth, null);
        i += len;
      }
    }
    return out;
  }

  private static int word(String sql, int from, TokenList out, int depth, Escaping escaping) {
    int n = sql.length();
    int i = from + 1;
    while (i < n && isIdentPart(sql.charAt(i))) {
      i++;
    }
    char first = sql.charAt(from);
    char next = i < n ? sql.charAt(i) : 0;
    if (i - from == 1 && next == '\'') {
      char f = Keyword.lowerAscii(first);
      if (f == 'n' || f == 'x' || f == 'b') {
        return string(sql, from, i, out, depth, escaping);
      }
    }
    if (first == '_') {
      int q = i;
      if (isIntroducer(sql, from, i)) {
        while (q < n && sql.charAt(q) <= ' ') {
          q++;
        }
      }
      if (q < n && (sql.charAt(q) == '\'' || sql.charAt(q) == '"')) {
        return string(sql, from, q, out, depth, escaping);
      }
    }
    out.add(Token.WORD, from, i, depth, Keyword.lookup(sql, from, i));
    return i;
  }

  private static int number(String sql, int from, TokenList out, int depth) {
    int n = sql.length();
    int i = from;
    char c = sql.charAt(i);
    char x = i + 1 < n ? Keyword.lowerAscii(sql.charAt(i + 1)) : 0;
    if (c == '0' && x == 'x' && i + 2 < n && isHex(sql.charAt(i + 2))) {
      i += 2;
      while (i < n && isHex(sql.charAt(i))) {
        i++;
      }
    } else if (c == '0' && x == 'b' && i + 2 < n && (sql.charAt(i + 2) == '0' || sql.charAt(i + 2) == '1')) {
      i += 2;
      while (i < n && (sql.charAt(i) == '0' || sql.charAt(i) == '1')) {
        i++;
      }
    } else {
      while (i < n && isDigit(sql.charAt(i))) {
        i++;
      }
      if (i < n && sql.charAt(i) == '.') {
        i++;
        while (i < n && isDigit(sql.charAt(i))) {
          i++;
        }
      }
      if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
        int j = i + 1;
        if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
          j++;
        }
        if (j < n && isDigit(sql.charAt(j))) {
          i = j;
          while (i < n && isDigit(sql.charAt(i))) {
            i++;
          }
        }
      }
    }
    if (i < n && isIdentPart(sql.charAt(i)) && sql.charAt(from) != '.') {
      // MySQL identifiers may start with digits (1a, 0xg): it is a name, not a number.
      while (i < n && isIdentPart(sql.charAt(i))) {
        i++;
      }
      out.add(Token.WORD, from, i, depth, null);
      return i;
    }
    out.add(Token.NUMBER, from, i, depth, null);
    return i;
  }

  /** "t.5" is column 5 of t, not t followed by 0.5. */
  private static boolean followsName(TokenList out, int pos) {
    int last = out.size() - 1;
    if (last < 0 || out.end(last) != pos) {
      return false;
    }
    int t = out.type(last);
    return t == Token.WORD || t == Token.QUOTED_IDENT;
  }

  private static boolean isIntroducer(String sql, int from, int to) {
    for (String cs : CHARSET_INTRODUCERS) {
      if (cs.length() == to - from && sql.regionMatches(true, from, cs, 0, cs.length())) {
        return true;
      }
    }
    return false;
  }

  private static int lineEnd(String sql, int i) {
    int nl = sql.indexOf('\n', i);
    return nl < 0 ? sql.length() : nl + 1;
  }

  private static int commentEnd(String sql, int from) {
    int close = sql.indexOf("*/", from);
    return close < 0 ? sql.length() : close + 2;
  }

  /**
   * Adds the string token that starts at {@code from} (an introducer or prefix, or the quote at
   * {@code quote}) and returns where lexing goes on: after the string, or at the end of the text
   * when the string was cut (see the class comment).
   */
  private static int string(
      String sql, int from, int quote, TokenList out, int depth, Escaping escaping) {
    int close = quotedEnd(sql, quote, out, escaping);
    if (close < 0) {
      return cut(sql, from, out, depth);
    }
    out.add(Token.STRING, from, close, depth, null);
    return close;
  }

  /** Everything from {@code from} on as one string: the text is cut there. */
  private static int cut(String sql, int from, TokenList out, int depth) {
    out.add(Token.STRING, from, sql.length(), depth, null);
    out.markCut();
    return sql.length();
  }

  /**
   * The end of the string opening at {@code open} in {@code escaping}'s reading, or -1 when it
   * depends on a mode that is not known. Linear in the string's length (a second pass only over a
   * string holding a backslash).
   */
  private static int quotedEnd(String sql, int open, TokenList out, Escaping escaping) {
    int withEscapes = stringEnd(sql, open, true);
    boolean backslash = false;
    for (int i = open + 1; i < withEscapes && !backslash; i++) {
      backslash = sql.charAt(i) == '\\';
    }
    if (!backslash) {
      return withEscapes; // both readings take the same steps
    }
    int without = stringEnd(sql, open, false);
    if (without == withEscapes) {
      return withEscapes;
    }
    out.markDependsOnEscaping();
    switch (escaping) {
      case NO_BACKSLASH:
        return without;
      case BACKSLASH:
        // Under ANSI_QUOTES (which no status flag reports) "..." is an identifier, read without
        // escapes: only a single-quoted string is certainly read with them.
        return sql.charAt(open) == '\'' ? withEscapes : -1;
      default:
        return -1;
    }
  }

  private static int stringEnd(String sql, int open, boolean escapes) {
    int n = sql.length();
    char q = sql.charAt(open);
    int i = open + 1;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\\' && escapes) {
        i += 2;
      } else if (c == q) {
        if (i + 1 < n && sql.charAt(i + 1) == q) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return n;
  }

  private static int quotedIdentEnd(String sql, int open) {
    int n = sql.length();
    char q = sql.charAt(open);
    int i = open + 1;
    while (i < n) {
      if (sql.charAt(i) == q) {
        if (i + 1 < n && sql.charAt(i + 1) == q) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return n;
  }

  /** The end of the variable at {@code at}, or -1 when its quoted name had to be cut. */
  private static int variableEnd(String sql, int at, TokenList out, Escaping escaping) {
    int n = sql.length();
    int i = at + 1;
    if (i < n && sql.charAt(i) == '@') {
      i++;
    }
    if (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        return quotedEnd(sql, i, out, escaping);
      }
      if (c == '`') {
        return quotedIdentEnd(sql, i);
      }
    }
    while (i < n) {
      char c = sql.charAt(i);
      if (isIdentPart(c)) {
        i++;
      } else if (c == '.' && i + 1 < n && isIdentPart(sql.charAt(i + 1))) {
        // @@session.autocommit is one variable; keeping it one token keeps probe checks simple.
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
  }

  static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c);
  }
}
