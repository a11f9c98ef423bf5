package io.wireadvisor.advisor;

import java.util.Locale;

/** Number formatting shared by rules and reports. */
public final class Fmt {
  private Fmt() {}

  /** 1234567 -> "1,234,567". */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** 0.9 -> "90.0%"; NaN -> "n/a". */
  public static String percent(double share) {
    return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  /** Two decimals; NaN -> "n/a". */
  public static String ratio(double v) {
    return Metric.format(v);
  }

  /** One decimal. */
  public static String rate(double v) {
    return String.format(Locale.ROOT, "%,.1f", v);
  }

  /** Bytes as B/KiB/MiB/GiB. */
  public static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    double v = b;
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** A digest text cut to {@code max} chars with an ellipsis. */
  public static String sql(String text, int max) {
    String t = text == null ? "" : text;
    return printable(t.length() <= max ? t : t.substring(0, max - 3) + "...");
  }

  /**
   * {@code text} with control and bidirectional-override characters written as a backslash, u and
   * four hex digits: names and SQL come from profiles, and a terminal must not act on what a
   * report quotes.
   */
  public static String printable(String text) {
    StringBuilder sb = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean unsafe = Character.isISOControl(c) || (c >= '\u202a' && c <= '\u202e')
          || (c >= '\u2066' && c <= '\u2069');
      if (unsafe && sb == null) {
        sb = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (sb != null) {
        if (unsafe) {
          sb.append(String.format("\\u%04x", (int) c));
        } else {
          sb.append(c);
        }
      }
    }
    return sb == null ? text : sb.toString();
  }

  /** The smallest "round" number >= n: multiples of 25 up to 500, of 100 up to 5000, else 1000. */
  public static long roundUp(long n) {
    long step = n <= 500 ? 25 : n <= 5000 ? 100 : 1000;
    return ((Math.max(1, n) + step - 1) / step) * step;
  }

  /** The smallest power of two >= n (at least 1). */
  public static long powerOfTwoAtLeast(long n) {
    long p = 1;
    while (p < n) {
      p <<= 1;
    }
    return p;
  }
}
