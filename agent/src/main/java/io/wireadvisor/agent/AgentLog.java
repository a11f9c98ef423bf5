package io.wireadvisor.agent;

/**
 * The agent's only output: one line on stderr per event, prefixed {@code wire-advisor:} so it is
 * findable in any application's log. Notes ({@link #info}) are silenced by {@code quiet=true};
 * warnings never are.
 */
final class AgentLog {
  private static final String PREFIX = "wire-advisor: ";
  private static volatile boolean quiet;

  private AgentLog() {}

  /** Set once from the resolved options, before anything else logs a note. */
  static void quiet(boolean value) {
    quiet = value;
  }

  /** A note on stderr (where the endpoint is, ...), unless {@code quiet=true}. */
  static void info(String message) {
    if (!quiet) {
      System.err.println(PREFIX + message);
    }
  }

  /** One line on stderr, whatever {@code quiet} says. */
  static void warn(String message) {
    System.err.println(PREFIX + message);
  }
}
