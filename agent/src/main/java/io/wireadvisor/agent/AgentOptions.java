package io.wireadvisor.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The agent's options: {@code key=value} pairs separated by {@code ,}, as given after {@code
 * -javaagent:wire-advisor-agent.jar=} or to {@code attach <pid>}. Parsing never fails: an unknown
 * key or a bad value becomes one warning and the default is kept, because the agent must never
 * stop the application it rides in.
 */
public final class AgentOptions {
  /** Option names with their help text, in the order {@code --help} prints them. */
  static final String[][] HELP = {
    {"profile=<path>", "write the JSON traffic profile there every interval and at shutdown"},
    {"interval=<duration>", "how often to rewrite the profile: 30s (default), 500ms, 5m; 0 = only at shutdown"},
    {"report=<path>", "write the advisor's text report there at shutdown"},
    {"quiet=<bool>", "true: no report on stderr at shutdown (default false)"},
    {"prometheus=<host:port>", "serve Prometheus metrics at http://host:port/metrics (host defaults to 127.0.0.1)"},
    {"metrics=<bool>", "register Micrometer meters in the agent's own registry (default true)"},
    {"sampleSql=<bool>", "keep one original SQL text per shape (may contain literals; default false)"},
    {"maxShapes=<n>", "distinct statement shapes kept before the rest count as 'overflow' (default 5000)"},
    {"maxTexts=<n>", "distinct SQL texts remembered for the fast path (default 20000)"},
    {"capture=<path>", "capture the traffic from start-up into this new 0600 file for `wire-advisor replay`"
        + " (it holds statements and data values; docs/replay.md); off by default"},
    {"captureMaxBytes=<n>", "the capture's size limit in bytes (default 67108864)"},
    {"captureMaxSeconds=<n>", "the capture's time limit in seconds (default 300, at most a week)"},
    {"captureMaskValues=<bool>", "capture values as their type and length only (default false)"},
    {"serverStatusUrl=<url>", "a TiDB status port (http://host:10080): its process CPU over each window goes"
        + " into the profile (docs/profile.md, cpu); off by default"},
    {"serverCpuProfile=<seconds>", "with serverStatusUrl, take TiDB CPU profiles of this many seconds back to"
        + " back (/debug/pprof/profile, 5 to 60) and record where its CPU went (parse, compile) in each window;"
        + " profiling costs the server a few percent of CPU while it runs; 0, the default, is off"},
  };

  private String profilePath;
  private long intervalMillis = 30_000;
  private String reportPath;
  private boolean quiet;
  private String prometheusHost;
  private int prometheusPort = -1;
  private boolean metrics = true;
  private boolean sampleSql;
  private int maxShapes = 5000;
  private int maxTexts = 20_000;
  private String capturePath;
  private long captureMaxBytes = AgentCapture.DEFAULT_MAX_BYTES;
  private long captureMaxSeconds = AgentCapture.DEFAULT_MAX_SECONDS;
  private boolean captureMaskValues;
  private String serverStatusUrl;
  private int serverCpuProfileSeconds;
  private final List<String> warnings = new ArrayList<>();

  private AgentOptions() {}

  /** The option keys, each also {@code -Dwireadvisor.<key>} and {@code WIRE_ADVISOR_<KEY>}. */
  static final String[] KEYS = {
    "profile", "interval", "report", "quiet", "prometheus", "metrics", "sampleSql", "maxShapes", "maxTexts",
    "capture", "captureMaxBytes", "captureMaxSeconds", "captureMaskValues", "serverStatusUrl",
    "serverCpuProfile"
  };
  /** System properties start with this. */
  static final String PROPERTY_PREFIX = "wireadvisor.";
  /** Environment variables start with this. */
  static final String ENV_PREFIX = "WIRE_ADVISOR_";

  /** Where each option's value came from ({@code -javaagent}, {@code -Dwireadvisor.x}, {@code WIRE_ADVISOR_X}). */
  private final Map<String, String> origins = new LinkedHashMap<>();

  /** Parses an options string (null or empty: all defaults). */
  public static AgentOptions parse(String args) {
    return resolve(args, new Properties(), Collections.<String, String>emptyMap());
  }

