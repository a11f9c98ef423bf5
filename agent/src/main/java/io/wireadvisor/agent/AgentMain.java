package io.wireadvisor.agent;

import io.wireadvisor.profile.RecorderSettings;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * The agent's entry points: {@code premain} ({@code -javaagent:}), {@code agentmain} (attached to
 * a running JVM) and {@code main} ({@code --help}, {@code attach <pid> [options]}).
 *
 * <p>Nothing here may throw into the host JVM: every failure becomes one line on stderr prefixed
 * {@code wire-advisor:} and the application runs on as if the agent were absent.
 */
public final class AgentMain {
  private static final AtomicBoolean INSTALLED = new AtomicBoolean();

  private AgentMain() {}

  public static void premain(String args, Instrumentation inst) {
    start(args, inst, false);
  }

  public static void agentmain(String args, Instrumentation inst) {
    start(args, inst, true);
  }

  private static void start(String args, Instrumentation inst, boolean attached) {
    try {
      if (!INSTALLED.compareAndSet(false, true)) {
        AgentLog.warn("already installed in this JVM; ignoring the second start (options: " + args + ")");
        return;
      }
      AgentOptions options = AgentOptions.resolve(args, System.getProperties(), System.getenv());
      for (String w : options.warnings()) {
        AgentLog.warn(w);
      }
      AgentLog.quiet(options.quiet());
      Hooks.configure(
          new RecorderSettings(options.maxShapes(), options.maxTexts(), options.sampleSql()));
      if (attached) {
        Hooks.lateAttach();
      }
      if (options.capturePath() != null) {
        try {
          AgentCapture.get().start(java.nio.file.Paths.get(options.capturePath()), options.captureMaxBytes(),
              options.captureMaxSeconds(), options.captureMaskValues(), null,
              java.util.Collections.<String, String>emptyMap());
        } catch (Exception e) {
          AgentLog.warn("could not start the capture into " + options.capturePath() + ": " + e.getMessage()
              + "; the agent runs on without it");
        }
      }
      int port = Metrics.start(options);
      CpuWindow.configure(options.serverStatusUrl());
      CpuWindow.reset();
      ServerProfiler.start(options.serverStatusUrl(), options.serverCpuProfileSeconds());
      new Exporter(options).start();
      Instrumenter.install(inst);
      AgentLog.info(options.describe(AgentIdentity.version(), port));
    } catch (Throwable e) {
      AgentLog.warn("failed to start (" + e + "); the application is unaffected");
    }
  }

  public static void main(String[] args) {
    if (args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0]) || "help".equals(args[0])) {
      System.out.print(AgentOptions.usage());
      return;
    }
    if ("attach".equals(args[0])) {
      if (args.length < 2 || args.length > 3) {
        System.err.println("usage: java -jar wire-advisor-agent.jar attach <pid> [options]");
        System.exit(2);
      }
      String pid = args[1];
      String options = args.length == 3 ? args[2] : "";
      for (String w : AgentOptions.parse(options).warnings()) {
        System.err.println("wire-advisor: " + w);
      }
      try {
        File jar = new File(AgentMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ByteBuddyAgent.attach(jar, pid, options);
        System.out.println("wire-advisor: attached to " + pid);
      } catch (Throwable e) {
        System.err.println("wire-advisor: " + attachFailure(pid, e));
        System.exit(1);
      }
      return;
    }
    System.err.println("wire-advisor: unknown command " + Arrays.toString(args) + "\n");
    System.err.print(AgentOptions.usage());
    System.exit(2);
  }

  /**
   * Why {@code attach <pid>} failed, in words a user can act on (Byte Buddy's own exception names
   * an internal provider object).
   */
  static String attachFailure(String pid, Throwable e) {
    if (!pid.matches("[0-9]+")) {
      return "could not attach to '" + pid + "': not a process id (a number, as jps or ps shows it)";
    }
    if (new File("/proc").isDirectory() && !new File("/proc/" + pid).exists()) {
      return "could not attach to " + pid + ": no process with that id is running";
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    if (why.contains("AttachmentProvider")) {
      why = "this Java has no attach mechanism available (run the agent jar with a JDK, not a JRE)";
    }
    return "could not attach to " + pid + ": " + why + ". The target must be a Java process of the same"
        + " user; on JDK 21 and later start it with -XX:+EnableDynamicAgentLoading to avoid a warning,"
        + " or use -javaagent instead.";
  }
}
