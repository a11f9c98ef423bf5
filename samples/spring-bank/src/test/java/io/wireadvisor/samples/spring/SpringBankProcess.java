package io.wireadvisor.samples.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repackaged application run as the README runs it: {@code java -jar spring-bank.jar} in its
 * own JVM, the database named by {@code SPRING_DATASOURCE_*}, the agent turned on by
 * {@code JAVA_TOOL_OPTIONS=-javaagent:…} and {@code WIRE_ADVISOR_PROFILE} alone. The jars come
 * from system properties set by this module's POM.
 */
final class SpringBankProcess implements AutoCloseable {
  /** The repackaged application jar ({@code samples/spring-bank/target/spring-bank.jar}). */
  static final String JAR = "springBank.jar";
  /** The shaded agent jar ({@code agent/target/wire-advisor-agent.jar}). */
  static final String AGENT_JAR = "springBank.agentJar";

  private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path log;
  private URI base;

  private SpringBankProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts the application on a free port against {@code jdbcUrl}, writing its profile to
   * {@code profile} and its output to {@code log}, and waits until it serves requests.
   *
   * @param args further Spring Boot arguments, e.g. {@code --spring.datasource.hikari.…=…}
   */
  static SpringBankProcess start(String jdbcUrl, String user, String password, Path profile, Path log,
      List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-jar");
    cmd.add(jar(JAR).toString());
    cmd.add("--server.port=0");
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    // Only what this run sets: not the harness's WIRE_ADVISOR_JDBC_* nor a developer's own agent
    // options or Spring settings.
    env.keySet().removeIf(k -> k.startsWith("WIRE_ADVISOR_") || k.startsWith("SPRING_")
        || k.equals("JAVA_TOOL_OPTIONS") || k.equals("JDK_JAVA_OPTIONS"));
    env.put("JAVA_TOOL_OPTIONS", "-javaagent:" + jar(AGENT_JAR));
    env.put("WIRE_ADVISOR_PROFILE", profile.toString());
    env.put("SPRING_DATASOURCE_URL", jdbcUrl);
    env.put("SPRING_DATASOURCE_USERNAME", user);
    env.put("SPRING_DATASOURCE_PASSWORD", password == null ? "" : password);
    SpringBankProcess app = new SpringBankProcess(pb.start(), log);
    try {
      app.awaitStarted();
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      app.close();
      throw e;
    }
    return app;
  }

  private static Path jar(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Paths.get(value))) {
      throw new IllegalStateException(property + " must name a jar file (set by samples/spring-bank/pom.xml;"
          + " run `mvn -pl samples/spring-bank -am verify`), was " + value);
    }
    return Paths.get(value);
  }

  /** Waits for Tomcat's port in the log, then for a first answer (the demo data is loaded by then). */
  private void awaitStarted() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (base == null) {
      Matcher m = STARTED.matcher(output());
      if (m.find()) {
        base = URI.create("http://127.0.0.1:" + m.group(1));
      } else {
        check(deadline, "did not start Tomcat");
        Thread.sleep(250);
      }
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest probe = HttpRequest.newBuilder(base.resolve("/accounts/1")).timeout(Duration.ofSeconds(10)).build();
    while (true) {
      try {
        if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Tomcat is bound but not serving yet.
      }
      check(deadline, "did not answer GET /accounts/1 with 200");
      Thread.sleep(250);
    }
  }

  private void check(long deadline, String what) throws IOException {
    if (!process.isAlive()) {
      throw new AssertionError("the application exited (" + process.exitValue() + ") and " + what
          + "; its output:\n" + output());
    }
    if (System.nanoTime() > deadline) {
      throw new AssertionError("the application " + what + " within " + START_TIMEOUT.toSeconds()
          + " s; its output:\n" + output());
    }
  }

  /** Where the application listens, e.g. {@code http://127.0.0.1:41234}. */
  URI base() {
    return base;
  }

  /** Everything the application printed so far. */
  String output() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /**
   * Stops the application as a service manager does (SIGTERM): Spring closes the pool, the
   * agent writes the profile and its report at exit.
   */
  void stop() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the application did not stop within " + STOP_TIMEOUT.toSeconds()
          + " s of SIGTERM; its output:\n" + output());
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
