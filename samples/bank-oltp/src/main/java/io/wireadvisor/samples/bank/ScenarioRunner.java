package io.wireadvisor.samples.bank;

import com.zaxxer.hikari.HikariDataSource;
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
  private volatile ServerStateGuard current;

  public ScenarioRunner(
      DatabaseServer server,
      String database,
      BusinessTransactions mix,
      WireCounts wire,
      Workload.Settings settings,
      Consumer<String> log) {
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
      String props = s.jdbcProperties();
      try (HikariDataSource ds = workload.pool(database, props, settings.threads(), "bank-s" + s.id())) {
        workload.prime(ds, settings.threads(), settings.seed(), settings.scale());
        List<Map<String, Long>> wireAt = new ArrayList<>(List.of(Map.of(), Map.of()));
        ServerStatements.Reading[] stmtAt = new ServerStatements.Reading[2];
        Workload.Window window =
            new Workload.Window() {
              @Override
              public void open() throws SQLException {
                stmtAt[0] = statements.read(false);
                wireAt.set(0, wire.snapshot());
              }

              @Override
              public void close() throws SQLException {
                wireAt.set(1, wire.snapshot());
                stmtAt[1] = statements.read(true);
              }
            };
        Workload.Result r = workload.run(ds, settings, window, "S" + s.id(), log);
        Map<String, Long> delta = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : wireAt.get(1).entrySet()) {
          delta.put(e.getKey(), e.getValue() - wireAt.get(0).getOrDefault(e.getKey(), 0L));
        }
        ScenarioOutcome o =
            new ScenarioOutcome(s, r, delta, wire.exactCommands(), wire.source(), stmtAt[1].minus(stmtAt[0]), notes, null);
        log.accept(o.oneLine());
        return o;
      }
    } catch (Exception e) {
      log.accept("  scenario " + s.id() + " FAILED: " + e);
      return new ScenarioOutcome(s, null, Map.of(), Set.of(), wire.source(), null, notes, e.toString());
    } finally {
      guard.restore();
      current = null;
    }
  }
}
