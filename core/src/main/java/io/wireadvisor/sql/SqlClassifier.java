package io.wireadvisor.sql;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Classifies MySQL/TiDB SQL text: digest, kind, tables, session probe. A hand-written
 * single-pass lexer and a few linear walks over its tokens, no parser: it runs inside a
 * -javaagent and a proxy once per statement text they have not seen (the recorder keeps texts and
 * shapes in byte-bounded maps).
 *
 * <p>Best effort by design: SQL it does not understand still gets a digest and kind
 * {@link StatementKind#OTHER}; nothing here throws.
 */
public final class SqlClassifier {
  private static final List<String> NONE = Collections.emptyList();
  private static final Escaping[] ESCAPINGS = Escaping.values();

  private SqlClassifier() {}

  /**
   * Characters of a statement that are read to classify it. The shape of a statement is decided by
   * its head (a multi-megabyte {@code INSERT ... VALUES} is a multi-row insert after its first
   * row), so no statement costs more than this much lexing, whatever its length; a longer one is
   * classified on its first {@value} characters, its digest text ends with {@code " ..."}, and
   * literal rows or IN lists cut off at the end collapse as if complete.
   */
  public static final int PREFIX_CHARS = 64 * 1024;
  /** Longest digest text kept; a longer one is cut and ends with {@code " ..."}. */
  public static final int MAX_DIGEST_TEXT = 2048;
  /** Tables kept per list (read, written); a statement naming more keeps the first ones. */
  public static final int MAX_TABLES = 64;

  private static final java.util.concurrent.atomic.AtomicInteger MOST_CHARS_LEXED =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * Classifies one statement without caching; on a hot path callers look the text up first (the
   * agent's {@code TextCache}, the recorder's shape map).
   * Reads at most {@link #PREFIX_CHARS} characters of it.
   *
   * Reads the text safely for either escaping mode ({@link Escaping#UNKNOWN}); a collector that
   * knows its connection's mode passes it to {@link #classify(String, Escaping)}.
   *
   * @param sql the statement text as sent; null is treated as empty
   * @return the classification, never null
   */
  public static Classification classify(String sql) {
    return classify(sql, Escaping.UNKNOWN);
  }

  /**
   * Classifies one statement as the server reads it in {@code escaping} (see {@link Escaping}).
   *
   * @param sql the statement text as sent; null is treated as empty
   * @param escaping the connection's mode; {@link Escaping#UNKNOWN} when not known
   * @return the classification, never null
   */
  public static Classification classify(String sql, Escaping escaping) {
    String text = sql == null ? "" : sql;
    if (text.length() <= PREFIX_CHARS) {
      return classifyHead(text, text.length(), false, escaping);
    }
    return classifyHead(head(text, PREFIX_CHARS), text.length(), true, escaping);
  }

  /**
   * Classifies a statement of which only {@code head} is at hand.
   *
   * @param head the statement's first characters (at most {@link #PREFIX_CHARS} are read)
   * @param sqlLength the whole statement's length, reported as {@link Classification#sqlLength()}
   * @param truncated whether the statement continues after {@code head}
   */
  public static Classification classifyHead(String head, int sqlLength, boolean truncated) {
    return classifyHead(head, sqlLength, truncated, Escaping.UNKNOWN);
  }

  /**
   * As {@link #classifyHead(String, int, boolean)}, read as the server reads it in {@code
   * escaping}.
   */
  public static Classification classifyHead(
      String head, int sqlLength, boolean truncated, Escaping escaping) {
    if (escaping == null) {
      escaping = Escaping.UNKNOWN;
    }
    String text = head == null ? "" : head;
    if (text.length() > PREFIX_CHARS) {
      text = head(text, PREFIX_CHARS);
      truncated = true;
    }
    MOST_CHARS_LEXED.accumulateAndGet(text.length(), Math::max);
    try {
      TokenList tokens = SqlLexer.lex(text, escaping);
      int change = SqlModeChange.of(tokens);
      boolean dependent = tokens.dependsOnEscaping();
      if (change != SqlModeChange.NONE && (change & SqlModeChange.MORE) != 0
          && escaping != Escaping.UNKNOWN) {
        // SET sql_mode=...; SELECT ...: the server reads the rest in the new mode.
        tokens = SqlLexer.lex(text, Escaping.UNKNOWN);
        dependent |= tokens.dependsOnEscaping();
      }
      boolean cut = tokens.cut();
      if (change == SqlModeChange.NONE && cut && escaping != Escaping.UNKNOWN) {
        change = Escaping.UNKNOWN.ordinal(); // the unread rest may set sql_mode
      }
      String digestText = DigestBuilder.digestText(tokens, truncated || cut);
      int main = KindDetector.mainIndex(tokens);
      StatementKind kind = KindDetector.kind(tokens, main);
      TableExtractor tables = TableExtractor.extract(tokens, kind, main);
      ProbeKind probe = truncated || cut ? null : ProbeDetector.detect(tokens, kind, main);
      return new Classification(DigestBuilder.digest(digestText), cap(digestText), kind,
          first(tables.read), first(tables.written), probe, sqlLength,
          KindDetector.lockingRead(tokens, kind), dependent, cut,
          change == SqlModeChange.NONE ? null : ESCAPINGS[change & 0xF],
          truncated || cut ? null : TransactionSet.of(tokens));
    } catch (RuntimeException | StackOverflowError e) {
      // Never let odd input break the application being observed: keep a crude shape.
      String digestText = fallbackText(text) + (truncated ? " ..." : "");
      return new Classification(DigestBuilder.digest(digestText), cap(digestText),
          StatementKind.OTHER, NONE, NONE, null, sqlLength, false);
    }
  }

  /**
   * The most characters any classification in this JVM has lexed (for tests: never more than
   * {@link #PREFIX_CHARS}).
   */
  public static int mostCharsLexed() {
    return MOST_CHARS_LEXED.get();
  }

  /** The first {@code n} chars of {@code s}, not splitting a surrogate pair. */
  static String head(String s, int n) {
    int end = Math.min(n, s.length());
    if (end > 0 && end < s.length() && Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end);
  }

  private static String cap(String digestText) {
    return digestText.length() <= MAX_DIGEST_TEXT
        ? digestText
        : head(digestText, MAX_DIGEST_TEXT - 4) + " ...";
  }

  private static List<String> first(List<String> tables) {
    return tables.size() <= MAX_TABLES
        ? tables
        : Collections.unmodifiableList(new java.util.ArrayList<>(tables.subList(0, MAX_TABLES)));
  }

  /**
   * The normalized digest text alone (see {@link Classification#digestText()}).
   *
   * @param sql the statement text; null is treated as empty
   * @return the digest text, never null
   */
  public static String normalize(String sql) {
    return normalize(sql, Escaping.UNKNOWN);
  }

  /** The normalized digest text of {@code sql} read in {@code escaping}. */
  public static String normalize(String sql, Escaping escaping) {
    String text = sql == null ? "" : sql;
    try {
      TokenList tokens = SqlLexer.lex(text, escaping == null ? Escaping.UNKNOWN : escaping);
      return DigestBuilder.digestText(tokens, tokens.cut());
    } catch (RuntimeException | StackOverflowError e) {
      return fallbackText(text);
    }
  }

  /**
   * The shape of a text the classifier failed on: its first word and {@code " ..."}. Never more:
   * the rest may be literals (the text as sent, lowercased, was a digest here until issue 28).
   */
  private static String fallbackText(String text) {
    int i = 0;
    int n = text.length();
    while (i < n && !Character.isLetter(text.charAt(i))) {
      i++;
    }
    int from = i;
    while (i < n && i - from < 32 && (Character.isLetter(text.charAt(i)) || text.charAt(i) == '_')) {
      i++;
    }
    return text.substring(from, i).toLowerCase(Locale.ROOT) + " ...";
  }
}
