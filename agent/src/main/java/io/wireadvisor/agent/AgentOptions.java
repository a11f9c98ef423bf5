package io.wireadvisor.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

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
  private final List<String> warnings = new ArrayList<>();

  private AgentOptions() {}

  /** Parses an options string (null or empty: all defaults). */
  public static AgentOptions parse(String args) {
    AgentOptions o = new AgentOptions();
    if (args == null || args.trim().isEmpty()) {
      return o;
    }
    for (String pair : args.split(",")) {
      String p = pair.trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq <= 0) {
        o.warnings.add("option '" + p + "' is not key=value; ignored");
        continue;
      }
      String key = p.substring(0, eq).trim();
      String value = p.substring(eq + 1).trim();
      try {
        o.set(key, value);
      } catch (IllegalArgumentException e) {
        o.warnings.add("option " + key + "=" + value + ": " + e.getMessage() + "; using the default");
      }
    }
    return o;
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
      default:
        throw new IllegalArgumentException("unknown option (see java -jar wire-advisor-agent.jar --help)");
    }
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
    sb.append("\nAn unknown option or a bad value gives one warning line; the agent then uses the default.\n")
        .append("Documentation: docs/agent.md\n");
    return sb.toString();
  }
}
