package io.wireadvisor.cli;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.profile.ProfileFormatException;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.AnalysisJson;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.ServerViewJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code wire-advisor} command line. Exit codes: 0 nothing to do (or every expectation met),
 * 1 recommendations (or an expectation missed), 2 error.
 */
@Command(
    name = "wire-advisor",
    mixinStandardHelpOptions = true,
    version = "wire-advisor 0.1.0",
    description = "Judges how a Java application talks to TiDB/MySQL and recommends fixes.",
    subcommands = {
      WireAdvisorCli.Analyze.class,
      WireAdvisorCli.Merge.class,
      WireAdvisorCli.Diff.class,
      WireAdvisorCli.Inspect.class
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:nothing to do", "1:recommendations", "2:error"})
public final class WireAdvisorCli implements Callable<Integer> {
  public static final int NOTHING_TO_DO = 0;
  public static final int RECOMMENDATIONS = 1;
  public static final int ERROR = 2;

  @Override
  public Integer call() {
    CommandLine.usage(this, System.out);
    return ERROR;
  }

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the CLI with the given streams; returns the exit code (used by tests). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new WireAdvisorCli());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExitCodeExceptionMapper(e -> ERROR);
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("error: " + ex.getMessage());
          ex.getCommandLine().usage(err);
          return ERROR;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.println("error: " + ex.getMessage());
          return ERROR;
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** Reads profiles, naming the file and the field on a format error. */
  static List<TrafficProfile> read(List<Path> files) throws IOException {
    List<TrafficProfile> profiles = new ArrayList<>();
    for (Path f : files) {
      try {
        profiles.add(ProfileJson.readFile(f));
      } catch (ProfileFormatException e) {
        throw new IOException(f + ": " + e.getMessage(), e);
      }
    }
    return profiles;
  }

  /** Options to reach a live server (read-only) or a saved server view. */
  static final class ServerOptions {
    @Option(names = "--jdbc-url", description = "JDBC URL of the server to inspect (read-only).")
    String jdbcUrl;

    @Option(names = "--user", description = "User for --jdbc-url.")
    String user;

    @Option(names = "--password", description = "Password for --jdbc-url.", arity = "0..1",
        interactive = true)
    String password;

    @Option(names = "--status-url", description = "TiDB status port, e.g. http://tidb:10080 (reads /metrics).")
    String statusUrl;

    @Option(names = "--server-view", description = "A server view saved by 'inspect --output'.")
    Path serverView;

    ServerView view() throws Exception {
      if (serverView != null) {
        return ServerViewJson.fromJson(new String(Files.readAllBytes(serverView), StandardCharsets.UTF_8));
      }
      if (jdbcUrl == null) {
        return null;
      }
      return ServerInspector.inspect(jdbcUrl, user, password, statusUrl);
    }
  }

  static void write(String text, Path output, PrintWriter out) throws IOException {
    if (output == null) {
      out.print(text);
      out.flush();
    } else {
      Path parent = output.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.write(output, text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Output formats. */
  enum Format {
    text,
    markdown,
    json,
    html
  }

  @Command(name = "analyze", mixinStandardHelpOptions = true,
      description = "Merges the profiles and prints the recommendations.",
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:nothing to do", "1:recommendations", "2:error"})
  static final class Analyze implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "PROFILE", description = "Traffic profile JSON files.")
    List<Path> profiles;

    @CommandLine.Mixin ServerOptions server;

    @Option(names = "--format", defaultValue = "text", description = "text, markdown, json or html.")
    Format format;

    @Option(names = {"-o", "--output"}, description = "Write to this file instead of stdout.")
    Path output;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Analysis a = Advisor.analyze(read(profiles), server.view());
      String text;
      switch (format) {
        case markdown:
          text = Reports.markdown(a);
          break;
        case json:
          text = Reports.json(a);
          break;
        case html:
          text = Reports.html(a);
          break;
        default:
          text = Reports.text(a);
      }
      write(text, output, spec.commandLine().getOut());
      return a.isEmpty() ? NOTHING_TO_DO : RECOMMENDATIONS;
    }
  }

  @Command(name = "merge", mixinStandardHelpOptions = true,
      description = "Merges profiles (exact, order-independent) into one file.")
  static final class Merge implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "PROFILE")
    List<Path> profiles;

    @Option(names = {"-o", "--output"}, required = true, description = "The merged profile.")
    Path output;

    @Override
    public Integer call() throws Exception {
      ProfileJson.writeFile(TrafficProfile.mergeAll(read(profiles)), output);
      return NOTHING_TO_DO;
    }
  }

  @Command(name = "diff", mixinStandardHelpOptions = true,
      description = "Checks whether AFTER shows the changes recommended for BEFORE.",
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:every measurable expectation met (or nothing was recommended)",
          "1:some expectation not met", "2:error"})
  static final class Diff implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BEFORE")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER")
    Path after;

    @CommandLine.Mixin ServerOptions server;

    @Option(names = "--format", defaultValue = "text", description = "text, json or html.")
    Format format;

    @Option(names = {"-o", "--output"}, description = "Write to this file instead of stdout.")
    Path output;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      List<Path> files = new ArrayList<>();
      files.add(before);
      files.add(after);
      List<TrafficProfile> p = read(files);
      Comparison c = Comparison.of(p.get(0), p.get(1), server.view());
      String text = format == Format.json ? AnalysisJson.toJson(c)
          : format == Format.html ? Reports.html(c) : Reports.text(c);
      write(text, output, spec.commandLine().getOut());
      return c.allMet() ? NOTHING_TO_DO : RECOMMENDATIONS;
    }
  }

  @Command(name = "inspect", mixinStandardHelpOptions = true,
      description = "Reads version, globals, tables and (TiDB) statement summaries; read-only.")
  static final class Inspect implements Callable<Integer> {
    @Option(names = "--jdbc-url", required = true)
    String jdbcUrl;

    @Option(names = "--user")
    String user;

    @Option(names = "--password", arity = "0..1", interactive = true)
    String password;

    @Option(names = "--status-url", description = "TiDB status port, e.g. http://tidb:10080.")
    String statusUrl;

    @Option(names = {"-o", "--output"}, description = "Write the view as JSON to this file.")
    Path output;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      ServerView v = ServerInspector.inspect(jdbcUrl, user, password, statusUrl);
      write(ServerViewJson.toJson(v), output, spec.commandLine().getOut());
      return NOTHING_TO_DO;
    }
  }
}
