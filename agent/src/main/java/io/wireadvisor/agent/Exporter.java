package io.wireadvisor.agent;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.capture.CaptureSlot;
import io.wireadvisor.files.SafeFiles;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.report.Reports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes what was recorded: the profile file every interval and at shutdown, and at shutdown the
 * advisor's report on stderr and to a file. Runs on its own daemon thread and in a shutdown hook;
 * a failure is one warning line, never an exception into the application.
 */
final class Exporter {
  private final AgentOptions options;

  Exporter(AgentOptions options) {
    this.options = options;
  }

  void start() {
    if (options.profilePath() != null && options.intervalMillis() > 0) {
      ScheduledExecutorService timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "wire-advisor-profile-writer");
                t.setDaemon(true);
                return t;
              });
      long every = options.intervalMillis();
      timer.scheduleWithFixedDelay(this::writeProfileQuietly, every, every, TimeUnit.MILLISECONDS);
    }
    Thread hook = new Thread(this::atShutdown, "wire-advisor-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private void writeProfileQuietly() {
    try {
      writeProfile(CpuWindow.annotate(Hooks.snapshot()));
    } catch (Throwable e) {
      AgentLog.warn("could not write the profile to " + options.profilePath() + ": " + e);
    }
  }

  private void writeProfile(TrafficProfile profile) throws IOException {
    if (options.profilePath() == null) {
      return;
    }
    // A fresh 0600 file renamed onto the target: a reader never sees half a profile, and a link
    // planted at the path is replaced, never written through.
    SafeFiles.write(Paths.get(options.profilePath()), out -> ProfileJson.write(profile, out));
  }

  void atShutdown() {
    CaptureSlot.Summary captured = AgentCapture.get().stop();
    if (captured != null) {
      AgentLog.info(captured.toString());
    }
    try {
      TrafficProfile profile = CpuWindow.annotate(Hooks.snapshot());
      try {
        writeProfile(profile);
      } catch (Throwable e) {
        AgentLog.warn("could not write the profile to " + options.profilePath() + ": " + e);
      }
      if (!Hooks.isActive()) {
        if (!options.quiet()) {
          AgentLog.warn("no MySQL Connector/J 8.0.13+ connection was instrumented; nothing to report");
        }
        return;
      }
      if (options.quiet() && options.reportPath() == null) {
        return;
      }
      Analysis analysis = Advisor.analyze(profile, null);
      String text = Reports.text(analysis);
      if (options.reportPath() != null) {
        try {
          byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
          SafeFiles.write(Paths.get(options.reportPath()), out -> out.write(bytes));
        } catch (Throwable e) {
          AgentLog.warn("could not write the report to " + options.reportPath() + ": " + e);
        }
      }
      if (!options.quiet()) {
        System.err.println("---- wire-advisor report ----");
        System.err.print(text);
        System.err.flush();
      }
    } catch (Throwable e) {
      AgentLog.warn("could not produce the report at shutdown: " + e);
    }
  }
}
