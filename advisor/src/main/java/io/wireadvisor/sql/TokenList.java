package io.wireadvisor.sql;

import java.util.Arrays;

/**
 * The lexer's output as parallel int arrays (type, start, end, paren depth, matching paren) so a
 * statement of n tokens costs a handful of arrays rather than n objects. Accessors return neutral
 * values past the end, which lets the parsers look ahead without bounds checks.
 */
final class TokenList {
  final String sql;
  private int size;
  private int[] type;
  private int[] start;
  private int[] end;
  private int[] depth;
  private int[] match;
  private Keyword[] keyword;

  TokenList(String sql) {
    this.sql = sql;
    int capacity = Math.max(8, sql.length() / 4);
    type = new int[capacity];
    start = new int[capacity];
    end = new int[capacity];
    depth = new int[capacity];
    match = new int[capacity];
    keyword = new Keyword[capacity];
  }

  void add(int tokenType, int from, int to, int parenDepth, Keyword kw) {
    if (size == type.length) {
      int capacity = size * 2;
      type = Arrays.copyOf(type, capacity);
      start = Arrays.copyOf(start, capacity);
      end = Arrays.copyOf(end, capacity);
      depth = Arrays.copyOf(depth, capacity);
      match = Arrays.copyOf(match, capacity);
      keyword = Arrays.copyOf(keyword, capacity);
    }
    type[size] = tokenType;
    start[size] = from;
    end[size] = to;
    depth[size] = parenDepth;
    match[size] = -1;
    keyword[size] = kw;
    size++;
  }

  void link(int open, int close) {
    match[open] = close;
    match[close] = open;
  }

  int size() {
    return size;
  }

  int type(int i) {
    return i >= 0 && i < size ? type[i] : 0;
  }

  int start(int i) {
    return start[i];
  }

  int end(int i) {
    return end[i];
  }

  int depth(int i) {
    return i >= 0 && i < size ? depth[i] : -1;
  }

  /** Index of the matching parenthesis, or -1 when unbalanced. */
  int match(int i) {
    return i >= 0 && i < size ? match[i] : -1;
  }

  Keyword kw(int i) {
    return i >= 0 && i < size ? keyword[i] : null;
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
    Keyword k = keyword[i];
    return k == null || !k.reserved;
  }

  /** Lowercased identifier text, unquoted; allocates, so only for names the result keeps. */
  String identifier(int i) {
    if (type[i] == Token.QUOTED_IDENT) {
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
