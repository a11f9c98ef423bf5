package io.wireadvisor.samples.bank;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.samples.bank.Scenarios.Published;
import io.wireadvisor.samples.bank.Scenarios.Scenario;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.testkit.DatabaseServer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@link Prover} on the real thing: each step runs the bank workload through {@link
 * ScenarioRunner#measure} with the agent's profile window, the advisor analyses that profile with
 * {@link ServerInspector}'s view of the server, and server-side advice goes through one {@link
 * ServerStateGuard} for the whole session, restored at the end, on failure and from a shutdown hook
 * (Ctrl-C).
 */
public final class ProveSession {
  private static final Published NOT_PUBLISHED = new Published(0, 0);

  private final DatabaseServer server;
  private final String database;
  private final BusinessTransactions mix;
  private final WireProfileSource agent;
  private final Workload.Settings settings;
  private final int maxSteps;
  private final Consumer<String> log;

  public ProveSession(
      DatabaseServer server,
      String database,
      BusinessTransactions mix,
      WireProfileSource agent,
      Workload.Settings settings,
      int maxSteps,
      Consumer<String> log) {
    this.server = server;
    this.database = database;
    this.mix = mix;
    this.agent = agent;
    this.settings = settings;
    this.maxSteps = maxSteps;
    this.log = log;
  }