  /**
   * The options from, in this order of precedence, the agent argument string, the system
   * properties {@code -Dwireadvisor.<key>}, and the environment {@code WIRE_ADVISOR_<KEY>} (key
   * in upper snake case: {@code sampleSql} is {@code WIRE_ADVISOR_SAMPLE_SQL}), as the
   * OpenTelemetry agent reads them, so that {@code JAVA_TOOL_OPTIONS} or a container's environment
   * can turn it on without touching the command line. The argument string wins because it is
   * the most specific (written for this JVM); a system property beats the environment as it does
   * in OpenTelemetry. An unknown {@code wireadvisor.*} property is one warning; unknown
   * {@code WIRE_ADVISOR_*} variables are not, as other tools' variables share the prefix
   * ({@code WIRE_ADVISOR_JDBC_URL}, {@code WIRE_ADVISOR_PASSWORD}).
   */
  public static AgentOptions resolve(String args, Properties system, Map<String, String> env) {
    AgentOptions o = new AgentOptions();
    for (String key : KEYS) {
      String v = env.get(envName(key));
      if (v != null) {
        o.apply(key, v, envName(key));
      }
    }
    for (String name : system.stringPropertyNames()) {
      if (!name.startsWith(PROPERTY_PREFIX)) {
        continue;
      }
      String rest = name.substring(PROPERTY_PREFIX.length());
      if (testkitProperty(rest)) {
        continue;
      }
      String key = known(rest);
      if (key == null) {
        o.warnings.add("system property -D" + name + " is not an option (see java -jar"
            + " wire-advisor-agent.jar --help); ignored");
        continue;
      }
      o.apply(key, system.getProperty(name), "-D" + name);
    }
    o.parseArgs(args);
    return o;
  }

  /**
   * The project's test kit and samples read {@code wireadvisor.jdbc.*}, {@code wireadvisor.tidb.*},
   * {@code wireadvisor.docker.*} and {@code wireadvisor.agent.jar} (the server to test against, the
   * agent jar to attach): not agent options, and no warning (the bank sample set two and the
   * agent it attaches warned about both at every run).
   */
  static boolean testkitProperty(String rest) {
    return rest.startsWith("jdbc.") || rest.startsWith("tidb.") || rest.startsWith("docker.")
        || rest.equals("agent.jar");
  }

