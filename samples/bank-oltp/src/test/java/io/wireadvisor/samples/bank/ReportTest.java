package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.testkit.Commands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
  private final Scenarios scenarios = Scenarios.load();

  private ScenarioOutcome outcome(int id, long statements, long prepares) {
    Histogram h = new Histogram(Histogram.COUNT_PRECISION);
    for (int i = 0; i < 100; i++) {
      h.record(400_000 + i * 1000L);
    }
    Workload.Result r = new Workload.Result(10, statements / 8, statements, statements * 9 / 10, statements / 10,
        statements * 3 / 4, 0, List.of(), h, h, Map.of());
    Map<String, Long> wire = new LinkedHashMap<>();
    wire.put(Commands.COM_QUERY, statements / 3);
    wire.put(Commands.COM_STMT_PREPARE, prepares);
    wire.put(Commands.COM_STMT_EXECUTE, statements);
    wire.put(Commands.COM_STMT_CLOSE, prepares);
    return new ScenarioOutcome(scenarios.byId(id), r, wire, Set.of(Commands.COM_QUERY, Commands.COM_STMT_EXECUTE,
        Commands.COM_STMT_PREPARE), "server counters (test)",
        new ServerStatements.Reading(statements * 9 / 10, statements / 4, null, null, null), null, List.of(), null);
  }

  private Report report() {
    List<ScenarioOutcome> list = new ArrayList<>();
    for (int id = 1; id <= 7; id++) {
      list.add(outcome(id, 10_000L * id, id == 3 ? 7_500 : 0));
    }
    list.set(5, new ScenarioOutcome(scenarios.byId(6), null, Map.of(), Set.of(), "x", null, null, List.of("n/a step"), "boom"));
    return new Report("MARIADB 11.4.5 (test)", new Workload.Settings(2, Duration.ofSeconds(1), Duration.ofSeconds(10), 42, 1),
        scenarios.study(), list);
  }

  @Test
  void terminalTableShowsMeasuredAndPublishedSideBySide() {
    String t = report().terminal();
    assertThat(t).contains("server QPS", "study QPS", "56,300", "S5 vs S2 QPS (headline)", "+28%", "+108%");
    // S3's 7,500 prepares over 30,000 statements; CLOSE has no exact counter in this test: marked ~.
    assertThat(t).contains("0.25~");
    assertThat(t).contains("FAILED: boom");
    assertThat(t).contains("N/A");
  }

  @Test
  void headlineRatioIsComputedFromTheMeasuredScenarios() {
    List<List<String>> ratios = report().ratios();
    List<String> s5vs2 = ratios.stream().filter(r -> r.get(0).startsWith("S5 vs S2 QPS")).findFirst().orElseThrow();
    // 50,000 vs 20,000 statements in the same time: +150%.
    assertThat(s5vs2).containsExactly("S5 vs S2 QPS (headline)", "+28%", "+150%", "+150%", "+0%");
  }

  @Test
  void writesMarkdownJsonAndSelfContainedHtml(@TempDir Path dir) throws Exception {
    List<Path> files = report().write(dir);
    assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("report.md", "report.json", "report.html");
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html).contains("<svg", "<rect", "COM_STMT_PREPARE").doesNotContain("<script", "<link");
    JsonNode json = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
    assertThat(json.get("scenarios")).hasSize(7);
    assertThat(json.get("scenarios").get(2).get("measured").get("wireCommandsPerStatement").get("COM_STMT_PREPARE").asDouble())
        .isEqualTo(0.25);
    assertThat(json.get("scenarios").get(5).get("failure").asText()).isEqualTo("boom");
    assertThat(Files.readString(dir.resolve("report.md"))).contains("| 5 | statement cache |");
    assertThat(Files.list(dir)).noneMatch(p -> p.toString().endsWith(".tmp"));
  }
}
