package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.TableInfo;
import io.wireadvisor.sql.StatementKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Printed SQL with hostile names: each statement, read by a MySQL-like lexer that knows quotes and
 * comments, is exactly one statement naming exactly the intended identifiers.
 */
class SqlTextTest {
  static final String[] HOSTILE = {
    "a`b",
    "`",
    "``",
    "x` CACHE; DROP TABLE `y",
    "t; DROP TABLE t",
    "t;",
    "a\nb; DROP TABLE c",
    "a\r\nDROP",
    "/* c",
    "*/ DROP TABLE x; /*",
    "-- x",
    "t -- x",
    "# x",
    "'",
    "\"",
    "\\",
    "\\`; DROP TABLE z; -- ",
    "ünïcödé 名前",
    "\u202e\u200b",
    "a'b\"c`d\\e",
    "plain_name",
  };

  /** A lexed token: kind (i = quoted identifier, s = string, w = word, p = punctuation) and text. */
  static final class Token {
    final char kind;
    final String text;

    Token(char kind, String text) {
      this.kind = kind;
      this.text = text;
    }

    @Override
    public String toString() {
      return kind + ":" + text;
    }
  }

  /**
   * Splits SQL into statements of tokens the way MySQL's parser and the mysql client do with default
   * SQL modes: backticks (doubled to escape), '…' and "…" (doubled or backslash-escaped), comments
   * ({@code -- }, {@code #}, {@code /* *}{@code /}) and {@code ;} outside them ending a statement.
   * Throws on an unterminated quote or comment.
   */
  static List<List<Token>> statements(String sql) {
    List<List<Token>> out = new ArrayList<>();
    List<Token> cur = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '#' || (c == '-' && sql.startsWith("--", i)
          && (i + 2 >= n || Character.isWhitespace(sql.charAt(i + 2))))) {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        if (end < 0) {
          throw new IllegalArgumentException("unterminated comment");
        }
        i = end + 2;
      } else if (c == '`' || c == '\'' || c == '"') {
        StringBuilder sb = new StringBuilder();
        int j = i + 1;
        while (true) {
          if (j >= n) {
            throw new IllegalArgumentException("unterminated " + c);
          }
          char d = sql.charAt(j);
          if (d == '\\' && c != '`' && j + 1 < n) {
            char e = sql.charAt(j + 1);
            sb.append(e == '0' ? '\0' : e);
            j += 2;
          } else if (d == c) {
            if (j + 1 < n && sql.charAt(j + 1) == c) {
              sb.append(c);
              j += 2;
            } else {
              j++;
              break;
            }
          } else {
            sb.append(d);
            j++;
          }
        }
        cur.add(new Token(c == '`' ? 'i' : 's', sb.toString()));
        i = j;
      } else if (c == ';') {
        out.add(cur);
        cur = new ArrayList<>();
        i++;
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '@') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || "_@.".indexOf(sql.charAt(j)) >= 0
            && !(sql.charAt(j) == '.' && j + 1 < n && sql.charAt(j + 1) == '`'))) {
          j++;
        }
        cur.add(new Token('w', sql.substring(i, j)));
        i = j;
      } else {
        cur.add(new Token('p', String.valueOf(c)));
        i++;
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }

  static String tokens(String sql) {
    List<List<Token>> st = statements(sql);
    assertThat(st).as("statements in %s", sql).hasSize(1);
    return st.get(0).toString();
  }

  @Test
  void quotedIdentifiersDoubleBackticks() {
    assertThat(SqlText.identifier("a`b")).isEqualTo("`a``b`");
    assertThat(SqlText.identifier("plain")).isEqualTo("`plain`");
    assertThat(SqlText.identifier("`")).isEqualTo("````");
  }

  @Test
  void namesNoServerCanHaveAreRefused() {
    assertThat(SqlText.isQuotableIdentifier("")).isFalse();
    assertThat(SqlText.isQuotableIdentifier("a\0b")).isFalse();
    assertThat(SqlText.isQuotableIdentifier("\ud83d\ude00")).isFalse();
    assertThat(SqlText.isQuotableIdentifier(new String(new char[65]).replace('\0', 'x'))).isFalse();
    assertThatThrownBy(() -> SqlText.identifier("a\0b")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesWithControlOrFormatCharactersGetNoStatementToCopy() {
    // Found in review: printed, these drive the reader's terminal (ESC, BEL), reorder what a line
    // shows (bidi overrides) or close the Markdown code fence around the SQL (a newline, then ```).
    for (String name : new String[] {"a\u001b[2Jb", "bell\u0007", "abc\u202egpj.exe", "x\n```\n![](http://e/x)",
        "tab\tname", "line\u2028sep", "zw\u200bj"}) {
      assertThat(SqlText.isQuotableIdentifier(name)).as(name).isFalse();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqlText.identifier(name))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(SqlText.isQuotableIdentifier("größe_ü")).isTrue();
  }

  @Test
  void everyHostileNameGivesOneAlterTableNamingExactlyIt() {
    for (String schema : new String[] {"bank", "a`b; DROP DATABASE x; -- "}) {
      for (String name : HOSTILE) {
        if (!SqlText.isQuotableIdentifier(name) || !SqlText.isQuotableIdentifier(schema)) {
          // Control and format characters get evidence, never a statement (see below).
          assertThat(name + schema).matches("(?s).*[\\p{Cc}\\p{Cf}\\u2028\\u2029].*");
          continue;
        }
        String sql = TableCacheRule.alterTableCache(TableInfo.table(schema, name, 1, 0));
        String lower = name.toLowerCase(java.util.Locale.ROOT); // TableInfo keeps names lowercase
        assertThat(tokens(sql)).as(sql).isEqualTo(
            "[w:ALTER, w:TABLE, i:" + schema.toLowerCase(java.util.Locale.ROOT) + ", p:., i:" + lower
                + ", w:CACHE]");
        assertThat(sql).endsWith(" CACHE;");
      }
    }
  }

  @Test
  void aSettingValueIsBareForNumbersAndSwitchesAndOneLiteralOtherwise() {
    assertThat(SqlText.settingValue("ON")).isEqualTo("ON");
    assertThat(SqlText.settingValue("off")).isEqualTo("off");
    assertThat(SqlText.settingValue("TRUE")).as("'TRUE' is refused by TiDB and MariaDB").isEqualTo("TRUE");
    assertThat(SqlText.settingValue("100")).isEqualTo("100");
    assertThat(SqlText.settingValue("-1.5")).isEqualTo("-1.5");
    assertThat(SqlText.settingValue("READ-COMMITTED")).isEqualTo("'READ-COMMITTED'");
    assertThat(SqlText.settingValue("")).isEqualTo("''");
    assertThat(SqlText.settingValue("a'b\\c")).isEqualTo("'a''b\\\\c'");
    assertThat(SqlText.settingValue("ON; DROP TABLE x")).isEqualTo("'ON; DROP TABLE x'");
    assertThat(SqlText.settingValue("1e3")).isEqualTo("'1e3'");
    assertThat(SqlText.settingValue(null)).isEqualTo("DEFAULT");
    assertThat(SqlText.quotedSettingValue("100")).isEqualTo("'100'");
    for (String value : HOSTILE) {
      String sql = "SET GLOBAL init_connect = " + SqlText.settingValue(value) + ";";
      assertThat(tokens(sql)).as(sql).isEqualTo("[w:SET, w:GLOBAL, w:init_connect, p:=, s:" + value + "]");
    }
  }

  @Test
  void everyHostileValueIsOneStringLiteral() {
    for (String value : HOSTILE) {
      String sql = "SELECT 1 FROM information_schema.TABLES WHERE TABLE_NAME = "
          + SqlText.literal(value) + ";";
      assertThat(tokens(sql)).as(sql).isEqualTo(
          "[w:SELECT, w:1, w:FROM, w:information_schema.TABLES, w:WHERE, w:TABLE_NAME, p:=, s:"
              + value + "]");
    }
    assertThat(SqlText.literal("a'b\\c\0")).isEqualTo("'a''b\\\\c\\0'");
  }

  @Test
  void theTableCacheRuleQuotesHostileNamesFromTheServerView() {
    ServerView.Builder b = ServerView.builder("8.0.11-TiDB-v8.5.3").defaultSchema("bank");
    TrafficProfile p = new TrafficProfile();
    p.addSource(new Source(Source.AGENT, null, "x", null, null, null, null, null, null, 0, 60_000));
    List<String> reachable = new ArrayList<>();
    int i = 0;
    for (String name : HOSTILE) {
      // ServerView.table() drops quotes from a profile's names: those tables cannot be matched.
      if (name.contains("`") || name.contains("\"")) {
        continue;
      }
      if (SqlText.isQuotableIdentifier(name)) {
        reachable.add(name.toLowerCase(java.util.Locale.ROOT));
      }
      b.table(TableInfo.table("bank", name, 1 << 20, 0));
      ShapeStats s = new ShapeStats("d" + i++, "select", StatementKind.SELECT,
          Collections.singletonList("bank." + name), null, null, 30, 30);
      s.add(Via.EXECUTES, 1000);
      p.addShape(s);
    }
    b.table(TableInfo.table("bank", "bad\0name", 1 << 20, 0));
    ShapeStats bad = new ShapeStats("dz", "select", StatementKind.SELECT,
        Collections.singletonList("bank.bad\0name"), null, null, 30, 30);
    bad.add(Via.EXECUTES, 1000);
    p.addShape(bad);

    Recommendation r = new TableCacheRule().evaluate(p, b.build());
    List<String> named = new ArrayList<>();
    for (String sql : r.change().sql()) {
      List<List<Token>> st = statements(sql);
      assertThat(st).as(sql).hasSize(1);
      assertThat(st.get(0)).hasSize(6);
      assertThat(st.get(0).get(2).text).isEqualTo("bank");
      named.add(st.get(0).get(4).text);
    }
    assertThat(named).containsExactlyInAnyOrderElementsOf(reachable);
    long unquotable = java.util.Arrays.stream(HOSTILE)
        .filter(n -> !n.contains("`") && !n.contains("\"") && !SqlText.isQuotableIdentifier(n)).count();
    assertThat(r.evidence()).anyMatch(e -> e.contains((1 + unquotable) + " tables were left out"));
  }

  @Test
  void reportsQuoteNamesWithoutTerminalControlCharacters() {
    assertThat(Fmt.printable("t\u001b[2J\nDROP\u202e")).isEqualTo("t\\u001b[2J\\u000aDROP\\u202e");
    assertThat(Fmt.sql("select 1", 100)).isEqualTo("select 1");
    assertThat(Fmt.printable("ünïcödé 名前")).isEqualTo("ünïcödé 名前");
  }
}
