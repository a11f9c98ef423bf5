package io.wireadvisor.samples.bank;

import io.wireadvisor.advisor.Redaction;
import io.wireadvisor.samples.bank.Scenarios.Scenario;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.ServerLocator;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code java -jar bank-oltp.jar [scenarios|load|prove] [options]}; {@code scenarios} is the default. */
@Command(
    name = "bank-oltp",
    mixinStandardHelpOptions = true,
    version = "bank-oltp 0.1.0",
    description = {
      // picocli formats these lines: a literal percent sign is written %%.
      "A bank OLTP workload (60 tables, 200 statements, 90%% reads, READ COMMITTED,",
      "HikariCP) that replays the seven JDBC/TiDB scenarios of TiDB's OLTP tuning study",
      "and compares what it measures with what the study published. With no server",
      "named it starts the embedded default (TiDB in Docker if available, else an",
      "embedded MariaDB).",
      "",
      "With no subcommand, runs 'scenarios'."
    },
    subcommands = {Main.ScenariosCommand.class, Main.LoadCommand.class, Main.ProveCommand.class, CommandLine.HelpCommand.class})
public final class Main {
  /** Exit code when a run could not start or every scenario failed. */
  static final int FAILED = 1;

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    String[] a = args;
    if (a.length == 0 || (a[0].startsWith("-") && !isTopLevelOption(a[0]))) {
      a = new String[args.length + 1];
      a[0] = "scenarios";
      System.arraycopy(args, 0, a, 1, args.length);
    }
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new java.io.PrintWriter(out, true));
    cl.setErr(new java.io.PrintWriter(err, true));
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          if (ex instanceof IllegalArgumentException) {
            // Bad option values found while building settings: a usage error.
            cmd.getErr().println("bank-oltp: " + ex.getMessage());
            cmd.usage(cmd.getErr());
            return 2;
          }
          // One line per cause; the stack trace only when asked for (-Dbank.oltp.trace=true).
          // Messages may quote the JDBC URL (credentials included): mask passwords.
          List<String> secrets = knownPasswords();
          cmd.getErr().println("bank-oltp: failed: " + Redaction.text(String.valueOf(ex), secrets));
          for (Throwable c = ex.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            cmd.getErr().println("  caused by: " + Redaction.text(String.valueOf(c), secrets));
          }
          if (Boolean.getBoolean("bank.oltp.trace")) {
            ex.printStackTrace(cmd.getErr());
          }
          return FAILED;
        });
    return cl.execute(a);
  }

  /** The passwords this run may use, to mask them wherever a message echoes them. */
  private static List<String> knownPasswords() {
    List<String> secrets = new ArrayList<>();
    secrets.add(System.getProperty("wireadvisor.jdbc.password"));
    secrets.add(System.getenv("WIRE_ADVISOR_JDBC_PASSWORD"));
    return secrets;
  }

  private static boolean isTopLevelOption(String arg) {
    return arg.equals("-h") || arg.equals("--help") || arg.equals("-V") || arg.equals("--version");
  }

  /** Where the server is and how big the data is: shared by the subcommands. */
  static final class ServerOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    @Option(names = "--jdbc-url", description = "Server to use, e.g. jdbc:mysql://tidb:4000/ (default: the embedded default).")
    String jdbcUrl;

    @Option(names = "--user", description = "User for --jdbc-url (default: root).")
    String user;

    @Option(names = "--password", description = "Password for --jdbc-url (default: WIRE_ADVISOR_JDBC_PASSWORD, else empty). A value here is visible in ps: prefer --password-file or WIRE_ADVISOR_JDBC_PASSWORD.", arity = "0..1", interactive = false)
    String password;

    @Option(names = "--password-file", paramLabel = "FILE", description = "Read the password for --jdbc-url from the first line of FILE.")
    Path passwordFile;

    @Option(names = "--status-url", description = "TiDB status port for --jdbc-url, e.g. http://tidb:10080 (command counters, table-cache reads).")
    String statusUrl;

    @Option(names = "--database", defaultValue = "bank_oltp", description = "Schema to (re)create and use (default: ${DEFAULT-VALUE}). Its 60 tables are dropped and reloaded.")
    String database;

    @Option(names = "--scale", defaultValue = "1", description = "Scale factor of the written tables (default: ${DEFAULT-VALUE}: 10,000 accounts, ~190,000 rows).")
    double scale;

    @Option(names = "--seed", defaultValue = "42", description = "Seed for data and workload (default: ${DEFAULT-VALUE}).")
    long seed;

    DatabaseServer start() {
      if (password != null && passwordFile != null) {
        throw new CommandLine.ParameterException(mixee.commandLine(), "give --password or --password-file, not both");
      }
      if (passwordFile != null) {
        password = readPasswordFile(passwordFile);
      } else if (password != null && !password.isEmpty()) {
        mixee.commandLine().getErr().println(
            "bank-oltp: warning: a --password value on the command line is visible to other users (ps, shell history);"
                + " use --password-file FILE or WIRE_ADVISOR_JDBC_PASSWORD");
      }
      if (jdbcUrl != null) {
        // ServerLocator reads these before the environment: the command line wins.
        System.setProperty("wireadvisor.jdbc.url", jdbcUrl);
        if (user != null) {
          System.setProperty("wireadvisor.jdbc.user", user);
        }
        if (password != null) {
          System.setProperty("wireadvisor.jdbc.password", password);
        }
        if (statusUrl != null) {
          System.setProperty("wireadvisor.tidb.status.url", statusUrl);
        }
      } else if (user != null || password != null || statusUrl != null) {
        throw new CommandLine.ParameterException(
            mixee.commandLine(), "--user, --password, --password-file and --status-url need --jdbc-url");
      }
      return ServerLocator.start();
    }

    /** The first line of {@code file} without its line terminator; a usage error naming the file if unreadable. */
    private String readPasswordFile(Path file) {
      try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
        String line = r.readLine();
        return line == null ? "" : line;
      } catch (java.io.IOException e) {
        String why =
            e instanceof java.nio.file.NoSuchFileException ? "no such file"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e.getClass().getSimpleName(); // not the message: it could quote the file
        throw new CommandLine.ParameterException(mixee.commandLine(), "cannot read the password file " + file + ": " + why);
      }
    }

    /** Prints which server this is and, unless {@code skipLoad}, (re)creates and loads the schema. */
    void describeAndLoad(DatabaseServer db, BankSchema schema, boolean skipLoad, PrintStream err)
        throws java.sql.SQLException, InterruptedException {
      err.println("Server: " + db.kind() + " " + db.version() + " (" + db.source() + ")");
      if (!skipLoad) {
        DataLoader.Loaded l = new DataLoader(db, schema).load(database, scale, seed, err::println);
        err.printf("Loaded %,d rows into %s in %.1f s%n", l.rows(), l.database(), l.millis() / 1000.0);
      }
    }
  }

  /** How each measured run goes, and where the agent comes from: shared by scenarios and prove. */
  static final class RunOptions {
    @Option(names = "--threads", defaultValue = "4", description = "Worker threads and pool size (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--warmup", defaultValue = "5", description = "Warm-up seconds per scenario or prove step (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--duration", defaultValue = "15", description = "Measured seconds per scenario or prove step (default: ${DEFAULT-VALUE}).")
    int duration;

    @Option(names = "--skip-load", description = "Use the data already in --database (loaded with the same --scale and --seed).")
    boolean skipLoad;

    @Option(names = "--agent-jar", description = "The wire-advisor agent jar to attach (default: the one packaged in this jar, else agent/target/wire-advisor-agent.jar).")
    Path agentJar;

    boolean timesValid() {
      return duration >= 1 && warmup >= 0;
    }

    Workload.Settings settings(ServerOptions server, long minStatements) {
      return new Workload.Settings(threads, Duration.ofSeconds(warmup), Duration.ofSeconds(duration), server.seed,
          server.scale, minStatements);
    }
  }

  @Command(name = "scenarios", mixinStandardHelpOptions = true,
      description = "Load the data, run the seven scenarios, print the comparison and write Markdown, JSON and HTML reports.")
  static final class ScenariosCommand implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Mixin RunOptions run;

    @Option(names = "--only", split = ",", description = "Scenario ids to run, e.g. --only 2,5 (default: all).")
    List<Integer> only;

    @Option(names = "--out", defaultValue = "target/bank-oltp-report", description = "Directory for report.md, report.json, report.html (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--no-agent", description = "Do not attach the agent: wire counts from the server's counters only.")
    boolean noAgent;

    @Option(names = "--repeat", defaultValue = "1", description = "Measure each scenario in N windows, interleaved (S1..S7, S1..S7, ...); "
        + "report medians and their spread, and mark changes smaller than the spread as noise (default: ${DEFAULT-VALUE}).")
    int repeat;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintStream err = System.err;
      Scenarios all = Scenarios.load();
      List<Scenario> chosen = new ArrayList<>();
      if (only == null || only.isEmpty()) {
        chosen.addAll(all.scenarios());
      } else {
        for (int id : only) {
          try {
            chosen.add(all.byId(id));
          } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
          }
        }
      }
      if (!run.timesValid()) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be >= 1 and --warmup >= 0");
      }
      if (repeat < 1 || repeat > 100) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be 1..100, was " + repeat);
      }
      Workload.Settings settings = run.settings(server, 0);
      if (run.agentJar != null && !noAgent) {
        AgentProfiles.check(run.agentJar);
      }
      BankSchema schema = BankSchema.load();
      BusinessTransactions mix = new BusinessTransactions(StatementCatalog.build(schema));
      try (DatabaseServer db = server.start()) {
        server.describeAndLoad(db, schema, run.skipLoad, err);
        AgentProfiles agent = null;
        if (!noAgent) {
          try {
            agent = AgentProfiles.attach(run.agentJar, err::println);
          } catch (AgentProfiles.AgentUnavailableException e) {
            if (run.agentJar != null) {
              throw e;
            }
            // The main job still runs: the server's counters give the wire counts.
            err.println("bank-oltp: running without the agent: " + e.getMessage());
          }
        }
        ScenarioRunner runner =
            new ScenarioRunner(db, server.database, mix, new ServerWireCounts(db), agent, settings, err::println);
        List<List<ScenarioOutcome>> rounds = new ArrayList<>();
        for (int round = 1; round <= repeat; round++) {
          if (repeat > 1) {
            err.printf("Round %d of %d%n", round, repeat);
          }
          rounds.add(runner.runAll(chosen));
        }
        List<ScenarioRuns> runs = ScenarioRuns.fromRounds(rounds);
        List<ScenarioOutcome> outcomes = runs.stream().map(ScenarioRuns::representative).toList();
        Report report = Report.ofRuns(db, settings, all.study(), runs);
        System.out.println();
        System.out.println(report.terminal());
        List<Path> files = report.write(out);
        for (Path p : files) {
          System.out.println("wrote " + p.toAbsolutePath());
        }
        return outcomes.stream().anyMatch(ScenarioOutcome::ok) ? 0 : FAILED;
      }
    }
  }

  @Command(name = "load", mixinStandardHelpOptions = true, description = {"Create the 60 tables and load the data, then exit.",
        "Meant for --jdbc-url (then 'scenarios --skip-load'); an embedded default server is discarded at exit."})
  static final class LoadCommand implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Override
    public Integer call() throws Exception {
      BankSchema schema = BankSchema.load();
      try (DatabaseServer db = server.start()) {
        DataLoader.Loaded l = new DataLoader(db, schema).load(server.database, server.scale, server.seed, System.err::println);
        System.out.printf("Loaded %,d rows into %s on %s %s in %.1f s%n", l.rows(), l.database(), db.kind(), db.version(), l.millis() / 1000.0);
        return 0;
      }
    }
  }

  @Command(name = "prove", mixinStandardHelpOptions = true,
      description = {
        "Start from a baseline configuration (scenario 1's), run the workload under the wire-advisor agent,",
        "give the traffic profile and the server's state to the advisor, apply every recommended change",
        "(JDBC properties, pool settings, SET GLOBAL, ALTER TABLE ... CACHE), run again, until the advisor",
        "has nothing left to change or --max-steps. Prints the path with the measured gain of each step",
        "and writes prove.md and prove.json. The server's globals and cached tables are restored afterwards."
      })
  static final class ProveCommand implements Callable<Integer> {
    @Mixin ServerOptions server;

    @Mixin RunOptions run;

    @Option(names = "--min-statements", defaultValue = "2000", description = "Extend a step's window past --duration until this many business statements ran (at most 10 times --duration), so the advisor has enough traffic to judge (default: ${DEFAULT-VALUE}).")
    long minStatements;

    @Option(names = "--max-steps", defaultValue = "6", description = "At most this many rounds of advice applied after the baseline (default: ${DEFAULT-VALUE}).")
    int maxSteps;

    @Option(names = "--baseline", defaultValue = "1", description = "Scenario whose configuration is the starting point (default: ${DEFAULT-VALUE}): its JDBC properties, and its globals on TiDB.")
    int baseline;

    @Option(names = "--compare-with", split = ",", defaultValue = "5,6,7", description = "After the loop, measure these scenarios and the final "
        + "configuration in the same run and say which share of the best one prove reached (default: ${DEFAULT-VALUE}).")
    List<Integer> compareWith;

    @Option(names = "--compare-rounds", defaultValue = "1", description = "Interleaved rounds of that comparison; medians (default: ${DEFAULT-VALUE}).")
    int compareRounds;

    @Option(names = "--no-compare", description = "Skip the comparison with the study's scenarios.")
    boolean noCompare;

    @Option(names = "--out", defaultValue = "target/bank-oltp-report", description = "Directory for prove.md and prove.json (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintStream err = System.err;
      if (!run.timesValid() || maxSteps < 0 || minStatements < 0) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--duration must be >= 1, --warmup, --max-steps and --min-statements >= 0");
      }
      Scenario base;
      try {
        base = Scenarios.load().byId(baseline);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      if (compareRounds < 1 || compareRounds > 100) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--compare-rounds must be 1..100, was " + compareRounds);
      }
      List<Scenario> compared = new ArrayList<>();
      if (!noCompare) {
        try {
          for (int id : compareWith) {
            compared.add(Scenarios.load().byId(id));
          }
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--compare-with: " + e.getMessage());
        }
      }
      Workload.Settings settings = run.settings(server, minStatements);
      // Fail before starting a server and loading data when the agent cannot be found.
      AgentProfiles.check(run.agentJar);
      BankSchema schema = BankSchema.load();
      BusinessTransactions mix = new BusinessTransactions(StatementCatalog.build(schema));
      try (DatabaseServer db = server.start()) {
        server.describeAndLoad(db, schema, run.skipLoad, err);
        // The agent retransforms driver classes already loaded; the workload's pools open after this.
        AgentProfiles agent = AgentProfiles.attach(run.agentJar, err::println);
        ProveSession session = new ProveSession(db, server.database, mix, agent, settings, maxSteps, err::println);
        Prover.Result result = session.run(ProveConfig.of(base, db.isTiDB()));
        ProveSession.Comparison comparison =
            compared.isEmpty() || result.stop() == Prover.Stop.FAILED ? null : session.compare(result, compared, compareRounds);
        ProveReport report =
            new ProveReport(db.kind() + " " + db.version() + " (" + db.source() + ")",
                db.jdbcUrl(server.database, result.finalConfig().urlParameters()), settings, agent.describe(), result,
                comparison);
        System.out.println();
        System.out.println(report.terminal());
        for (Path p : report.write(out)) {
          System.out.println("wrote " + p.toAbsolutePath());
        }
        return result.stop() == Prover.Stop.FAILED ? FAILED : 0;
      }
    }
  }
}
