package io.wireadvisor.sql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Turns tokens into the normalized digest text (the shape of the statement, in the spirit of
 * TiDB's {@code parser.Normalize} and MySQL's statement digest) and hashes it.
 *
 * <p>Spacing: one space between tokens, none before {@code , ) .} and none after {@code ( .}.
 */
final class DigestBuilder {
  private static final String COLLAPSED = "( ... )";
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final MessageDigest SHA256_PROTOTYPE = sha256OrNull();

  private final TokenList t;
  private final String sql;
  private final StringBuilder out;
  /** The text is the head of a longer statement: rows and lists cut off at the end collapse. */
  private final boolean truncated;
  /** The cut fell inside literal rows or a literal IN list: the head's shape is the statement's. */
  private boolean collapsedAtCut;

  // The last token written: whether it ends a value decides if a following sign is unary.
  private int lastType;
  private boolean lastValue;

  private DigestBuilder(TokenList tokens, boolean truncated) {
    this.truncated = truncated;
    this.t = tokens;
    this.sql = tokens.sql;
    this.out = new StringBuilder(Math.min(sql.length() + 16, 1 << 16));
  }

  static String digestText(TokenList tokens, boolean truncated) {
    return new DigestBuilder(tokens, truncated).build();
  }

  private String build() {
    int n = t.size();
    while (n > 0 && t.type(n - 1) == Token.SEMICOLON) {
      n--;
    }
    for (int i = 0; i < n; i++) {
      int type = t.type(i);
      Keyword kw = t.kw(i);
      if (truncated && (kw == Keyword.IN || kw == Keyword.VALUES || kw == Keyword.VALUE)
          && t.type(i + 1) == Token.LPAREN && literalsToTheCut(i + 1)) {
        // The statement was cut inside its literal list or rows: the rest is more of the same.
        word(i);
        raw(COLLAPSED, Token.PARAM, true);
        collapsedAtCut = true;
        break;
      } else if ((kw == Keyword.IN) && t.type(i + 1) == Token.LPAREN && isLiteralList(i + 1)) {
        word(i);
        raw(COLLAPSED, Token.PARAM, true);
        i = t.match(i + 1);
      } else if ((kw == Keyword.VALUES || kw == Keyword.VALUE) && t.type(i + 1) == Token.LPAREN) {
        int last = literalRowsEnd(i + 1);
        word(i);
        if (last > 0) {
          raw(COLLAPSED, Token.PARAM, true);
          i = last;
        }
      } else if (isSign(i) && !lastValue && signedLiteralAt(i)) {
        // A unary sign belongs to the literal: "-1", "- -1", "-?" and "?" are the same shape.
        continue;
      } else if (Token.isLiteral(type)) {
        raw("?", Token.PARAM, true);
      } else if (type == Token.WORD) {
        word(i);
      } else if (type == Token.QUOTED_IDENT) {
        quotedIdentifier(i);
      } else if (type == Token.HINT) {
        hint(i);
      } else {
        copy(i, type);
      }
    }
    if (truncated && !collapsedAtCut) {
      out.append(" ...");
    }
    return out.toString();
  }

  /**
   * Whether, from {@code open} to the last token, there are only literal rows and the last one is
   * left open by the cut (the cut may also split the last token: any literal or word counts).
   */
  private boolean literalsToTheCut(int open) {
    int n = t.size();
    if (t.match(open) >= 0 && t.match(open) == n - 1) {
      return false; // complete: the ordinary rules apply
    }
    int depth = 0;
    for (int i = open; i < n; i++) {
      int type = t.type(i);
      if (type == Token.LPAREN) {
        if (++depth > 1) {
          return false;
        }
      } else if (type == Token.RPAREN) {
        if (--depth < 0) {
          return false;
        }
      } else if (!(type == Token.COMMA || isLiteral(i) || isSign(i)
          || (i == n - 1 && type == Token.WORD))) {
        return false;
      }
    }
    return depth == 1 || t.type(n - 1) == Token.COMMA;
  }

  private boolean isLiteralList(int open) {
    int close = t.match(open);
    if (close < 0 || close == open + 1) {
      return false;
    }
    int i = open + 1;
    while (true) {
      if (isSign(i) && signedLiteralAt(i)) {
        while (isSign(i)) {
          i++;
        }
      }
      if (!isLiteral(i)) {
        return false;
      }
      i++;
      if (i == close) {
        return true;
      }
      if (t.type(i) != Token.COMMA) {
        return false;
      }
      i++;
    }
  }

  /** Index of the last ')' when every row after VALUES is literals only, else -1. */
  private int literalRowsEnd(int open) {
    int p = open;
    while (true) {
      if (!isLiteralList(p)) {
        return -1;
      }
      int close = t.match(p);
      if (t.type(close + 1) == Token.COMMA && t.type(close + 2) == Token.LPAREN) {
        p = close + 2;
      } else {
        return close;
      }
    }
  }

  private boolean isLiteral(int i) {
    int type = t.type(i);
    if (Token.isLiteral(type)) {
      return true;
    }
    Keyword k = t.kw(i);
    return k == Keyword.NULL || k == Keyword.TRUE || k == Keyword.FALSE;
  }

  private boolean signedLiteralAt(int sign) {
    int i;
    if (sign > signRunFrom && sign < signRunEnd) {
      // Inside the run scanned last: it ends where it ended then. Without this, a run of k signs
      // ("- - - ... 1") costs k^2 token checks: 64 KiB of them stalled a proxy event loop ~1 s.
      i = signRunEnd;
    } else {
      i = sign + 1;
      while (isSign(i)) {
        i++;
      }
      signRunFrom = sign;
      signRunEnd = i;
    }
    return Token.isLiteral(t.type(i));
  }

  /** The sign run scanned last by {@link #signedLiteralAt}: signs at [from, end), end the token after. */
  private int signRunFrom = -1;
  private int signRunEnd = -1;

  /** Tokens examined by {@link #isSign}: the work a statement costs, linear in its tokens. */
  private long signChecks;

  /** How many sign checks the digest of {@code tokens} takes (for tests of the work bound). */
  static long signChecks(TokenList tokens) {
    DigestBuilder b = new DigestBuilder(tokens, false);
    b.build();
    return b.signChecks;
  }

  private boolean isSign(int i) {
    signChecks++;
    if (t.type(i) != Token.OPERATOR || t.end(i) - t.start(i) != 1) {
      return false;
    }
    char c = sql.charAt(t.start(i));
    return c == '-' || c == '+';
  }

  private void word(int i) {
    separate(Token.WORD);
    for (int p = t.start(i), e = t.end(i); p < e; p++) {
      out.append(lower(sql.charAt(p)));
    }
    Keyword k = t.kw(i);
    boolean value = k == null || !k.reserved || k == Keyword.NULL || k == Keyword.TRUE
        || k == Keyword.FALSE;
    remember(Token.WORD, value);
  }

  private void quotedIdentifier(int i) {
    int from = t.start(i) + 1;
    int to = t.end(i) - 1;
    boolean plain = to > from;
    boolean allDigits = true;
    for (int p = from; p < to && plain; p++) {
      char c = sql.charAt(p);
      plain = (c < 0x80 && SqlLexer.isIdentPart(c));
      allDigits &= SqlLexer.isDigit(c);
    }
    if (plain && (allDigits || Keyword.lookup(sql, from, to) != null)) {
      // Reserved words and all-digit names are only names while quoted.
      Keyword k = Keyword.lookup(sql, from, to);
      plain = !allDigits && (k == null || !k.reserved);
    }
    separate(Token.QUOTED_IDENT);
    if (!plain) {
      out.append('`');
    }
    for (int p = from; p < to; p++) {
      out.append(lower(sql.charAt(p)));
    }
    if (!plain) {
      out.append('`');
    }
    remember(Token.QUOTED_IDENT, true);
  }

  private void hint(int i) {
    separate(Token.HINT);
    int from = t.start(i) + 3;
    int to = t.end(i);
    if (to - 2 >= from && sql.startsWith("*/", to - 2)) {
      to -= 2;
    }
    out.append("/*+");
    boolean pendingSpace = true;
    for (int p = from; p < to; p++) {
      char c = sql.charAt(p);
      if (c <= ' ') {
        pendingSpace = true;
      } else {
        if (pendingSpace) {
          out.append(' ');
          pendingSpace = false;
        }
        out.append(lower(c));
      }
    }
    out.append(" */");
    remember(Token.HINT, false);
  }

  private void copy(int i, int type) {
    separate(type);
    for (int p = t.start(i), e = t.end(i); p < e; p++) {
      out.append(lower(sql.charAt(p)));
    }
    boolean value = type == Token.RPAREN || type == Token.VARIABLE;
    remember(type, value);
  }

  private void raw(String text, int type, boolean value) {
    separate(type);
    out.append(text);
    remember(type, value);
  }

  private void separate(int type) {
    if (out.length() > 0 && type != Token.COMMA && type != Token.RPAREN && type != Token.DOT
        && lastType != Token.LPAREN && lastType != Token.DOT) {
      out.append(' ');
    }
  }

  private void remember(int type, boolean value) {
    lastType = type;
    lastValue = value;
  }

  private static char lower(char c) {
    if (c < 0x80) {
      return Keyword.lowerAscii(c);
    }
    return Character.toLowerCase(c);
  }

  /** First 16 bytes of SHA-256 over the UTF-8 text, as 32 lowercase hex characters. */
  static String digest(String digestText) {
    byte[] hash = sha256().digest(digestText.getBytes(StandardCharsets.UTF_8));
    char[] hex = new char[32];
    for (int i = 0; i < 16; i++) {
      hex[2 * i] = HEX[(hash[i] >> 4) & 0xF];
      hex[2 * i + 1] = HEX[hash[i] & 0xF];
    }
    return new String(hex);
  }

  private static MessageDigest sha256() {
    if (SHA256_PROTOTYPE != null) {
      try {
        // Cloning skips the provider lookup that getInstance does on every call.
        return (MessageDigest) SHA256_PROTOTYPE.clone();
      } catch (CloneNotSupportedException e) {
        // fall through
      }
    }
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  private static MessageDigest sha256OrNull() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      return null;
    }
  }
}
