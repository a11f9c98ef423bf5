package io.wireadvisor.agent;

import io.wireadvisor.capture.CaptureControl;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureRun;
import io.wireadvisor.capture.CaptureWriter;
import io.wireadvisor.profile.WireSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The agent's capture of a window of traffic (docs/replay.md), for an application that cannot be
 * put behind the proxy: started by the {@code capture=<file>} option (from start-up) or by {@link
 * AgentApi#startCapture}, ended by its size or time limit, {@link AgentApi#stopCapture} or the
 * JVM's exit. Same events as the proxy's ({@link io.wireadvisor.capture.CaptureSession}); the
 * header carries the application's JDBC properties (the agent knows them). Connections keep their
 * prepared statements' texts only once capture was enabled (the option, or a first start).
 */
final class AgentCapture implements CaptureControl {
  static final long DEFAULT_MAX_BYTES = 64L << 20;
  static final long DEFAULT_MAX_SECONDS = 300;
  static final long MAX_SECONDS = 7L * 24 * 3600;

  private static final AgentCapture INSTANCE = new AgentCapture();

  private final WireSession.Budget textBudget = new WireSession.Budget();
  private volatile boolean enabled;
  private volatile CaptureRun active;
  private volatile String last;
  private ScheduledExecutorService timer;

  static AgentCapture get() {
    return INSTANCE;
  }

  /** Whether connections take part (keep texts, write events): once a capture was asked for. */
  boolean enabled() {
    return enabled;
  }

  @Override
  public CaptureRun active() {
    CaptureRun a = active;
    if (a != null && a.over()) {
      finish(a, a.writeFailed() ? "write failed" : "limit reached");
      return null;
    }
    return a;
  }

  @Override
  public WireSession.Budget textBudget() {
    return textBudget;
  }

  @Override
  public long textBytesPerConnection() {
    return WireSession.DEFAULT_BYTES_PER_SESSION;
  }

  @Override
  public long textBytesTotal() {
    return WireSession.DEFAULT_BYTES_TOTAL;
  }

  /**
   * Starts a capture into {@code file} (created new, 0600).
   *
   * @param jdbcProperties the application's JDBC properties for the header (secrets dropped there)
   * @throws IllegalStateException when one is running
   */
  synchronized void start(Path file, long maxBytes, long maxSeconds, boolean masked, String server,
      Map<String, String> jdbcProperties) throws IOException {
    if (active() != null) {
      throw new IllegalStateException("a capture is already running: " + active.file());
    }
    if (maxSeconds <= 0 || maxSeconds > MAX_SECONDS) {
      throw new IllegalArgumentException("captureMaxSeconds must be 1.." + MAX_SECONDS + ", was " + maxSeconds);
    }
    CaptureHeader header =
        new CaptureHeader("agent", AgentMain.version(), server, System.currentTimeMillis(), masked, jdbcProperties);
    final CaptureRun a = new CaptureRun(CaptureWriter.create(file, header, maxBytes, maxSeconds), file, masked);
    enabled = true;
    active = a;
    timer().schedule(new Runnable() {
      @Override
      public void run() {
        synchronized (AgentCapture.this) {
          if (active == a) {
            finish(a, "time limit");
          }
        }
      }
    }, maxSeconds, TimeUnit.SECONDS);
  }

  /** Stops the capture under way; what it wrote, or null when none ran. */
  synchronized String stop() {
    CaptureRun a = active;
    return a == null ? null : finish(a, "stopped");
  }

  /** The last capture's summary (or null). */
  String last() {
    return last;
  }

  private synchronized String finish(CaptureRun a, String why) {
    if (active != a) {
      return last;
    }
    active = null;
    boolean limit = a.writer().ended() && !a.writeFailed();
    try {
      a.writer().close();
    } catch (IOException e) {
      why = why + "; closing the file failed: " + e.getMessage();
    }
    last = "capture " + a.file() + ": " + a.writer().events() + " events, " + a.connections()
        + " connections, " + a.writer().bytes() + " bytes, ended: " + (limit ? "limit reached" : why);
    return last;
  }

  private synchronized ScheduledExecutorService timer() {
    if (timer == null) {
      timer = Executors.newSingleThreadScheduledExecutor(new ThreadFactory() {
        @Override
        public Thread newThread(Runnable r) {
          Thread t = new Thread(r, "wire-advisor-capture-timer");
          t.setDaemon(true);
          return t;
        }
      });
    }
    return timer;
  }
}
