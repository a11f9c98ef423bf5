package io.wireadvisor.sql;

/** Token types produced by {@link SqlLexer}; ints rather than an enum so token arrays stay flat. */
final class Token {
  /** Unquoted identifier or keyword. */
  static final int WORD = 1;
  /** Backtick-quoted identifier. */
  static final int QUOTED_IDENT = 2;
  /** String literal, including charset introducers, N'', X'' and B'' forms. */
  static final int STRING = 3;
  /** Numeric literal: integer, decimal, exponent, 0x hex, 0b bits. */
  static final int NUMBER = 4;
  /** A {@code ?} placeholder. */
  static final int PARAM = 5;
  /** {@code @user_var} or {@code @@[scope.]system_var}. */
  static final int VARIABLE = 6;
  static final int LPAREN = 7;
  static final int RPAREN = 8;
  static final int COMMA = 9;
  static final int DOT = 10;
  static final int SEMICOLON = 11;
  /** Any other operator or punctuation, possibly several characters ({@code <=>}, {@code ->>}). */
  static final int OPERATOR = 12;
  /** An optimizer hint comment {@code /*+ ... *}{@code /}; kept because it changes the plan. */
  static final int HINT = 13;

  private Token() {}

  static boolean isLiteral(int type) {
    return type == STRING || type == NUMBER || type == PARAM;
  }
}
