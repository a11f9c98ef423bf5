package io.wireadvisor.cli;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Redaction;
import io.wireadvisor.profile.ProfileFormatException;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ProfileLimits;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.AnalysisJson;
import io.wireadvisor.report.Reports;
import io.wireadvisor.server.ServerInspector;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.ServerViewJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /** Largest --server-view file read (a real one is a few hundred KB). */
  static final long MAX_SERVER_VIEW_BYTES = 64L << 20;

  /** Environment variable read for the password when no password option is given. */
  public static final String PASSWORD_ENV = "WIRE_ADVISOR_PASSWORD";

  private final Map<String, String> env;
  /** Passwords resolved during this run: masked in every message printed. */
  final List<String> secrets = new ArrayList<>();

  WireAdvisorCli(Map<String, String> env) {
    this.env = env;
  }

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
    return run(args, out, err, System.getenv());
  }

  /** Runs the CLI with the given streams and environment; returns the exit code. */
  static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
    WireAdvisorCli root = new WireAdvisorCli(env);
    CommandLine cl = new CommandLine(root);
    cl.addSubcommand("replay", new ReplayCommand());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setOut(out);
    cl.setErr(err);
    cl.setExitCodeExceptionMapper(e -> ERROR);
    // Messages may echo a JDBC URL or an argument: never print a password in them.
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          String message = String.valueOf(ex.getMessage());
          if (ex instanceof CommandLine.UnmatchedArgumentException) {
            // A mistyped option (--pasword=...) is not known to hold a secret: mask every value.
            message = message.replaceAll("(-[A-Za-z0-9-]*=)[^'\\s,]*", "$1" + Redaction.MASK);
          }
          err.println("error: " + Redaction.text(message, root.secrets));
          if (ex instanceof CommandLine.UnmatchedArgumentException) {
            List<String> suggestions = ((CommandLine.UnmatchedArgumentException) ex).getSuggestions();
            if (!suggestions.isEmpty()) {
              err.println("did you mean: " + String.join(" or ", suggestions) + "?");
            }
          }
          err.println("see: " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help");
          return ERROR;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.println("error: " + Redaction.text(String.valueOf(ex.getMessage()), root.secrets));
          return ERROR;
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /**
   * Reads profiles one at a time into one merged profile: memory holds the merge and one file,
   * not every file (50 collectors' profiles of 5,000 shapes would not fit in 256 MiB together).
   */
  static TrafficProfile readMerged(List<Path> files, ProfileLimits limits) throws IOException {
    TrafficProfile merged = new TrafficProfile();
    for (Path f : files) {
      try {
        merged.addAll(ProfileJson.readFile(f, limits));
      } catch (ProfileFormatException e) {
        throw new IOException(f + ": " + e.getMessage(), e);
      }
    }
    return merged;
  }

  /** A TiDB status URL: http(s)://host[:port][/]; the error says which value and why. */
  static void checkStatusUrl(CommandLine cl, String value) {
    String why = null;
    try {
      java.net.URI u = new java.net.URI(value);
      if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
        why = "not an http:// or https:// URL";
      } else if (u.getHost() == null) {
        why = "it names no host";
      } else if (u.getUserInfo() != null) {
        why = "it must not carry credentials";
      }
    } catch (java.net.URISyntaxException e) {
      why = "not a URL (" + e.getReason() + ")";
    }
    if (why != null) {
      throw new CommandLine.ParameterException(cl, "--status-url "
          + Redaction.text(value, java.util.Collections.<String>emptyList()) + ": " + why
          + "; expected TiDB's status port, e.g. http://tidb:10080");
    }
  }

  /** Reads profiles, naming the file and the field on a format error. */
  static List<TrafficProfile> read(List<Path> files, ProfileLimits limits) throws IOException {
    List<TrafficProfile> profiles = new ArrayList<>();
    for (Path f : files) {
      try {
        profiles.add(ProfileJson.readFile(f, limits));
      } catch (ProfileFormatException e) {
        throw new IOException(f + ": " + e.getMessage(), e);
      }
    }
    return profiles;
  }

  /** How much of a profile file is accepted (forged or corrupt files must not exhaust memory). */
  static final class ProfileOptions {
    @Option(names = "--max-profile-size", paramLabel = "SIZE", defaultValue = "64M",
        description = "Refuse a profile file larger than this: bytes, or with K, M or G (binary)"
            + " (default: ${DEFAULT-VALUE}).")
    String maxSize;

    @Option(names = "--max-profile-shapes", paramLabel = "N", defaultValue = "20000",
        description = "Refuse a profile with more shapes than this (default: ${DEFAULT-VALUE}).")
    int maxShapes;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    ProfileLimits limits() {
      long bytes = parseSize(maxSize);
      if (bytes < 1 || maxShapes < 1) {
        throw new CommandLine.ParameterException(mixee.commandLine(),
            "--max-profile-size and --max-profile-shapes must be positive");
      }
      return ProfileLimits.defaults().withMaxBytes(bytes).withMaxShapes(maxShapes);
    }

    private long parseSize(String text) {
      String t = text.trim().toUpperCase(java.util.Locale.ROOT);
      int shift = 0;
      if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
        shift = t.endsWith("K") ? 10 : t.endsWith("M") ? 20 : 30;
        t = t.substring(0, t.length() - 1);
      }
      try {
        long n = Long.parseLong(t);
        if (n > (Long.MAX_VALUE >> shift)) {
          throw new NumberFormatException();
        }
        return n << shift;
      } catch (NumberFormatException e) {
        throw new CommandLine.ParameterException(mixee.commandLine(),
            "--max-profile-size: expected bytes, or a number with K, M or G, got '" + text + "'");
      }
    }
  }

  /** Options to reach a live server (read-only) or a saved server view. */
  static final class ServerOptions {
    @Option(names = "--jdbc-url", description = "JDBC URL of the server to inspect (read-only).")
    String jdbcUrl;

    @Option(names = "--user", description = "User for --jdbc-url.")
    String user;

    @Option(names = "--status-url", description = "TiDB status port, e.g. http://tidb:10080 (reads /metrics).")
    String statusUrl;

    @Option(names = "--server-view", description = "A server view saved by 'inspect --output'.")
    Path serverView;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    /** The server view, or null; {@code password} is the command's (mixins do not nest well). */
    ServerView view(PasswordOptions password) throws Exception {
      return view(password, 0, 0);
    }

    /**
     * The server view, or null; TiDB's statement summary read for the profile's window (epoch
     * milliseconds, 0 for none): every summary interval overlapping it, not only the current one.
     */
    ServerView view(PasswordOptions password, long fromMillis, long toMillis) throws Exception {
      if (statusUrl != null) {
        checkStatusUrl(mixee.commandLine(), statusUrl);
        if (jdbcUrl == null) {
          throw new CommandLine.ParameterException(mixee.commandLine(),
              "--status-url " + statusUrl + " is read together with --jdbc-url, which is missing");
        }
      }
      if (serverView != null) {
        if (!Files.isRegularFile(serverView)) {
          throw new CommandLine.ParameterException(mixee.commandLine(), "--server-view " + serverView
              + ": " + (Files.exists(serverView) ? "not a regular file" : "no such file"));
        }
        long size = Files.size(serverView);
        if (size > MAX_SERVER_VIEW_BYTES) {
          throw new IOException("--server-view " + serverView + ": the server view is " + size
              + " bytes, above the limit of " + MAX_SERVER_VIEW_BYTES + " bytes");
        }
        try {
          return ServerViewJson.fromJson(new String(Files.readAllBytes(serverView), StandardCharsets.UTF_8));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
          throw new IOException("--server-view " + serverView + ": not valid JSON"
              + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr())
              + " (" + e.getOriginalMessage().replaceAll(" \\(start marker.*", "").replaceAll("\\s+", " ") + ")");
        } catch (IOException e) {
          throw new IOException("--server-view " + serverView + ": " + e.getMessage(), e);
        }
      }
      if (jdbcUrl == null) {
        return null;
      }
      return inspect(jdbcUrl, user, password.resolve(), statusUrl, fromMillis, toMillis);
    }
  }

  /**
   * Inspects the server; a failure names the URL (the error handler masks its credentials), since
   * the driver's own message often does not say which server it could not reach.
   */
  static ServerView inspect(String jdbcUrl, String user, String password, String statusUrl)
      throws IOException {
    return inspect(jdbcUrl, user, password, statusUrl, 0, 0);
  }

  static ServerView inspect(
      String jdbcUrl, String user, String password, String statusUrl, long fromMillis, long toMillis)
      throws IOException {
    try {
      return ServerInspector.inspect(jdbcUrl, user, password, statusUrl, fromMillis, toMillis);
    } catch (java.sql.SQLException e) {
      // A space ends the masked URL: a colon could be part of a password.
      throw new IOException("cannot inspect " + jdbcUrl + " - " + e.getMessage(), e);
    }
  }

  /**
   * Where the password comes from, first match wins: {@code --password-file FILE} or {@code
   * --password[=P]} (not both), else the {@value #PASSWORD_ENV} environment variable, else none.
   * A value given to {@code --password} on the command line is visible in {@code ps}: it works,
   * with a warning; {@code --password} without a value prompts.
   */
  static final class PasswordOptions {
    @Option(names = "--password", arity = "0..1", interactive = true, paramLabel = "PASSWORD",
        description = "Password for --jdbc-url. Without a value: prompts. A value here is visible"
            + " in ps: prefer --password-file or " + PASSWORD_ENV + ".")
    String password;

    @Option(names = "--password-file", paramLabel = "FILE",
        description = "Read the password from the first line of FILE.")
    Path passwordFile;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    String resolve() throws IOException {
      WireAdvisorCli root = (WireAdvisorCli) mixee.root().userObject();
      String resolved = resolve(root.env, mixee.commandLine().getErr());
      if (resolved != null) {
        root.secrets.add(resolved);
      }
      return resolved;
    }

    private String resolve(Map<String, String> env, PrintWriter err) throws IOException {
      if (passwordFile != null && password != null) {
        throw new CommandLine.ParameterException(
            mixee.commandLine(), "give --password or --password-file, not both");
      }
      if (passwordFile != null) {
        return readPasswordFile(passwordFile);
      }
      if (password != null) {
        if (!password.isEmpty() && givenOnCommandLine()) {
          err.println(
              "warning: a --password value on the command line is visible to other users (ps,"
                  + " shell history); use --password-file FILE, " + PASSWORD_ENV
                  + " or --password without a value (prompts)");
          err.flush();
        }
        return password;
      }
      return env.get(PASSWORD_ENV);
    }

    /** True when the value came with the option, not from the interactive prompt. */
    private boolean givenOnCommandLine() {
      CommandLine.ParseResult pr = mixee.commandLine().getParseResult();
      CommandLine.Model.OptionSpec o = pr == null ? null : pr.matchedOption("--password");
      return o != null && !o.originalStringValues().isEmpty();
    }
  }

  /** The first line of {@code file}, without its line terminator. */
  static String readPasswordFile(Path file) throws IOException {
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line = r.readLine();
      return line == null ? "" : line;
    } catch (NoSuchFileException e) {
      throw new IOException("cannot read the password file " + file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new IOException("cannot read the password file " + file + ": permission denied");
    } catch (IOException e) {
      // The exception's own message is not printed: it could quote part of the file.
      throw new IOException(
          "cannot read the password file " + file + ": " + e.getClass().getSimpleName());
    }
  }

  /**
   * Prints {@code text}, or writes it to {@code output} (-o): its directory is created when
   * missing; the file is written 0600 through a fresh file renamed onto it, never through a link
   * (reports hold statement texts). A failure names -o and the path.
   */
  static void write(String text, Path output, PrintWriter out) throws IOException {
    if (output == null) {
      out.print(text);
      out.flush();
      return;
    }
    if (Files.isDirectory(output)) {
      throw new IOException("-o " + output + ": is a directory; name a file in it");
    }
    try {
      io.wireadvisor.files.SafeFiles.write(output, o -> o.write(text.getBytes(StandardCharsets.UTF_8)));
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IOException("-o " + output + ": permission denied (" + e.getFile() + ")");
    } catch (java.nio.file.FileSystemException e) {
      throw new IOException("-o " + output + ": cannot write there (" + e.getReason() + ": " + e.getFile() + ")");
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

    @CommandLine.Mixin PasswordOptions password;

    @CommandLine.Mixin ProfileOptions limits;

    @Option(names = "--format", defaultValue = "text", description = "text, markdown, json or html.")
    Format format;

    @Option(names = {"-o", "--output"}, description = "Write to this file instead of stdout.")
    Path output;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      TrafficProfile profile = readMerged(profiles, limits.limits());
      Analysis a = Advisor.analyze(profile, server.view(password, profile.startMillis(), profile.endMillis()));
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

    @CommandLine.Mixin ProfileOptions limits;

    @Override
    public Integer call() throws Exception {
      ProfileJson.writeFile(readMerged(profiles, limits.limits()), output);
      return NOTHING_TO_DO;
    }
  }

  @Command(name = "diff", mixinStandardHelpOptions = true,
      description = "Checks whether AFTER shows the changes recommended for BEFORE, and that"
          + " wire commands per statement did not rise and no errors appeared.",
      exitCodeListHeading = "Exit codes:%n",
      exitCodeList = {"0:every measurable expectation met (or nothing was recommended) and no regression",
          "1:some expectation not met, or commands per statement rose, or errors appeared", "2:error"})
  static final class Diff implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BEFORE")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER")
    Path after;

    @CommandLine.Mixin ServerOptions server;

    @CommandLine.Mixin PasswordOptions password;

    @CommandLine.Mixin ProfileOptions limits;

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
      List<TrafficProfile> p = read(files, limits.limits());
      // The server's side is BEFORE's, whose advice diff checks: its window selects the summary's
      // intervals, as analyze's did. (Where both runs fall in one interval, TiDB's rows add up
      // both: the AFTER run's prepared executions of a statement BEFORE sent as text share its
      // row, and their plan-cache refusals can then draw an expectation analyze did not make.)
      Comparison c = Comparison.of(p.get(0), p.get(1), server.view(password, p.get(0).startMillis(), p.get(0).endMillis()));
      String text = format == Format.json ? AnalysisJson.toJson(c)
          : format == Format.html ? Reports.html(c) : Reports.text(c);
      write(text, output, spec.commandLine().getOut());
      return c.passed() ? NOTHING_TO_DO : RECOMMENDATIONS;
    }
  }

  @Command(name = "inspect", mixinStandardHelpOptions = true,
      description = "Reads version, globals, tables and (TiDB) statement summaries; read-only.")
  static final class Inspect implements Callable<Integer> {
    @Option(names = "--jdbc-url", required = true)
    String jdbcUrl;

    @Option(names = "--user")
    String user;

    @CommandLine.Mixin PasswordOptions password;

    @Option(names = "--status-url", description = "TiDB status port, e.g. http://tidb:10080.")
    String statusUrl;

    @Option(names = {"-o", "--output"}, description = "Write the view as JSON to this file.")
    Path output;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      ServerView v = inspect(jdbcUrl, user, password.resolve(), statusUrl);
      write(ServerViewJson.toJson(v), output, spec.commandLine().getOut());
      return NOTHING_TO_DO;
    }
  }
}
