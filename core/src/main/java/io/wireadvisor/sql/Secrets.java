package io.wireadvisor.sql;

import java.util.Locale;

/**
 * Whether a statement text may carry a secret in a literal, judged on the whole text as sent: what
 * a capture must not keep and {@code --sample-sql} must not sample. Deliberately broad (a statement
 * merely naming a password column counts too); the digest has literals as {@code ?} and is safe
 * either way.
 *
 * <ul>
 *   <li>words naming credentials anywhere: account management ({@code IDENTIFIED}, {@code
 *       PASSWORD}), {@code SECRET}, {@code TOKEN}, {@code CREDENTIAL}, private keys;
 *   <li>encryption and key functions, whose arguments are keys ({@code AES_ENCRYPT(…, 'key')},
 *       {@code DES_*}, {@code ENCODE}/{@code DECODE}, {@code ENCRYPT}, TiDB's {@code SM4_*},
 *       {@code ASYMMETRIC_*}, key generation);
 *   <li>credential parameters of URLs ({@code BACKUP … TO 's3://…?access-key=…&secret-access-key=…'},
 *       {@code azure://…?account-key=…}, SAS tokens' {@code sig=}, {@code password=});
 *   <li>user-variable assignments of string literals or parameters ({@code SET @k = 'key'}, {@code
 *       SET @k := UNHEX('…')}, {@code SELECT @k := '…'}, {@code SELECT '…' INTO @k}, {@code SET @k =
 *       ?}): the value is often a key used later as {@code AES_ENCRYPT(c, @k)}.
 * </ul>
 */
public final class Secrets {
  /** Lower-case fragments whose presence anywhere in a statement marks it (backticks removed). */
  private static final String[] WORDS = {
    "identified", "password", "passwd", "authentication_string", "mysql.user", "global_priv",
    "secret", "token", "master_password", "source_password", "private_key", "credential",
    // encryption functions (also matched as function calls below, with spaces before the '(')
    "aes_encrypt", "aes_decrypt", "des_encrypt", "des_decrypt", "encode(", "decode(",
    "encrypt(", "decrypt(", "sm4_", "asymmetric_", "keyring_",
    // URL and connection-string credential parameters
    "account-key", "account_key", "accountkey", "access-key", "access_key", "accesskey",
    "sas-token", "sas_token", "sastoken", "sig=", "signature=", "sharedaccess", "api-key",
    "api_key", "apikey", "pwd=",
  };

  /** Functions whose arguments include a key, a password or a salt. */
  private static final String[] FUNCTIONS = {
    "aes_encrypt", "aes_decrypt", "des_encrypt", "des_decrypt", "encode", "decode", "encrypt",
    "sm4_encrypt", "sm4_decrypt", "password", "old_password", "asymmetric_encrypt",
    "asymmetric_decrypt", "asymmetric_sign", "asymmetric_verify", "asymmetric_derive",
    "create_asymmetric_priv_key", "create_asymmetric_pub_key", "create_dh_parameters",
    "validate_password_strength", "keyring_key_store", "keyring_key_generate",
  };

  private Secrets() {}

  /** {@link #mayHold(String, Escaping)} read safely for either mode. */
  public static boolean mayHold(String sql) {
    return mayHold(sql, Escaping.UNKNOWN);
  }

  /**
   * Whether {@code sql}, read as the server reads it in {@code escaping}, may carry a secret (see
   * the class comment).
   */
  public static boolean mayHold(String sql, Escaping escaping) {
    if (sql == null) {
      return false;
    }
    String t = sql.replace("`", "").toLowerCase(Locale.ROOT);
    for (String w : WORDS) {
      if (t.contains(w)) {
        return true;
      }
    }
    try {
      return inTokens(SqlLexer.lex(sql, escaping == null ? Escaping.UNKNOWN : escaping));
    } catch (RuntimeException | StackOverflowError e) {
      return true; // not read: not kept
    }
  }

  private static boolean inTokens(TokenList t) {
    int n = t.size();
    int statement = 0;
    boolean set = false;
    boolean hasLiteral = false;
    boolean assigns = false;
    for (int i = 0; i < n; i++) {
      int type = t.type(i);
      if (type == Token.SEMICOLON) {
        if (assigns && hasLiteral) {
          return true;
        }
        statement = i + 1;
        set = false;
        hasLiteral = false;
        assigns = false;
        continue;
      }
      if (i == statement) {
        set = t.is(i, Keyword.SET);
      }
      if (type == Token.WORD && t.type(i + 1) == Token.LPAREN && isFunction(t, i)) {
        return true;
      }
      if (isSecretLiteral(t, i)) {
        hasLiteral = true;
        if (t.cut() && i == n - 1 && t.sql.indexOf('@', t.start(i)) >= 0) {
          return true; // an assignment may hide in the unread rest
        }
      }
      if (type == Token.VARIABLE && isUserVariable(t, i)) {
        boolean assign = t.type(i + 1) == Token.OPERATOR
            && (t.textEquals(i + 1, ":=") || (set && t.textEquals(i + 1, "=")));
        boolean into = t.is(i - 1, Keyword.INTO)
            || (t.type(i - 1) == Token.COMMA && t.type(i - 2) == Token.VARIABLE);
        if (assign && set) {
          if (valueHasLiteral(t, i + 2)) {
            return true;
          }
        } else if (assign || into) {
          assigns = true;
        }
      }
    }
    return assigns && hasLiteral;
  }

  /** In a SET: whether the value from {@code from} to the next top-level comma holds a literal. */
  private static boolean valueHasLiteral(TokenList t, int from) {
    int depth = t.depth(from - 2);
    for (int i = from; i < t.size(); i++) {
      int type = t.type(i);
      if (type == Token.SEMICOLON || (type == Token.COMMA && t.depth(i) == depth)) {
        return false;
      }
      if (isSecretLiteral(t, i)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A string, a hexadecimal or bit number (a key as {@code 0x…}), or a parameter: {@code SET @k = ?}
   * executed over the binary protocol carries the key as a bound value.
   */
  private static boolean isSecretLiteral(TokenList t, int i) {
    int type = t.type(i);
    if (type == Token.STRING || type == Token.PARAM) {
      return true;
    }
    if (type == Token.NUMBER && t.end(i) - t.start(i) > 2 && t.sql.charAt(t.start(i)) == '0') {
      char x = t.sql.charAt(t.start(i) + 1);
      return x == 'x' || x == 'X' || x == 'b' || x == 'B';
    }
    return false;
  }

  private static boolean isUserVariable(TokenList t, int i) {
    return t.end(i) - t.start(i) > 1 && t.sql.charAt(t.start(i) + 1) != '@';
  }

  private static boolean isFunction(TokenList t, int i) {
    for (String f : FUNCTIONS) {
      if (t.textEquals(i, f)) {
        return true;
      }
    }
    return false;
  }
}
