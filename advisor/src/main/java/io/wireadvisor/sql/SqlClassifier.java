package io.wireadvisor.sql;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Classifies MySQL/TiDB SQL text: digest, kind, tables, session probe. A hand-written
 * single-pass lexer and a few linear walks over its tokens, no parser: it runs inside a
 * -javaagent and a proxy for every statement not already in a {@link ClassificationCache}.
 *
 * <p>Best effort by design: SQL it does not understand still gets a digest and kind
 * {@link StatementKind#OTHER}; nothing here throws.
 */
public final class SqlClassifier {
  private static final List<String> NONE = Collections.emptyList();

  private SqlClassifier() {}

  /**
   * Classifies one statement without caching; use {@link ClassificationCache} on a hot path.
   *
   * @param sql the statement text as sent; null is treated as empty
   * @return the classification, never null
   */
  public static Classification classify(String sql) {
    String text = sql == null ? "" : sql;
    try {
      TokenList tokens = SqlLexer.lex(text);
      String digestText = DigestBuilder.digestText(tokens);
      int main = KindDetector.mainIndex(tokens);
      StatementKind kind = KindDetector.kind(tokens, main);
      TableExtractor tables = TableExtractor.extract(tokens, kind, main);
      ProbeKind probe = ProbeDetector.detect(tokens, kind, main);
      return new Classification(DigestBuilder.digest(digestText), digestText, kind, tables.read,
          tables.written, probe, text.length());
    } catch (RuntimeException | StackOverflowError e) {
      // Never let odd input break the application being observed: keep a crude shape.
      String digestText = fallbackText(text);
      return new Classification(DigestBuilder.digest(digestText), digestText,
          StatementKind.OTHER, NONE, NONE, null, text.length());
    }
  }

  /**
   * The normalized digest text alone (see {@link Classification#digestText()}).
   *
   * @param sql the statement text; null is treated as empty
   * @return the digest text, never null
   */
  public static String normalize(String sql) {
    String text = sql == null ? "" : sql;
    try {
      return DigestBuilder.digestText(SqlLexer.lex(text));
    } catch (RuntimeException | StackOverflowError e) {
      return fallbackText(text);
    }
  }

  private static String fallbackText(String text) {
    return text.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }
}
