package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A forked JVM running a test application under {@code -javaagent:} with the shaded agent jar,
 * talking to the test over stdin/stdout (see {@code WorkloadApp}).
 */
final class AgentFork implements AutoCloseable {
  private static final long STEP_TIMEOUT_SECONDS = 120;

  private final Process process;
  private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();
  private final Writer stdin;
  final Path dir;

  private AgentFork(Process process, Path dir) {
    this.process = process;
    this.dir = dir;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    pump(process, true);
    pump(process, false);
  }

  /** The shaded agent jar built by {@code mvn package}. */
  static Path agentJar() {
    return Paths.get(System.getProperty("wireadvisor.agent.jar", "target/wire-advisor-agent.jar"));
  }

  static Path itJar(String name) {
    return Paths.get(System.getProperty("wireadvisor.agent.itJars", "target/it-jars")).resolve(name);
  }

  static Path driverJar(String version) {
    return itJar("mysql-connector-j-" + version + ".jar");
  }

  static String newestDriver() {
    return System.getProperty("wireadvisor.agent.newestDriver", "9.5.0");
  }

  static List<String> drivers() {
    return List.of(System.getProperty("wireadvisor.agent.drivers", "9.5.0").split(","));
  }

  static Path testClasses() {
    return Paths.get(System.getProperty("wireadvisor.agent.testClasses", "target/test-classes"));
  }

  /** Builds the command line for {@code mainClass} on {@code classpath} under the agent. */
  static List<String> command(
      String java, String agentOptions, List<String> jvmArgs, List<Path> classpath, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-Xshare:auto");
    cmd.addAll(jvmArgs);
    if (agentOptions != null) {
      cmd.add("-javaagent:" + agentJar().toAbsolutePath() + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
    }
    cmd.add("-cp");
    StringBuilder cp = new StringBuilder();
    for (Path p : classpath) {
      if (cp.length() > 0) {
        cp.append(File.pathSeparatorChar);
      }
      cp.append(p.toAbsolutePath());
    }
    cmd.add(cp.toString());
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  static String defaultJava() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  static AgentFork start(List<String> command, Path dir) throws IOException {
    Files.createDirectories(dir);
    ProcessBuilder pb = new ProcessBuilder(command);
    return new AgentFork(pb.start(), dir);
  }

  private void pump(Process p, boolean out) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(
                          out ? p.getInputStream() : p.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  if (out) {
                    stdout.add(line);
                  } else {
                    stderr.append(line).append('\n');
                  }
                }
              } catch (IOException ignored) {
                // the process ended
              }
            },
            out ? "fork-stdout" : "fork-stderr");
    t.setDaemon(true);
    t.start();
  }

  /** Waits for the next stdout line starting with {@code prefix} (earlier lines are skipped). */
  String await(String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      String line = stdout.poll(200, TimeUnit.MILLISECONDS);
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
      if (line == null && !process.isAlive() && stdout.isEmpty()) {
        throw new AssertionError("forked JVM exited (" + process.exitValue() + ") before " + prefix + "; stderr:\n" + stderr);
      }
    }
    throw new AssertionError("timed out waiting for " + prefix + "; stderr:\n" + stderr);
  }

  void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  /** Waits for the JVM to exit and asserts it exited normally. */
  int awaitExit() throws InterruptedException {
    assertThat(process.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("forked JVM exits").isTrue();
    // Let the pumps drain.
    Thread.sleep(100);
    return process.exitValue();
  }

  long pid() {
    return process.pid();
  }

  String stderr() {
    return stderr.toString();
  }

  TrafficProfile profile(String name) throws Exception {
    return ProfileJson.readFile(dir.resolve(name));
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
