package io.wireadvisor.cli;

import io.wireadvisor.advisor.Redaction;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.replay.ReplayComparison;
import io.wireadvisor.replay.ReplayTarget;
import io.wireadvisor.replay.Replayer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code wire-advisor replay CAPTURE --jdbc-url …}: replays a captured window under the current
 * and the advised configuration (or configuration files) against a staging server and reports
 * the difference. Lives in the replay module; {@link WireAdvisorCli} adds it when the module is on
 * the class path.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {
      "Replays a capture's sessions through Connector/J and HikariCP under each configuration and"
          + " reports throughput, latency and wire commands per statement.",
      "Writes are rolled back unless --commit-to names a database to commit into (a copy you made)."
    })
public final class ReplayCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "CAPTURE", description = "The capture file (JSON Lines).")
  Path capture;

  @Option(names = "--jdbc-url", required = true, paramLabel = "URL",
      description = "The server to replay against: jdbc:mysql://host:port/database (a staging"
          + " server; its parameters are ignored, the configurations set them).")
  String jdbcUrl;

  @Option(names = "--user", paramLabel = "USER", defaultValue = "root",
      description = "User for --jdbc-url (default: ${DEFAULT-VALUE}).")
  String user;

  @CommandLine.Mixin WireAdvisorCli.PasswordOptions password;

  @Option(names = "--config", paramLabel = "current|advised|stepwise|FILE", split = ",",
      defaultValue = "current,advised",
      description = "Configurations to compare, in order (default: ${DEFAULT-VALUE}). stepwise:"
          + " the advisor's changes one recommendation at a time, each compared with the step"
          + " before. A FILE holds dataSource.<property>=value and pool.<hikariSetting>=value lines.")
  List<String> configs;

  @Option(names = "--pacing", paramLabel = "captured|fast", defaultValue = "captured",
      description = "Send each command when it was sent in the capture, or as fast as the server"
          + " answers (default: ${DEFAULT-VALUE}).")
  String pacing;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "3",
      description = "Rounds per configuration, interleaved (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--commit-to", paramLabel = "DATABASE",
      description = "Commit writes into this database (a copy you made); without it every"
          + " transaction is rolled back.")
  String commitTo;

  @Option(names = "--max-sessions", paramLabel = "N", defaultValue = "256",
      description = "At most this many sessions at once (default: ${DEFAULT-VALUE}).")
  int maxSessions;

  @Option(names = "--server-changes", paramLabel = "apply|off", defaultValue = "apply",
      description = "apply: the advised configuration's server-side changes (TiDB globals, ALTER"
          + " TABLE ... CACHE on the replayed database) are made for its runs and undone after each"
          + " (also on Ctrl-C); off: JDBC and pool changes only (default: ${DEFAULT-VALUE}).")
  String serverChanges;

  @Option(names = "--status-url", paramLabel = "URL",
      description = "TiDB's status port (e.g. http://tidb:10080), for the server view the advice reads.")
  String statusUrl;

  @Option(names = "--allow-same-database",
      description = "Replay even into the database the capture came from (its server and schema,"
          + " from the capture's header and connections). Refused by default: the captured writes"
          + " are committed there already, so replayed inserts meet their own rows as duplicate keys.")
  boolean allowSameDatabase;

  @Option(names = "--driver", paramLabel = "JAR",
      description = "Run this Connector/J jar (the application's version) instead of the bundled"
          + " one, in a class loader of its own; the report says which version ran.")
  Path driver;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report here.")
  Path output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!pacing.equals("captured") && !pacing.equals("fast")) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--pacing must be captured or fast, was '" + pacing + "'");
    }
    for (String c : configs) {
      if (!c.equals("current") && !c.equals("advised") && !c.equals("stepwise")
          && !java.nio.file.Files.isRegularFile(Path.of(c))) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--config '" + c + "' is neither current, advised, stepwise nor a readable file");
      }
    }
    ReplayTarget target;
    try {
      target = ReplayTarget.parse(jdbcUrl, user, password.resolve());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), Redaction.text(e.getMessage(), java.util.List.of()));
    }
    if (!serverChanges.equals("apply") && !serverChanges.equals("off")) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--server-changes must be apply or off, was '" + serverChanges + "'");
    }
    io.wireadvisor.replay.ReplayDriver replayDriver;
    try {
      replayDriver = driver == null ? null : io.wireadvisor.replay.ReplayDriver.fromJar(driver);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Capture c = CaptureFormat.read(capture);
    java.io.PrintWriter err = spec.commandLine().getErr();
    ReplayComparison cmp = ReplayComparison.run(c, configs, target,
        new Replayer.Options(pacing.equals("captured"), commitTo, maxSessions, allowSameDatabase, replayDriver), rounds,
        new ReplayComparison.ServerSide(serverChanges.equals("apply"), statusUrl),
        line -> {
          err.println("replay: " + line);
          err.flush();
        });
    WireAdvisorCli.write(cmp.text(), output, spec.commandLine().getOut());
    return cmp.series().stream().anyMatch(s -> s.newErrors() > 0) ? WireAdvisorCli.RECOMMENDATIONS : WireAdvisorCli.NOTHING_TO_DO;
  }
}