  /** Runs the loop from {@code baseline}; the server is as before when this returns. */
  public Prover.Result run(ProveConfig baseline) {
    ServerStateGuard guard = new ServerStateGuard(server, database, log);
    Thread hook = new Thread(guard::restore, "bank-oltp-prove-restore");
    Runtime.getRuntime().addShutdownHook(hook);
    try (ServerStatements statements = new ServerStatements(server, database)) {
      ScenarioRunner runner =
          new ScenarioRunner(server, database, mix, new ServerWireCounts(server), agent, settings, log);
      // The configuration of the step being analysed: the analyst sees only the profile.
      ProveConfig[] config = new ProveConfig[1];
      Prover.Bench bench =
          (step, cfg) -> {
            config[0] = cfg;
            Scenario s =
                new Scenario(step, "step " + step, "prove step " + step, cfg.urlParameters(), cfg.globals(),
                    !cfg.cachedTables().isEmpty(), NOT_PUBLISHED);
            ScenarioOutcome o = runner.measure(s, "step" + step, cfg.urlParameters(), cfg.poolSettings(), new ArrayList<>(), statements);
            log.accept(o.oneLine());
            return o;
          };
      Prover.Analyst analyst =
          profile -> {
            ServerView view =
                ServerInspector.inspect(
                    server.jdbcUrl(database, null), server.user(), server.password(), server.statusUrl().orElse(null));
            return new Prover.Advice(Advisor.analyze(poolOnly(profile, server.jdbcUrl(database, null), config[0], Workload.POOL_ISOLATION), view), view.globals());
          };
      Prover.ServerSide serverSide =
          step -> {
            guard.setGlobals(step.globals());
            guard.cacheTables(step.tables());
          };
      // The baseline's own server state (scenario 1's globals on TiDB), restored like the rest.
      guard.setGlobals(baseline.globals());
      guard.cacheTables(baseline.cachedTables());
      return new Prover(bench, analyst, serverSide, database, maxSteps, log).run(baseline);
    } catch (SQLException e) {
      // Only the baseline's server changes above throw this (the loop reports its own failures).
      return new Prover.Result(
          List.of(new Prover.Step(0, baseline, List.of(), ChangePlan.merge(List.of()), null, null, List.of())),
          Prover.Stop.FAILED, "cannot set the baseline's server state: " + e);
    } finally {
      guard.restore();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running or will run.
      }
    }
  }

  /**
   * prove's final configuration against the study's best scenarios, measured in the same run on
   * the same data: {@code rounds} rounds, each the final configuration then every scenario, so a
   * slow minute hits them alike.
   *
   * @param finalConfig final configuration's windows
   * @param scenarios each scenario's windows
   */
  public record Comparison(ScenarioRuns finalConfig, List<ScenarioRuns> scenarios) {
    /** The scenario with the highest median business statements/s. */
    public ScenarioRuns best() {
      return scenarios.stream()
          .filter(r -> !Double.isNaN(r.medianStatementsPerSecond()))
          .max(java.util.Comparator.comparingDouble(ScenarioRuns::medianStatementsPerSecond))
          .orElse(null);
    }

    /** Final configuration's median over the best scenario's; NaN when either failed. */
    public double ratioToBest() {
      ScenarioRuns b = best();
      return b == null ? Double.NaN : finalConfig.medianStatementsPerSecond() / b.medianStatementsPerSecond();
    }

    /**
     * Whether the final configuration reaches {@code floor} of the best scenario, a shortfall
     * smaller than either one's spread counting as reached: the report's own rule for noise. The
     * best is the highest of several medians, so on a shared machine it leans high by about the
     * spread.
     */
    public boolean reaches(double floor) {
      double ratio = ratioToBest();
      if (Double.isNaN(ratio)) {
        return false;
      }
      if (ratio >= floor) {
        return true;
      }
      Double a = finalConfig.spread();
      Double b = best().spread();
      double noise = Math.max(a == null ? 0 : a, b == null ? 0 : b);
      return 1 - ratio < noise;
    }
  }

  /** Measures {@code result}'s final configuration and {@code scenarios} interleaved; the server is as before afterwards. */
  public Comparison compare(Prover.Result result, List<Scenario> scenarios, int rounds) {
    return compare(result, scenarios, rounds, settings);
  }

  /** As {@link #compare(Prover.Result, List, int)}, with windows of their own length. */
  public Comparison compare(Prover.Result result, List<Scenario> scenarios, int rounds, Workload.Settings windows) {
    ProveConfig fin = result.finalConfig();
    Scenario asScenario =
        new Scenario(0, "prove's final configuration", "the advisor's fixpoint", fin.urlParameters(), fin.globals(),
            !fin.cachedTables().isEmpty(), NOT_PUBLISHED);
    ScenarioRunner runner =
        new ScenarioRunner(server, database, mix, new ServerWireCounts(server), agent, windows, log);
    List<ScenarioOutcome> finals = new ArrayList<>();
    List<List<ScenarioOutcome>> scenarioRounds = new ArrayList<>();
    try (ServerStatements statements = new ServerStatements(server, database)) {
      for (int round = 1; round <= rounds; round++) {
        log.accept("Comparison round " + round + " of " + rounds + ": prove's final configuration, then "
            + scenarios.stream().map(sc -> "S" + sc.id()).toList());
        ServerStateGuard guard = new ServerStateGuard(server, database, log);
        Thread hook = new Thread(guard::restore, "bank-oltp-compare-restore");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
          guard.setGlobals(fin.globals());
          guard.cacheTables(fin.cachedTables());
          ScenarioOutcome o =
              runner.measure(asScenario, "final", fin.urlParameters(), fin.poolSettings(), new ArrayList<>(), statements);
          log.accept(o.oneLine());
          finals.add(o);
        } catch (Exception e) {
          log.accept("  prove's final configuration FAILED: " + e);
          finals.add(new ScenarioOutcome(asScenario, null, Map.of(), java.util.Set.of(), "", null, null, List.of(), e.toString()));
        } finally {
          guard.restore();
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException shuttingDown) {
            // The hook is running or will run.
          }
        }
        scenarioRounds.add(runner.runAll(scenarios));
      }
    }
    return new Comparison(new ScenarioRuns(finals), ScenarioRuns.fromRounds(scenarioRounds));
  }

  /**
   * The profile as the advisor should judge this step's pool by: only the sources that can be the
   * pool (same URL without parameters and, for every property the step configured, the same value
   * where the source recorded it), each with the isolation the pool really runs.
   *
   * <p>The agent keeps every configuration it has seen in each new window (earlier steps' pools,
   * this sample's own admin connections with driver defaults); left in, they would make the
   * advisor judge a setting "not in effect everywhere" and repeat advice the pool already follows.
   * And the agent records the isolation a connection had when it connected (the server's default,
   * REPEATABLE-READ on TiDB and MariaDB), before HikariCP's {@code transactionIsolation} sets
   * READ COMMITTED on it; the advisor's {@code tidb-rc-read-check-ts} rule would then never fire
   * for this READ COMMITTED application. So the pool's configured isolation replaces it.
   *
   * <p>When no source matches, the sources are left as the agent recorded them.
   */
  static TrafficProfile poolOnly(TrafficProfile profile, String poolUrl, ProveConfig config, String poolIsolation) {
    String base = stripParameters(poolUrl);
    List<Source> pool = new ArrayList<>();
    for (Source s : profile.sources()) {
      if (s.jdbcUrl() != null && stripParameters(s.jdbcUrl()).equalsIgnoreCase(base) && matches(s, config)) {
        pool.add(s);
      }
    }
    if (pool.isEmpty()) {
      return profile;
    }
    TrafficProfile p = new TrafficProfile();
    for (Source s : pool) {
      p.addSource(new Source(s.collector(), s.collectorVersion(), s.instance(), s.driverName(), s.driverVersion(),
          s.serverVersion(), poolIsolation == null ? s.isolation() : poolIsolation, s.jdbcUrl(), s.properties(),
          s.startMillis(), s.endMillis()));
    }
    profile.commands().forEach(p::addCommand);
    profile.shapes().values().forEach(p::addShape);
    profile.probes().forEach(p::addProbe);
    p.connections().add(profile.connections());
    // The window's CPU (the application's, the host's, the server's): the advisor's CPU-bound model
    // needs it, and it belongs to the window, not to a source.
    if (profile.cpu() != null) {
      p.addCpu(profile.cpu());
    }
    return p;
  }

  private static boolean matches(Source s, ProveConfig config) {
    for (Map.Entry<String, String> e : config.jdbcProperties().entrySet()) {
      String recorded = ProveConfig.get(s.properties(), e.getKey());
      if (recorded != null && !ProveConfig.sameValue(recorded, e.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static String stripParameters(String url) {
    int q = url.indexOf('?');
    String u = q < 0 ? url : url.substring(0, q);
    return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
  }
}