  /** {@code sampleSql} → {@code WIRE_ADVISOR_SAMPLE_SQL}. */
  static String envName(String key) {
    StringBuilder b = new StringBuilder(ENV_PREFIX);
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isUpperCase(c)) {
        b.append('_');
      }
      b.append(Character.toUpperCase(c));
    }
    return b.toString();
  }

  private static String known(String key) {
    for (String k : KEYS) {
      if (k.equalsIgnoreCase(key)) {
        return k;
      }
    }
    return null;
  }

  private void apply(String key, String value, String origin) {
    try {
      set(key, value.trim());
      origins.put(key, origin);
    } catch (IllegalArgumentException e) {
      warnings.add(origin + "=" + echo(key, value.trim()) + ": " + e.getMessage() + "; using the default");
    }
  }

  /** A refused value as a warning shows it: a URL's user part (which may hold a password) masked. */
  static String echo(String key, String value) {
    if ("serverStatusUrl".equals(key) && value.indexOf('@') >= 0) {
      int scheme = value.indexOf("//");
      return (scheme >= 0 ? value.substring(0, scheme + 2) : "") + "****@" + value.substring(value.lastIndexOf('@') + 1);
    }
    return value;
  }

  private void parseArgs(String args) {
    AgentOptions o = this;
    if (args == null || args.trim().isEmpty()) {
      return;
    }
    int position = 0;
    for (String pair : args.split(",")) {
      position++;
      String p = pair.trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq <= 0) {
        // Named by position only: a bare word here is as likely a misplaced secret as a typo.
        o.warnings.add("option " + position + " of the -javaagent argument is not key=value; ignored");
        continue;
      }
      String key = p.substring(0, eq).trim();
      String value = p.substring(eq + 1).trim();
      if (!key.equals(known(key))) {
        // The value of an unknown key is never echoed: a mistyped key may well carry a secret.
        o.warnings.add("option " + key + ": unknown option (see java -jar wire-advisor-agent.jar"
            + " --help); ignored");
        continue;
      }
      try {
        o.set(key, value);
        o.origins.put(key, "-javaagent");
      } catch (IllegalArgumentException e) {
        o.warnings.add("option " + key + "=" + echo(key, value) + ": " + e.getMessage() + "; using the default");
      }
    }
  }

  /**
   * The start-up line: the effective configuration, where each set option came from, the profile
   * path and the metrics port ({@code boundPort} when the endpoint is up, else -1). No value here
   * can be a secret: no option holds one.
   */
  public String describe(String version, int boundPort) {
    StringBuilder b = new StringBuilder("agent ").append(version == null ? "(dev)" : version).append(" on: ");
    b.append("profile=").append(profilePath == null ? "none" : profilePath);
    b.append(" every ").append(intervalMillis == 0 ? "shutdown only" : intervalMillis + " ms");
    b.append(", report=").append(reportPath == null ? (quiet ? "none" : "stderr at exit") : reportPath);
    if (prometheusPort >= 0) {
      b.append(", metrics http://").append(prometheusHost).append(':')
          .append(boundPort >= 0 ? boundPort : prometheusPort).append("/metrics");
    } else {
      b.append(", metrics ").append(metrics ? "in-process only" : "off");
    }
    b.append(", maxShapes=").append(maxShapes).append(", maxTexts=").append(maxTexts)
        .append(", sampleSql=").append(sampleSql);
    if (capturePath != null) {
      b.append(", capture=").append(capturePath).append(" (at most ").append(captureMaxBytes)
          .append(" bytes, ").append(captureMaxSeconds).append(" s").append(captureMaskValues ? ", values masked" : "")
          .append(')');
    }
    if (serverStatusUrl != null) {
      b.append(", server CPU from ").append(serverStatusUrl);
      if (serverCpuProfileSeconds > 0) {
        b.append(" (CPU profiles of ").append(serverCpuProfileSeconds).append(" s)");
      }
    }
    if (!origins.isEmpty()) {
      b.append(" (set by");
      for (Map.Entry<String, String> e : origins.entrySet()) {
        b.append(' ').append(e.getKey()).append(':').append(e.getValue());
      }
      b.append(')');
    }
    return b.toString();
  }

  private void set(String key, String value) {
    switch (key) {
      case "profile":
        profilePath = nonEmpty(value);
        break;
      case "interval":
        intervalMillis = parseDuration(value);
        break;
      case "report":
        reportPath = nonEmpty(value);
        break;
      case "quiet":
        quiet = parseBoolean(value);
        break;
      case "prometheus":
        parsePrometheus(value);
        break;
      case "metrics":
        metrics = parseBoolean(value);
        break;
      case "sampleSql":
        sampleSql = parseBoolean(value);
        break;
      case "maxShapes":
        maxShapes = parseInt(value, 2);
        break;
      case "maxTexts":
        maxTexts = parseInt(value, 1);
        break;
      case "capture":
        capturePath = nonEmpty(value);
        break;
      case "captureMaxBytes":
        captureMaxBytes = parseLong(value, 4096, Long.MAX_VALUE);
        break;
      case "captureMaxSeconds":
        captureMaxSeconds = parseLong(value, 1, AgentCapture.MAX_SECONDS);
        break;
      case "captureMaskValues":
        captureMaskValues = parseBoolean(value);
        break;
      case "serverStatusUrl":
        serverStatusUrl = parseStatusUrl(value);
        break;
      case "serverCpuProfile":
        serverCpuProfileSeconds = parseCpuProfileSeconds(value);
        break;
      default:
        throw new IllegalArgumentException("unknown option (see java -jar wire-advisor-agent.jar --help)");
    }
  }

  /** 0 (off) or 5 to 60 seconds. */
  static int parseCpuProfileSeconds(String v) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number of seconds");
    }
    if (n != 0 && (n < 5 || n > 60)) {
      throw new IllegalArgumentException("must be 0 (off) or 5 to 60 seconds");
    }
    return n;
  }

  private static String nonEmpty(String v) {
    if (v.isEmpty()) {
      throw new IllegalArgumentException("empty value");
    }
    return v;
  }

  static boolean parseBoolean(String v) {
    if ("true".equalsIgnoreCase(v)) {
      return true;
    }
    if ("false".equalsIgnoreCase(v)) {
      return false;
    }
    throw new IllegalArgumentException("expected true or false");
  }

  private static int parseInt(String v, int min) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer");
    }
    if (n < min) {
      throw new IllegalArgumentException("must be >= " + min);
    }
    return n;
  }

  /** {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}, or plain seconds; 0 turns the timer off. */
  static long parseDuration(String v) {
    String s = v.toLowerCase(Locale.ROOT);
    long unit = 1000;
    String digits = s;
    if (s.endsWith("ms")) {
      unit = 1;
      digits = s.substring(0, s.length() - 2);
    } else if (s.endsWith("s")) {
      digits = s.substring(0, s.length() - 1);
    } else if (s.endsWith("m")) {
      unit = 60_000;
      digits = s.substring(0, s.length() - 1);
    } else if (s.endsWith("h")) {
      unit = 3_600_000;
      digits = s.substring(0, s.length() - 1);
    }
    long n;
    try {
      n = Long.parseLong(digits.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a duration like 30s, 500ms or 5m");
    }
    if (n < 0 || n > Long.MAX_VALUE / unit) {
      throw new IllegalArgumentException("out of range");
    }
    return n * unit;
  }

  private void parsePrometheus(String v) {
    int colon = v.lastIndexOf(':');
    String host = colon < 0 ? "" : v.substring(0, colon).trim();
    String portText = colon < 0 ? v : v.substring(colon + 1);
    int port;
    try {
      port = Integer.parseInt(portText.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected host:port or port");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range");
    }
    // Loopback unless the user names another interface: metrics can reveal table names.
    prometheusHost = host.isEmpty() ? "127.0.0.1" : host;
    prometheusPort = port;
  }

  /** Problems found while parsing, one line each, already phrased for the user. */
  public List<String> warnings() {
    return Collections.unmodifiableList(warnings);
  }

  public String profilePath() {
    return profilePath;
  }

  public long intervalMillis() {
    return intervalMillis;
  }

  public String reportPath() {
    return reportPath;
  }

  /** The TiDB status port whose process CPU the profile records, or null (the default). */
  /** Seconds per server CPU profile; 0 when off. */
  public int serverCpuProfileSeconds() {
    return serverCpuProfileSeconds;
  }

  public String serverStatusUrl() {
    return serverStatusUrl;
  }

  /** {@code http://host[:port]} without credentials, query or fragment; trailing slashes dropped. */
  static String parseStatusUrl(String value) {
    String v = nonEmpty(value);
    if (v == null) {
      return null;
    }
    java.net.URI u;
    try {
      u = new java.net.URI(v);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: " + e.getMessage());
    }
    if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null || u.getRawUserInfo() != null
        || u.getRawQuery() != null || u.getRawFragment() != null) {
      throw new IllegalArgumentException("expected http://host:port (a TiDB status port), without user, query or fragment");
    }
    return v.replaceAll("/+$", "");
  }

  public boolean quiet() {
    return quiet;
  }

  /** Null when no Prometheus endpoint was asked for. */
  public String prometheusHost() {
    return prometheusHost;
  }

  /** -1 when no Prometheus endpoint was asked for; 0 picks a free port. */
  public int prometheusPort() {
    return prometheusPort;
  }

  public boolean metrics() {
    return metrics;
  }

  public boolean sampleSql() {
    return sampleSql;
  }

  public int maxShapes() {
    return maxShapes;
  }

  /** Where to capture from start-up, or null. */
  public String capturePath() {
    return capturePath;
  }

  public long captureMaxBytes() {
    return captureMaxBytes;
  }

  public long captureMaxSeconds() {
    return captureMaxSeconds;
  }

  public boolean captureMaskValues() {
    return captureMaskValues;
  }

  private static long parseLong(String v, long min, long max) {
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("expected " + min + ".." + max);
    }
    return n;
  }

  public int maxTexts() {
    return maxTexts;
  }

  /** The usage text of {@code java -jar wire-advisor-agent.jar --help}. */
  public static String usage() {
    StringBuilder sb = new StringBuilder();
    sb.append("wire-advisor agent: counts what MySQL Connector/J sends on the wire.\n\n")
        .append("Usage:\n")
        .append("  java -javaagent:wire-advisor-agent.jar[=options] -jar app.jar\n")
        .append("  java -jar wire-advisor-agent.jar attach <pid> [options]\n")
        .append("  java -jar wire-advisor-agent.jar --help\n\n")
        .append("Options (key=value, separated by ','; e.g. profile=/tmp/p.json,interval=30s):\n");
    for (String[] h : HELP) {
      sb.append(String.format("  %-24s %s%n", h[0], h[1]));
    }
    sb.append("\nEach option is also -Dwireadvisor.<option> and WIRE_ADVISOR_<OPTION> (upper snake case:\n")
        .append("WIRE_ADVISOR_SAMPLE_SQL=true), e.g. in a container:\n")
        .append("  JAVA_TOOL_OPTIONS=\"-javaagent:wire-advisor-agent.jar -Dwireadvisor.profile=/tmp/p.json\"\n")
        .append("The -javaagent string wins, then -D, then the environment.\n")
        .append("An unknown option or a bad value gives one warning line; the agent then uses the default.\n")
        .append("Documentation: docs/agent.md\n");
    return sb.toString();
  }
}
