package io.wireadvisor.capture;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.sql.Secrets;
import io.wireadvisor.sql.SqlClassifier;

/**
 * What a capture must not keep. Judged on the whole text as sent (string literals included, no
 * length cap): the classifier's digest is cut at 2,048 characters and has literals as {@code ?},
 * so {@code SELECT <2.5K of columns>; ALTER USER … IDENTIFIED BY '…'} or {@code PREPARE s FROM
 * 'ALTER USER … IDENTIFIED BY …'} would pass it (found in review). Deliberately broad: a statement
 * that merely names a password column is not captured either; replay skips it and says so. What
 * counts is {@link Secrets}': account management, encryption functions and their keys, credential
 * parameters of URLs, user-variable assignments of string literals.
 */
public final class Sensitive {
  private Sensitive() {}

  /**
   * Whether {@code sql} may carry a credential: account management, a key, anything naming one.
   * Read safely for either escaping mode.
   */
  public static boolean mayHoldCredentials(String sql) {
    return mayHoldCredentials(sql, Escaping.UNKNOWN);
  }

  /** As {@link #mayHoldCredentials(String)}, read as the server reads it in {@code escaping}. */
  public static boolean mayHoldCredentials(String sql, Escaping escaping) {
    if (sql == null) {
      return false;
    }
    return Secrets.mayHold(sql, escaping)
        || ProfileRecorder.mayHoldCredentials(SqlClassifier.classify(sql, escaping));
  }

  /**
   * Whether a template still holds a literal outside its {@code ?}: a quoted string, a hex or bit
   * literal, or a number of four digits or more (a card number in {@code CALL charge(4111…)}; small
   * numbers such as {@code LIMIT 10} or {@code ORDER BY 2} are kept). Masked captures drop such SQL.
   */
  public static boolean hasLiteral(String sql) {
    int n = sql.length();
    int digits = 0;
    boolean inWord = false;
    for (int i = 0; i < n; i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        return true;
      }
      if (c == '`') {
        int end = sql.indexOf('`', i + 1);
        if (end < 0) {
          return true; // unbalanced: not ours to judge
        }
        i = end;
        inWord = false;
        digits = 0;
        continue;
      }
      boolean wordChar = Character.isLetter(c) || c == '_' || c == '$';
      if (Character.isDigit(c)) {
        if (!inWord) {
          if (c == '0' && i + 1 < n && (sql.charAt(i + 1) == 'x' || sql.charAt(i + 1) == 'X'
              || sql.charAt(i + 1) == 'b' || sql.charAt(i + 1) == 'B')) {
            return true; // 0x… / 0b…
          }
          if (++digits >= 4) {
            return true;
          }
        }
        continue;
      }
      digits = 0;
      inWord = wordChar;
    }
    return false;
  }
}
