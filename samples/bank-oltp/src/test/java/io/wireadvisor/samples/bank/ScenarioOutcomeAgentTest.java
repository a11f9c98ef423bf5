package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.testkit.Commands;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The agent's counts next to the server's: per statement, probes, and the cross-check. */
class ScenarioOutcomeAgentTest {
  private static final Set<String> EXACT = Set.of(Commands.COM_QUERY, Commands.COM_STMT_EXECUTE, Commands.COM_STMT_PREPARE);

  private static ScenarioOutcome outcome(TrafficProfile agent, long serverQueries) {
    Histogram h = new Histogram(Histogram.COUNT_PRECISION);
    h.record(1000);
    Workload.Result r = new Workload.Result(10, 100, 1000, 900, 100, 800, 0, List.of(), h, h, Map.of());
    Map<String, Long> wire = new LinkedHashMap<>();
    wire.put(Commands.COM_QUERY, serverQueries);
    wire.put(Commands.COM_STMT_PREPARE, 0L);
    wire.put(Commands.COM_STMT_EXECUTE, 1000L);
    wire.put(Commands.COM_STMT_CLOSE, 3L);
    return new ScenarioOutcome(Scenarios.load().byId(5), r, wire, EXACT, "server counters (test)", null, agent, List.of(), null);
  }

  private static TrafficProfile agent() {
    TrafficProfile p = new TrafficProfile();
    p.addCommand(CommandType.QUERY, new CommandStats(300, null));
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(1000, null));
    // No exact server counter for CLOSE in this test: a different count there is not a mismatch.
    p.addCommand(CommandType.STMT_CLOSE, new CommandStats(5, null));
    ProbeStats reads = new ProbeStats();
    reads.add(50);
    p.addProbe(ProbeKind.ISOLATION_READ, reads);
    ProbeStats sets = new ProbeStats();
    sets.add(200);
    p.addProbe(ProbeKind.AUTOCOMMIT_SET, sets);
    ProbeStats pings = new ProbeStats();
    pings.add(7);
    p.addProbe(ProbeKind.VALIDATION_QUERY, pings);
    return p;
  }

  @Test
  void agentCountsPerStatementAndProbesComeFromItsProfile() {
    ScenarioOutcome o = outcome(agent(), 300);
    assertThat(o.agentPerStatement(Commands.COM_QUERY)).isEqualTo(0.3);
    assertThat(o.agentPerStatement(Commands.COM_STMT_PREPARE)).isZero();
    assertThat(o.agentProbeReadsPerStatement()).isEqualTo(0.05);
    assertThat(o.agentSessionSetsPerStatement()).isEqualTo(0.2);
    assertThat(o.agentProbesPerStatement()).isEqualTo(0.257);
    assertThat(o.wireCrossChecked()).isTrue();
    assertThat(o.wireMismatches()).isEmpty();
    assertThat(o.oneLine()).contains("agent = server counters");
  }

  @Test
  void aDifferenceOnAnExactCommandIsAMismatchNamingBothCounts() {
    ScenarioOutcome o = outcome(agent(), 302);
    assertThat(o.wireMismatches()).containsExactly("COM_QUERY: agent 300, server 302");
    assertThat(o.oneLine()).contains("AGENT/SERVER MISMATCH");
  }

  @Test
  void withoutTheAgentThereIsNothingToCompare() {
    ScenarioOutcome o = outcome(null, 302);
    assertThat(o.wireCrossChecked()).isFalse();
    assertThat(o.wireMismatches()).isEmpty();
    assertThat(o.agentPerStatement(Commands.COM_QUERY)).isNull();
    assertThat(o.agentProbesPerStatement()).isNull();
    assertThat(o.agentProbeReadsPerStatement()).isNull();
  }

  @Test
  void theReportShowsTheCheckAndFlagsTheMismatch() {
    Report report = new Report("MARIADB test", new Workload.Settings(1, java.time.Duration.ZERO, java.time.Duration.ofSeconds(10), 1, 1),
        Scenarios.load().study(), List.of(outcome(agent(), 302)));
    assertThat(report.rows().get(0)).contains("NO", "0.05", "0.20");
    assertThat(report.terminal()).contains("agent and server counts differ: COM_QUERY: agent 300, server 302");
  }
}
