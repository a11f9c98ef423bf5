package io.wireadvisor.samples.bank;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.samples.bank.Scenarios.Scenario;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.testkit.Commands;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one scenario measured, and the figures derived from it. Null figures are not available on
 * this server (N/A), e.g. the plan-cache hit ratio anywhere but on TiDB.
 *
 * @param result the client's counts and latencies; null when the scenario failed
 * @param wire command counter deltas over the measured window
 * @param exactCommands which of those are exact
 * @param statements SELECT/SET/plan-cache/table-cache deltas over the same window; null on failure
 * @param agent the wire-advisor agent's traffic profile of the same window, or null without the agent
 * @param notes steps skipped (N/A) on this server
 * @param failure why the scenario failed, or null
 */
public record ScenarioOutcome(
    Scenario scenario,
    Workload.Result result,
    Map<String, Long> wire,
    Set<String> exactCommands,
    String wireSource,
    ServerStatements.Reading statements,
    TrafficProfile agent,
    List<String> notes,
    String failure) {

  public boolean ok() {
    return failure == null && result != null;
  }

  /** Business statements per second, as the application counts them. */
  public double statementsPerSecond() {
    return result.statements() / result.seconds();
  }

  public double transactionsPerSecond() {
    return result.transactions() / result.seconds();
  }

  /** Every command the server counted in the window, per second: QPS as the server sees it. */
  public Double serverQps() {
    if (wire.isEmpty()) {
      return null;
    }
    long sum = 0;
    for (long v : wire.values()) {
      sum += v;
    }
    return sum / result.seconds();
  }

  /** Commands of one type per business statement. */
  public double perStatement(String command) {
    return result.statements() == 0 ? 0 : (double) wire.getOrDefault(command, 0L) / result.statements();
  }

  /**
   * SELECTs the application did not issue (session-variable probes such as {@code SELECT
   * @@session.transaction_isolation}) per business statement; null where not derivable.
   */
  public Double probesPerStatement() {
    if (statements == null || statements.selects() == null || result.statements() == 0) {
      return null;
    }
    return Math.max(0, statements.selects() - result.selects()) / (double) result.statements();
  }

  /** SET statements (autocommit, isolation) per business statement. */
  public Double setsPerStatement() {
    if (statements == null || statements.sets() == null || result.statements() == 0) {
      return null;
    }
    return statements.sets() / (double) result.statements();
  }

  /** Prepared-plan-cache hits over executions in this schema (TiDB); null elsewhere. */
  public Double planCacheHitRatio() {
    if (statements == null || statements.planExecutions() == null || statements.planCacheHits() == null
        || statements.planExecutions() == 0) {
      return null;
    }
    return statements.planCacheHits() / (double) statements.planExecutions();
  }

  /**
   * TiDB's own execution time per executed statement in this schema (STATEMENTS_SUMMARY
   * {@code SUM_LATENCY / EXEC_COUNT}), in µs; null elsewhere.
   */
  public Double serverExecMicros() {
    if (statements == null || statements.execNanos() == null || statements.planExecutions() == null
        || statements.planExecutions() == 0) {
      return null;
    }
    return statements.execNanos() / (double) statements.planExecutions() / 1000.0;
  }

  /**
   * The share of a statement's latency, as the application sees it, that is not TiDB executing
   * it: round trips, the driver, the protocol's extra commands. Null where the server cannot tell.
   */
  public Double protocolShare() {
    Double exec = serverExecMicros();
    if (exec == null || avgMicros() <= 0) {
      return null;
    }
    return Math.max(0, 1 - exec / avgMicros());
  }

  /** Reads served from TiDB's table cache in the window; null elsewhere. */
  public Long tableCacheReads() {
    return statements == null ? null : statements.tableCacheReads();
  }

  public double avgMicros() {
    return result.statementLatencyNanos().mean() / 1000.0;
  }

  public double p95Micros() {
    return result.statementLatencyNanos().quantile(0.95) / 1000.0;
  }

  public double p99Micros() {
    return result.statementLatencyNanos().quantile(0.99) / 1000.0;
  }

  /** The agent's count per MySQL command name over the window; empty without the agent. */
  public Map<String, Long> agentWire() {
    Map<String, Long> m = new LinkedHashMap<>();
    if (agent != null) {
      for (Map.Entry<CommandType, CommandStats> e : agent.commands().entrySet()) {
        m.put(e.getKey().wireName(), e.getValue().count());
      }
    }
    return m;
  }

  /** Commands of one type per business statement, as the agent counted them; null without the agent. */
  public Double agentPerStatement(String command) {
    if (agent == null || result == null || result.statements() == 0) {
      return null;
    }
    return agentWire().getOrDefault(command, 0L) / (double) result.statements();
  }

  /** Session chatter the agent saw (every probe kind, validation included) per business statement. */
  public Double agentProbesPerStatement() {
    if (agent == null || result == null || result.statements() == 0) {
      return null;
    }
    return agent.totalProbes() / (double) result.statements();
  }

  /**
   * Session-state reads the agent saw ({@code SELECT @@session.transaction_isolation} and the
   * like, {@code SHOW VARIABLES}) per business statement: what {@code useLocalSessionState} and
   * {@code cacheServerConfiguration} remove. Null without the agent.
   */
  public Double agentProbeReadsPerStatement() {
    return agentProbes(EnumSet.of(ProbeKind.ISOLATION_READ, ProbeKind.READ_ONLY_READ, ProbeKind.VARIABLES_READ,
        ProbeKind.SHOW_VARIABLES));
  }

  /**
   * Session SETs the agent saw ({@code SET autocommit}, isolation, read-only, names, other session
   * variables) per business statement. Spring-style transactions send two {@code SET autocommit}
   * each whatever the settings. Null without the agent.
   */
  public Double agentSessionSetsPerStatement() {
    return agentProbes(EnumSet.of(ProbeKind.AUTOCOMMIT_SET, ProbeKind.ISOLATION_SET, ProbeKind.READ_ONLY_SET,
        ProbeKind.SET_NAMES, ProbeKind.SESSION_SET));
  }

  private Double agentProbes(Set<ProbeKind> kinds) {
    if (agent == null || result == null || result.statements() == 0) {
      return null;
    }
    long n = 0;
    for (Map.Entry<ProbeKind, ProbeStats> e : agent.probes().entrySet()) {
      if (kinds.contains(e.getKey())) {
        n += e.getValue().count();
      }
    }
    return n / (double) result.statements();
  }

  /**
   * The commands whose agent count differs from the server's exact counter delta over the same
   * window, one line each ({@code COM_QUERY: agent 1,234, server 1,236}); empty when they all
   * agree or when there is nothing to compare (see {@link #wireCrossChecked()}).
   */
  public List<String> wireMismatches() {
    List<String> out = new ArrayList<>();
    if (!wireCrossChecked()) {
      return out;
    }
    Map<String, Long> a = agentWire();
    for (String c : new TreeSet<>(exactCommands)) {
      long server = wire.getOrDefault(c, 0L);
      long byAgent = a.getOrDefault(c, 0L);
      if (server != byAgent) {
        out.add(String.format("%s: agent %,d, server %,d", c, byAgent, server));
      }
    }
    return out;
  }

  /** True when both the agent and exact server counters are there to compare. */
  public boolean wireCrossChecked() {
    return agent != null && ok() && !exactCommands.isEmpty() && !wire.isEmpty();
  }

  /** A progress line: the figures that tell scenarios apart. */
  String oneLine() {
    Double qps = serverQps();
    return String.format(
        "  => %,.0f statements/s, %,.0f tx/s, server QPS %s, avg %.0f µs, per statement: query %.2f prepare %.2f execute %.2f close %.2f, errors %d",
        statementsPerSecond(), transactionsPerSecond(), qps == null ? "N/A" : String.format("%,.0f", qps),
        avgMicros(), perStatement(Commands.COM_QUERY), perStatement(Commands.COM_STMT_PREPARE),
        perStatement(Commands.COM_STMT_EXECUTE), perStatement(Commands.COM_STMT_CLOSE), result.errors())
        + (!wireCrossChecked() ? "" : wireMismatches().isEmpty() ? ", agent = server counters" : ", AGENT/SERVER MISMATCH " + wireMismatches());
  }
}
