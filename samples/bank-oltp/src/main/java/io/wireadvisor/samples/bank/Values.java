package io.wireadvisor.samples.bank;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Deterministic column values, shared by the data loader and the statement parameters so that
 * parameters look like the data: the same code format, date ranges and amounts.
 */
final class Values {
  static final LocalDate FIRST_DATE = LocalDate.of(2020, 1, 1);
  static final int DATE_SPAN_DAYS = 6 * 365;
  static final LocalDateTime FIRST_TIME = LocalDateTime.of(2025, 1, 1, 0, 0);
  static final int TIME_SPAN_SECONDS = 365 * 24 * 3600;
  private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

  private Values() {}

  /** The unique business code of reference row {@code id}, e.g. {@code CUR-12}. */
  static String code(String table, long id) {
    String prefix = table.replace("_", "").toUpperCase(Locale.ROOT);
    return prefix.substring(0, Math.min(6, prefix.length())) + "-" + id;
  }

  /**
   * A value for a non-key column: {@code code} and {@code name} derive from the row id; other
   * columns are random within ranges that suit their type and name.
   */
  static Object value(BankSchema.Table table, BankSchema.Column c, long id, SplittableRandom r) {
    return value(table, c, id, r, true);
  }

  /** Like {@link #value}, but never null: for parameters compared with {@code =}, {@code <=}. */
  static Object nonNull(BankSchema.Table table, BankSchema.Column c, SplittableRandom r) {
    return value(table, c, 0, r, false);
  }

  private static Object value(
      BankSchema.Table table, BankSchema.Column c, long id, SplittableRandom r, boolean nulls) {
    String n = c.name();
    if (n.equals("code")) {
      return code(table.name(), id);
    }
    if (n.equals("name")) {
      return table.name().replace('_', ' ') + " " + id;
    }
    if (nulls && c.nullable() && table.refOf(n) == null && r.nextInt(10) < 7) {
      return null;
    }
    switch (c.type()) {
      case "TINYINT":
        return n.equals("status") ? 1 + r.nextInt(3) : r.nextInt(4);
      case "SMALLINT":
        return r.nextInt(1000);
      case "INT":
        return n.equals("version") ? 0 : r.nextInt(100_000);
      case "BIGINT":
        return 1 + r.nextLong(1_000_000);
      case "DECIMAL":
        return decimal(c, r);
      case "DATE":
        return FIRST_DATE.plusDays(r.nextInt(DATE_SPAN_DAYS));
      case "DATETIME":
        return FIRST_TIME.plusSeconds(r.nextInt(TIME_SPAN_SECONDS));
      case "CHAR":
        return letters(r, c.length());
      case "VARCHAR":
        return letters(r, Math.min(c.length(), 8 + r.nextInt(Math.max(1, Math.min(c.length(), 120) - 7))));
      default:
        throw new IllegalArgumentException("no generator for " + table + "." + n + " " + c.type());
    }
  }

  private static BigDecimal decimal(BankSchema.Column c, SplittableRandom r) {
    // DECIMAL(9,6) rates in [0, 0.2); DECIMAL(18,8) FX rates in [0.5, 2.5); amounts in [0, 5000).
    if (c.scale() >= 8) {
      return BigDecimal.valueOf(50_000_000L + r.nextLong(200_000_000L), 8);
    }
    if (c.scale() >= 6) {
      return BigDecimal.valueOf(r.nextLong(200_000L), 6);
    }
    return BigDecimal.valueOf(r.nextLong(500_000L), 2);
  }

  private static String letters(SplittableRandom r, int len) {
    char[] s = new char[len];
    for (int i = 0; i < len; i++) {
      s[i] = LETTERS.charAt(r.nextInt(LETTERS.length()));
    }
    return new String(s);
  }
}
