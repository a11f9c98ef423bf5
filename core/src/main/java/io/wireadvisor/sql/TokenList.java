package io.wireadvisor.sql;

import java.util.Arrays;

/**
 * The lexer's output as four parallel int arrays so a statement of n tokens costs 16n bytes
 * rather than n objects: start, end, matching parenthesis, and one packed word
 * {@code type | (keyword ordinal + 1) << 4 | depth << 12}. Accessors return neutral values past
 * the end, which lets the parsers look ahead without bounds checks.
 */
final class TokenList {
  final String sql;
  private int size;
  private static final Keyword[] KEYWORDS = Keyword.values();
  private static final int MAX_DEPTH = (1 << 19) - 1;

  private int[] info;
  private int[] start;
  private int[] end;
  private int[] match;

  TokenList(String sql) {
    this.sql = sql;
    // ORM SQL runs about one token per 3.4 chars; sized so it rarely grows.
    int capacity = Math.min(sql.length() / 3 + 8, 1 << 16);
    info = new int[capacity];
    start = new int[capacity];
    end = new int[capacity];
    match = new int[capacity];
  }

  void add(int tokenType, int from, int to, int parenDepth, Keyword kw) {
    if (size == info.length) {
      int capacity = size * 2;
      info = Arrays.copyOf(info, capacity);
      start = Arrays.copyOf(start, capacity);
      end = Arrays.copyOf(end, capacity);
      match = Arrays.copyOf(match, capacity);
    }
    info[size] = tokenType | (kw == null ? 0 : kw.ordinal() + 1) << 4
        | Math.min(parenDepth, MAX_DEPTH) << 12;
    start[size] = from;
    end[size] = to;
    match[size] = -1;
    size++;
  }

  private boolean dependsOnEscaping;
  private boolean cut;

  void markDependsOnEscaping() {
    dependsOnEscaping = true;
  }

  void markCut() {
    cut = true;
  }

  /** A string in the text ends elsewhere with backslash escapes than without them. */
  boolean dependsOnEscaping() {
    return dependsOnEscaping;
  }

  /**
   * The text was cut at a string whose end the lexer could not know (the last token, a STRING,
   * runs to the end of the text): what follows it is not read.
   */
  boolean cut() {
    return cut;
  }

  void link(int open, int close) {
    match[open] = close;
    match[close] = open;
  }

  int size() {
    return size;
  }

  int type(int i) {
    return i >= 0 && i < size ? info[i] & 0xF : 0;
  }

  int start(int i) {
    return start[i];
  }

  int end(int i) {
    return end[i];
  }

  int depth(int i) {
    return i >= 0 && i < size ? info[i] >>> 12 : -1;
  }

  /** Index of the matching parenthesis, or -1 when unbalanced. */
  int match(int i) {
    return i >= 0 && i < size ? match[i] : -1;
  }

  Keyword kw(int i) {
    if (i < 0 || i >= size) {
      return null;
    }
    int ordinal = (info[i] >>> 4) & 0xFF;
    return ordinal == 0 ? null : KEYWORDS[ordinal - 1];
  }

  boolean is(int i, Keyword k) {
    return kw(i) == k;
  }

  /** An unquoted non-reserved word or a backtick-quoted name: something that can name a table. */
  boolean isIdentifier(int i) {
    int t = type(i);
    if (t == Token.QUOTED_IDENT) {
      return true;
    }
    if (t != Token.WORD) {
      return false;
    }
    Keyword k = kw(i);
    return k == null || !k.reserved;
  }

  /** Lowercased identifier text, unquoted; allocates, so only for names the result keeps. */
  String identifier(int i) {
    if (type(i) == Token.QUOTED_IDENT) {
      String inner = sql.substring(start[i] + 1, Math.max(start[i] + 1, end[i] - 1));
      return inner.replace("``", "`").toLowerCase(java.util.Locale.ROOT);
    }
    return sql.substring(start[i], end[i]).toLowerCase(java.util.Locale.ROOT);
  }

  /** Case-insensitive comparison of token i's text with a lowercase ASCII string. */
  boolean textEquals(int i, String lower) {
    int len = end[i] - start[i];
    return len == lower.length() && sql.regionMatches(true, start[i], lower, 0, len);
  }
}
