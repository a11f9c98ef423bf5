package io.wireadvisor.samples.shop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The repackaged application run as a user runs it: {@code java -jar spring-shop.jar} in its own
 * JVM, the database named by {@code SPRING_DATASOURCE_*}, the agent turned on by
 * {@code JAVA_TOOL_OPTIONS=-javaagent:…} and {@code WIRE_ADVISOR_PROFILE}. It runs its workload
 * and exits; the agent writes the profile at exit.
 */
final class SpringShopProcess {
  /** The repackaged application jar ({@code samples/spring-shop/target/spring-shop.jar}). */
  static final String JAR = "springShop.jar";
  /** The shaded agent jar ({@code agent/target/wire-advisor-agent.jar}). */
  static final String AGENT_JAR = "springShop.agentJar";

  private static final Duration TIMEOUT = Duration.ofSeconds(600);

  private SpringShopProcess() {}

  /**
   * Runs the application to its end against {@code jdbcUrl} with {@code args} (e.g.
   * {@code --spring.datasource.hikari.…=…}); returns its output. Fails when it exits non-zero or
   * does not end within {@link #TIMEOUT}.
   */
  static String run(String jdbcUrl, String user, String password, Path profile, Path log, List<String> args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-jar");
    cmd.add(jar(JAR).toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    // Only what this run sets: not the harness's WIRE_ADVISOR_JDBC_* nor a developer's own agent
    // options or Spring settings.
    env.keySet().removeIf(k -> k.startsWith("WIRE_ADVISOR_") || k.startsWith("SPRING_") || k.startsWith("SHOP_")
        || k.equals("JAVA_TOOL_OPTIONS") || k.equals("JDK_JAVA_OPTIONS"));
    // C1 only: the application starts in about two thirds of the time; what it sends is the same.
    env.put("JAVA_TOOL_OPTIONS", "-javaagent:" + jar(AGENT_JAR) + " -XX:TieredStopAtLevel=1");
    env.put("WIRE_ADVISOR_PROFILE", profile.toString());
    env.put("SPRING_DATASOURCE_URL", jdbcUrl);
    env.put("SPRING_DATASOURCE_USERNAME", user);
    env.put("SPRING_DATASOURCE_PASSWORD", password == null ? "" : password);
    Process process = pb.start();
    try {
      if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError("spring-shop did not finish within " + TIMEOUT.toSeconds() + " s; its output:\n"
            + Files.readString(log, StandardCharsets.UTF_8));
      }
    } finally {
      process.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new AssertionError("spring-shop exited with " + process.exitValue() + "; its output:\n" + output);
    }
    return output;
  }

  private static Path jar(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Paths.get(value))) {
      throw new IllegalStateException(property + " must name a jar file (set by samples/spring-shop/pom.xml;"
          + " run `mvn -pl samples/spring-shop -am verify`), was " + value);
    }
    return Paths.get(value);
  }
}
