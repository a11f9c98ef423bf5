package io.wireadvisor.capture;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.sql.SqlClassifier;
import java.util.Locale;

/**
 * What a capture must not keep. Judged on the whole text as sent (string literals included, no
 * length cap): the classifier's digest is cut at 2,048 characters and has literals as {@code ?},
 * so {@code SELECT <2.5K of columns>; ALTER USER … IDENTIFIED BY '…'} or {@code PREPARE s FROM
 * 'ALTER USER … IDENTIFIED BY …'} would pass it (found in review). Deliberately broad: a statement
 * that merely names a password column is not captured either; replay skips it and says so.
 */
public final class Sensitive {
  /** Lower-case words whose presence anywhere in a statement marks it (backticks removed). */
  private static final String[] WORDS = {
    "identified", "password", "passwd", "authentication_string", "mysql.user", "global_priv",
    "aes_encrypt", "aes_decrypt", "des_encrypt", "des_decrypt", "encode(", "decode(", "secret",
    "token", "master_password", "source_password", "private_key", "credential",
  };

  private Sensitive() {}

  /** Whether {@code sql} may carry a credential: account management, a key, anything naming one. */
  public static boolean mayHoldCredentials(String sql) {
    if (sql == null) {
      return false;
    }
    String t = sql.replace("`", "").toLowerCase(Locale.ROOT);
    for (String w : WORDS) {
      if (t.contains(w)) {
        return true;
      }
    }
    return ProfileRecorder.mayHoldCredentials(SqlClassifier.classify(sql));
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
