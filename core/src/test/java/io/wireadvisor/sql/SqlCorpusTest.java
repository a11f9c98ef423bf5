package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real-world statements (sysbench, TPC-C, Hibernate, MyBatis, Connector/J's own) from
 * {@code corpus.tsv}: one line per statement, so adding a case is adding a line.
 */
class SqlCorpusTest {

  record Row(int line, String sql, StatementKind kind, List<String> read, List<String> written,
      ProbeKind probe) {
    @Override
    public String toString() {
      return "line " + line + ": " + (sql.length() > 80 ? sql.substring(0, 80) + "..." : sql);
    }
  }

  static Stream<Row> corpus() throws IOException {
    List<Row> rows = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        SqlCorpusTest.class.getResourceAsStream("corpus.tsv"), StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.startsWith("#") || line.isEmpty()) {
          continue;
        }
        String[] f = line.split("\t", -1);
        if (f.length != 5) {
          throw new IllegalStateException("corpus.tsv line " + number + " needs 5 fields");
        }
        rows.add(new Row(number, f[0], StatementKind.valueOf(f[1]), tables(f[2]), tables(f[3]),
            f[4].equals("-") ? null : ProbeKind.valueOf(f[4])));
      }
    }
    return rows.stream();
  }

  private static List<String> tables(String field) {
    return field.equals("-") ? List.of() : Arrays.asList(field.split(","));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void corpusStatementIsClassifiedAsExpected(Row row) {
    Classification c = SqlClassifier.classify(row.sql());

    assertThat(c.kind()).as("kind").isEqualTo(row.kind());
    assertThat(c.tablesRead()).as("tables read").containsExactlyElementsOf(row.read());
    assertThat(c.tablesWritten()).as("tables written").containsExactlyElementsOf(row.written());
    assertThat(c.probe()).as("probe").isEqualTo(row.probe());
    assertThat(c.isProbe()).isEqualTo(row.probe() != null);
    assertThat(c.sqlLength()).isEqualTo(row.sql().length());
    assertThat(c.digest()).matches("[0-9a-f]{32}");
    assertThat(c.digestText()).isEqualTo(SqlClassifier.normalize(row.sql()));
  }

  @Test
  void onlyLiteralVariantsInTheCorpusShareAShape() throws IOException {
    Map<String, Long> shared = corpus()
        .collect(Collectors.groupingBy(r -> SqlClassifier.classify(r.sql()).digestText(),
            TreeMap::new, Collectors.counting()));
    shared.values().removeIf(n -> n == 1);

    assertThat(shared).containsExactly(
        Map.entry("", 3L), // blank, a lone comment, a lone semicolon
        Map.entry("insert into sbtest1 (id, k, c, pad) values ( ... )", 2L),
        Map.entry("select ?", 2L), // the ping comment is not part of the shape
        Map.entry("set autocommit = ?", 2L));
  }
}
