package io.wireadvisor.e2e;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test application's {@code main} in a new JVM with the shaded agent, as a user would:
 * {@code java -javaagent:wire-advisor-agent.jar=options -cp app:driver Main args}. The jars come
 * from system properties set by this module's POM.
 */
final class ForkedJvm {
  /** The shaded agent jar ({@code agent/target/wire-advisor-agent.jar}). */
  static final String AGENT_JAR = "e2e.agentJar";
  /** Connector/J's jar. */
  static final String DRIVER_JAR = "e2e.driverJar";

  private ForkedJvm() {}

  record Result(int exitCode, String output) {}

  static Path jar(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Paths.get(value))) {
      throw new IllegalStateException(property + " must name a jar file (set by src/test/pom.xml; run"
          + " the whole reactor, e.g. `mvn verify`), was " + value);
    }
    return Paths.get(value);
  }

  static Result runWithAgent(String agentOptions, Class<?> main, String... args) throws Exception {
    Path out = Files.createTempFile("forked-jvm", ".out");
    try {
      Process p = startWithAgent(agentOptions, out, main, args);
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("forked JVM did not finish in 180 s: " + p.info().commandLine()
            + "\n" + Files.readString(out, StandardCharsets.UTF_8));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  /** Starts the JVM and returns at once; its stdout and stderr go to {@code output}. */
  static Process startWithAgent(String agentOptions, Path output, Class<?> main, String... args)
      throws Exception {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    String appClasses = Paths.get(main.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-javaagent:" + jar(AGENT_JAR) + "=" + agentOptions);
    cmd.add("-cp");
    cmd.add(appClasses + File.pathSeparator + jar(DRIVER_JAR));
    cmd.add(main.getName());
    cmd.addAll(Arrays.asList(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
  }
}
