package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureSessionProbe;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Via;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 28 point 2, as a property: statements with random literals (quotes, backslashes, doubled
 * quotes, SQL-looking text), each written correctly for one escaping mode, never let a literal's
 * characters reach a digest, a capture template or (for statements that carry keys) a sample,
 * whether the collector knows the mode or not.
 */
class EscapingPropertiesTest {
  /** Each {@code ?} takes one literal; the last three carry credentials. */
  private static final List<String> TEMPLATES = List.of(
      "SELECT c FROM t WHERE a = ? AND b = ?",
      "UPDATE acct SET note = ?, tag = ? WHERE id = 1",
      "INSERT INTO t (a, b, c) VALUES (?, ?, 1), (2, ?, ?)",
      "SELECT ?, x FROM t WHERE y IN (?, ?) OR z LIKE ?",
      "DELETE FROM t WHERE a = ? OR b = ?; SELECT ?",
      "ALTER USER a IDENTIFIED BY ?, b IDENTIFIED BY ?",
      "SET @k = ?, @j = ?",
      "SELECT AES_ENCRYPT(c, ?), AES_DECRYPT(d, ?) FROM t");
  private static final int FIRST_CREDENTIAL_TEMPLATE = 5;

  /** A literal's text: the marker is what must never come out. */
  record Literal(String before, String marker, String after) {
    String text() {
      return before + marker + after;
    }
  }

  record Case(String template, List<Literal> literals, List<Boolean> doubleQuoted, boolean noBackslash,
      List<Boolean> doubledQuotes) {
    Escaping mode() {
      return noBackslash ? Escaping.NO_BACKSLASH : Escaping.BACKSLASH;
    }

    String sql() {
      StringBuilder b = new StringBuilder();
      int k = 0;
      for (char c : template.toCharArray()) {
        if (c == '?') {
          b.append(quote(literals.get(k % literals.size()).text(), doubleQuoted.get(k % doubleQuoted.size()),
              doubledQuotes.get(k % doubledQuotes.size())));
          k++;
        } else {
          b.append(c);
        }
      }
      return b.toString();
    }

    List<String> markers() {
      List<String> m = new ArrayList<>();
      for (Literal l : literals) {
        m.add(l.marker().toLowerCase(Locale.ROOT));
      }
      return m;
    }

    /** The literal as the mode wants it written: what a correct client sends. */
    private String quote(String text, boolean dq, boolean doubled) {
      char q = dq ? '"' : '\'';
      StringBuilder b = new StringBuilder().append(q);
      for (char c : text.toCharArray()) {
        if (c == q) {
          b.append(noBackslash || doubled ? "" + q + q : "\\" + q);
        } else if (c == '\\' && !noBackslash) {
          b.append("\\\\");
        } else {
          b.append(c);
        }
      }
      return b.append(q).toString();
    }
  }

  @Property(tries = 1500)
  void noLiteralReachesADigestATemplateOrASample(@ForAll("cases") Case c) {
    String sql = c.sql();
    boolean credentials = TEMPLATES.indexOf(c.template()) >= FIRST_CREDENTIAL_TEMPLATE;
    for (Escaping mode : new Escaping[] {c.mode(), Escaping.UNKNOWN}) {
      String digest = SqlClassifier.classify(sql, mode).digestText().toLowerCase(Locale.ROOT);
      Parameterizer.Parameterized p = Parameterizer.parameterize(sql, mode);
      ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults().withSampleSql(true));
      r.shape(sql, mode).record(Via.TEXT_EXECUTES);
      String profile = ProfileJson.toJson(r.snapshot()).toLowerCase(Locale.ROOT);
      String capture = CaptureSessionProbe.captured(sql, mode).toLowerCase(Locale.ROOT);
      for (String marker : c.markers()) {
        assertThat(digest).as("%s in %s: digest", sql, mode).doesNotContain(marker);
        if (p.template() != null && !p.values().isEmpty()) {
          assertThat(p.template().toLowerCase(Locale.ROOT)).as("%s in %s: template", sql, mode)
              .doesNotContain(marker);
        }
        if (credentials) {
          assertThat(profile).as("%s in %s: profile", sql, mode).doesNotContain(marker);
          assertThat(capture).as("%s in %s: capture", sql, mode).doesNotContain(marker);
        }
      }
      if (mode != Escaping.UNKNOWN && !credentials && !sql.contains(";") && p.template() != null) {
        // Read in the right mode, a DML statement's values come back exactly (a "..." string with
        // \" in the default mode is not read at all: ANSI_QUOTES would make it an identifier).
        List<String> expected = new ArrayList<>();
        int k = 0;
        for (char ch : c.template().toCharArray()) {
          if (ch == '?') {
            expected.add(c.literals().get(k % c.literals().size()).text());
            k++;
          }
        }
        List<String> got = new ArrayList<>();
        for (Parameterizer.Literal l : p.values()) {
          if (!l.isNumber()) {
            got.add(l.value());
          }
        }
        assertThat(got).as("%s in %s: values", sql, mode).isEqualTo(expected);
      }
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<String> noise = Arbitraries.strings()
        .withChars('\\', '\'', '"', ',', ' ', ';', '(', ')', '-', '#', '/', '*', '@', '`', 'a', 'B', '1')
        .withChars("\\', b IDENTIFIED BY '".toCharArray())
        .ofMaxLength(12);
    Arbitrary<String> markers = Arbitraries.strings().withCharRange('a', 'z').ofLength(7).map(s -> "Zq" + s);
    Arbitrary<Literal> literal = Combinators.combine(noise, markers, noise).as(Literal::new);
    return Combinators.combine(
            Arbitraries.of(TEMPLATES),
            literal.list().ofMinSize(1).ofMaxSize(4),
            Arbitraries.of(false, false, true).list().ofMinSize(1).ofMaxSize(4),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false).list().ofMinSize(1).ofMaxSize(3))
        .as(Case::new);
  }
}
