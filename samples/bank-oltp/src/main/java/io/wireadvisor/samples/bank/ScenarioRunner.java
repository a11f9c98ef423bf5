package io.wireadvisor.samples.bank;

import com.zaxxer.hikari.HikariDataSource;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.samples.bank.Scenarios.Scenario;
import io.wireadvisor.testkit.DatabaseServer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs scenarios one after the other on loaded data: applies the scenario's server changes (TiDB
 * only), opens a pool with its driver properties, primes and warms up, measures inside an exact
 * counter window, and restores the server whatever happens.
 */
public final class ScenarioRunner {
  private final DatabaseServer server;
  private final String database;
  private final BusinessTransactions mix;
  private final Workload workload;
  private final WireCounts wire;
  private final Workload.Settings settings;
  private final Consumer<String> log;
  private final WireProfileSource agent;
  private volatile ServerStateGuard current;

  public ScenarioRunner(
      DatabaseServer server,
      String database,
      BusinessTransactions mix,
      WireCounts wire,
      Workload.Settings settings,
      Consumer<String> log) {
    this(server, database, mix, wire, null, settings, log);
  }

  /**
   * @param agent the agent's profiles of this JVM's traffic, taken over the same window as the
   *     server's counters and compared with them; null to run without
   */
  public ScenarioRunner(
      DatabaseServer server,
      String database,
      BusinessTransactions mix,
      WireCounts wire,
      WireProfileSource agent,
      Workload.Settings settings,
      Consumer<String> log) {
    this.agent = agent;
    this.server = server;
    this.database = database;
    this.mix = mix;
    this.workload = new Workload(server, mix);
    this.wire = wire;
    this.settings = settings;
    this.log = log;
  }

  /**
   * Runs each scenario; a failing scenario is reported as failed and the next one runs. A shutdown
   * hook restores the server if the JVM is stopped mid-run.
   */
  public List<ScenarioOutcome> runAll(List<Scenario> scenarios) {
    Thread hook = new Thread(this::restoreCurrent, "bank-oltp-restore");
    Runtime.getRuntime().addShutdownHook(hook);
    List<ScenarioOutcome> out = new ArrayList<>();
    try (ServerStatements statements = new ServerStatements(server, database)) {
      for (Scenario s : scenarios) {
        out.add(run(s, statements));
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running or will run.
      }
    }
    return out;
  }

  private void restoreCurrent() {
    ServerStateGuard g = current;
    if (g != null) {
      g.restore();
    }
  }

  private ScenarioOutcome run(Scenario s, ServerStatements statements) {
    log.accept(String.format("Scenario %d: %s — %s", s.id(), s.name(), s.change()));
    List<String> notes = new ArrayList<>();
    ServerStateGuard guard = new ServerStateGuard(server, database, log);
    current = guard;
    try {
      if (server.isTiDB()) {
        guard.setGlobals(s.tidbGlobals());
        if (s.cacheReferenceTables()) {
          List<String> names = new ArrayList<>();
          mix.catalog().schema().tables(BankSchema.Kind.REFERENCE).forEach(t -> names.add(t.name()));
          guard.cacheTables(names);
        }
      } else {
        if (!s.tidbGlobals().isEmpty()) {
          notes.add("TiDB globals N/A on " + server.kind() + " (skipped)");
        }
        if (s.cacheReferenceTables()) {
          notes.add("ALTER TABLE ... CACHE N/A on " + server.kind() + " (skipped)");
        }
      }
      ScenarioOutcome o = measure(s, "S" + s.id(), s.jdbcProperties(), Map.of(), notes, statements);
      log.accept(o.oneLine());
      return o;
    } catch (Exception e) {
      log.accept("  scenario " + s.id() + " FAILED: " + e);
      return new ScenarioOutcome(s, null, Map.of(), Set.of(), wire.source(), null, null, notes, e.toString());
    } finally {
      guard.restore();
      current = null;
    }
  }

  /**
   * Opens a pool with these driver properties and pool settings, primes and warms it up, and
   * measures one window, with the server's counters and (when there is one) the agent's profile
   * over exactly the measured transactions. Server-side changes are the caller's business.
   *
   * <p>Order at the window's edges: the server's readings open it before the agent's reset and
   * close it after the agent's profile is read, so the agent's window lies inside the server's and
   * both hold the same traffic (the readings' own queries are not counted by either).
   *
   * @param label names the progress lines and the pool, e.g. {@code S3} or {@code step2}
   */
  ScenarioOutcome measure(
      Scenario s,
      String label,
      String jdbcProperties,
      Map<String, String> poolSettings,
      List<String> notes,
      ServerStatements statements)
      throws Exception {
    try (HikariDataSource ds =
        workload.pool(database, jdbcProperties, poolSettings, settings.threads(), "bank-" + label)) {
      workload.prime(ds, settings.threads(), settings.seed(), settings.scale());
      List<Map<String, Long>> wireAt = new ArrayList<>(List.of(Map.of(), Map.of()));
      ServerStatements.Reading[] stmtAt = new ServerStatements.Reading[2];
      TrafficProfile[] profile = new TrafficProfile[1];
      Workload.Window window =
          new Workload.Window() {
            @Override
            public void open() throws SQLException {
              stmtAt[0] = statements.read(false);
              wireAt.set(0, wire.snapshot());
              if (agent != null) {
                try {
                  agent.reset();
                } catch (Exception e) {
                  throw new SQLException("cannot reset the agent's profile: " + e.getMessage(), e);
                }
              }
            }

            @Override
            public void close() throws SQLException {
              if (agent != null) {
                try {
                  profile[0] = agent.profile();
                } catch (Exception e) {
                  throw new SQLException("cannot read the agent's profile: " + e.getMessage(), e);
                }
              }
              wireAt.set(1, wire.snapshot());
              stmtAt[1] = statements.read(true);
            }
          };
      Workload.Result r = workload.run(ds, settings, window, label, log);
      Map<String, Long> delta = new LinkedHashMap<>();
      for (Map.Entry<String, Long> e : wireAt.get(1).entrySet()) {
        delta.put(e.getKey(), e.getValue() - wireAt.get(0).getOrDefault(e.getKey(), 0L));
      }
      return new ScenarioOutcome(
          s, r, delta, wire.exactCommands(), wire.source(), stmtAt[1].minus(stmtAt[0]), profile[0], notes, null);
    }
  }
}
