package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class SqlClassifierPropertiesTest {

  /** Statement shapes; each {@code ?} is a literal slot and {@code IN(*)}/{@code VALUES(*)} a list. */
  private static final List<String> TEMPLATES = List.of(
      "SELECT c FROM sbtest1 WHERE id = ?",
      "SELECT a.id, b.name FROM accounts a JOIN branches b ON a.branch_id = b.id WHERE a.id = ? AND b.code IN(*)",
      "UPDATE accounts SET balance = balance + ?, note = ? WHERE id = ? AND version = ?",
      "INSERT INTO transfers (src, dst, amount, memo) VALUES(*)",
      "SELECT * FROM orders WHERE created_at BETWEEN ? AND ? ORDER BY id DESC LIMIT ?, ?",
      "DELETE FROM sessions WHERE expires < ? AND user_id IN(*) LIMIT ?",
      "SELECT f(?, (?)), -? FROM t WHERE x > ? OR y = ? OR z <> ?",
      "SET sql_mode = ?",
      "SELECT ? FROM DUAL");

  @Property(tries = 500)
  void randomLiteralSubstitutionNeverChangesTheDigest(
      @ForAll("templates") String template, @ForAll("literalLists") List<String> literals) {
    String withPlaceholders = fill(template, List.of("?"), 1);
    String withLiterals = fill(template, literals, 1 + literals.size() % 4);

    // The literals are written for MySQL's default mode ('a\\'b').
    assertThat(SqlClassifier.classify(withLiterals, Escaping.BACKSLASH).digest())
        .as("%s%nvs%n%s", withLiterals, withPlaceholders)
        .isEqualTo(SqlClassifier.classify(withPlaceholders, Escaping.BACKSLASH).digest());
  }

  @Property(tries = 300)
  void spacingCaseAndCommentsNeverChangeTheDigest(
      @ForAll("templates") String template, @ForAll("separators") List<String> separators,
      @ForAll boolean upper) {
    String plain = fill(template, List.of("1"), 2);
    String[] words = plain.split(" ");
    StringBuilder noisy = new StringBuilder();
    for (int i = 0; i < words.length; i++) {
      if (i > 0) {
        noisy.append(separators.get(i % separators.size()));
      }
      noisy.append(upper ? words[i].toUpperCase() : words[i].toLowerCase());
    }

    assertThat(SqlClassifier.classify(noisy.toString()).digest())
        .as("%s%nvs%n%s", noisy, plain)
        .isEqualTo(SqlClassifier.classify(plain).digest());
  }

  @Property(tries = 2000)
  void classifyNeverThrowsOnArbitraryText(@ForAll String text) {
    assertWellFormed(SqlClassifier.classify(text), text);
  }

  @Property(tries = 2000)
  void classifyNeverThrowsOnSqlLikeFragments(@ForAll("sqlFragments") List<String> fragments) {
    String text = String.join("", fragments);
    assertWellFormed(SqlClassifier.classify(text), text);
  }

  private static void assertWellFormed(Classification c, String text) {
    assertThat(c).isNotNull();
    assertThat(c.kind()).isNotNull();
    assertThat(c.digest()).matches("[0-9a-f]{32}");
    assertThat(c.digestText()).isNotNull();
    assertThat(c.sqlLength()).isEqualTo(text.length());
    assertThat(c.tablesRead()).doesNotContainNull();
    assertThat(c.tablesWritten()).doesNotContainNull();
  }

  /** Replaces each ? with the next literal and each (*) list with {@code rows} rows/elements. */
  private static String fill(String template, List<String> literals, int rows) {
    StringBuilder out = new StringBuilder();
    int next = 0;
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '?') {
        out.append(literals.get(next++ % literals.size()));
      } else if (template.startsWith("(*)", i)) {
        boolean values = template.startsWith("VALUES", i - 6);
        List<String> items = new java.util.ArrayList<>();
        for (int r = 0; r < rows; r++) {
          if (values) {
            int first = r * 4;
            String row = java.util.stream.IntStream.range(0, 4)
                .mapToObj(k -> literals.get((first + k) % literals.size()))
                .collect(Collectors.joining(", ", "(", ")"));
            items.add(row);
          } else {
            items.add(literals.get((next + r) % literals.size()));
          }
        }
        out.append(values ? " " + String.join(", ", items) : " (" + String.join(", ", items) + ")");
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  @Provide
  Arbitrary<String> templates() {
    return Arbitraries.of(TEMPLATES);
  }

  @Provide
  Arbitrary<List<String>> literalLists() {
    Arbitrary<String> ints = Arbitraries.longs().map(String::valueOf);
    Arbitrary<String> decimals = Arbitraries.doubles().map(d -> Double.isFinite(d)
        ? java.math.BigDecimal.valueOf(d).toPlainString() : "0.5");
    Arbitrary<String> exponents = Arbitraries.integers().between(-99, 99)
        .map(e -> "1.5e" + e);
    Arbitrary<String> strings = Arbitraries.strings().ofMaxLength(20)
        .map(s -> "'" + s.replace("\\", "\\\\").replace("'", "''") + "'");
    Arbitrary<String> doubleQuoted = Arbitraries.strings().ofMaxLength(12)
        .map(s -> "\"" + s.replace("\\", "\\\\").replace("\"", "\"\"") + "\""); // \" may be ANSI_QUOTES
    Arbitrary<String> tricky = Arbitraries.of("'-- not a comment'", "'/* nor this */'",
        "'# nor this'", "'it''s'", "'a\\'b'", "_utf8mb4'x'", "N'ü'", "X'1F'", "x'0a'",
        "b'0101'", "0x1F", "0b11", "-7", "+3", "?", "''", ".5", "1.", "'?'", "'in (1,2)'");
    Arbitrary<String> literal = Arbitraries.oneOf(ints, decimals, exponents, strings,
        doubleQuoted, tricky);
    return literal.list().ofMinSize(1).ofMaxSize(8);
  }

  @Provide
  Arbitrary<List<String>> separators() {
    return Arbitraries.of(" ", "  ", "\n", "\t", " /* note */ ", "\r\n  ", " -- c\n", " # c\n")
        .list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<String>> sqlFragments() {
    return Arbitraries.oneOf(
        Arbitraries.of("SELECT", "FROM", "JOIN", "WHERE", "UPDATE", "SET", "DELETE", "INSERT",
            "INTO", "VALUES", "IN", "WITH", "AS", "USING", "ON", "(", ")", ",", ".", ";", " ",
            "'", "\"", "`", "\\", "/*", "*/", "/*!", "/*+", "--", "-- ", "#", "@", "@@", "?",
            "-", "+", "0x", "0b", "X'", "_utf8mb4", "1e", "1.5", "t", "a.b", "dual", "\n"),
        Arbitraries.strings().ofMaxLength(4))
        .list().ofMaxSize(40);
  }
}
