package io.wireadvisor.capture;

import io.wireadvisor.profile.WireSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * At most one capture at a time, for a collector (the proxy, the agent): started into a new file,
 * ended by {@link #stop()}, its size limit (at the first event past it), its time limit (by a timer:
 * also without traffic) or a failing disk; what each wrote is kept as the last summary. Also the
 * {@link CaptureControl} its connections' {@link CaptureSession}s read. Thread-safe.
 */
public class CaptureSlot implements CaptureControl {
  /** What a finished capture wrote. */
  public static final class Summary {
    private final Path file;
    private final long events;
    private final long dropped;
    private final long bytes;
    private final long connections;
    private final String ended;

    Summary(Path file, long events, long dropped, long bytes, long connections, String ended) {
      this.file = file;
      this.events = events;
      this.dropped = dropped;
      this.bytes = bytes;
      this.connections = connections;
      this.ended = ended;
    }

    public Path file() {
      return file;
    }

    public long events() {
      return events;
    }

    public long dropped() {
      return dropped;
    }

    public long bytes() {
      return bytes;
    }

    public long connections() {
      return connections;
    }

    /** Why it ended: stopped, time limit, limit reached, write failed. */
    public String ended() {
      return ended;
    }

    @Override
    public String toString() {
      return "capture " + file + ": " + events + " events, " + connections + " connections, " + bytes
          + " bytes, ended: " + ended;
    }
  }

  private final WireSession.Budget textBudget = new WireSession.Budget();
  private final long textBytesPerConnection;
  private final long textBytesTotal;
  private volatile CaptureRun active;
  private volatile Summary last;
  private ScheduledExecutorService timer;

  public CaptureSlot(long textBytesPerConnection, long textBytesTotal) {
    this.textBytesPerConnection = textBytesPerConnection;
    this.textBytesTotal = textBytesTotal;
  }

  @Override
  public WireSession.Budget textBudget() {
    return textBudget;
  }

  @Override
  public long textBytesPerConnection() {
    return textBytesPerConnection;
  }

  @Override
  public long textBytesTotal() {
    return textBytesTotal;
  }

  /** The capture under way, or null; one that a limit or the disk ended is finished here. */
  @Override
  public CaptureRun active() {
    CaptureRun a = active;
    if (a != null && a.over()) {
      finish(a, a.writeFailed() ? "write failed" : "limit reached");
      return null;
    }
    return a;
  }

  /**
   * Starts a capture into {@code file} (created new, 0600).
   *
   * @throws IllegalStateException when one is running
   * @throws IOException when the file cannot be created (it exists, a link is there, ...)
   */
  public synchronized CaptureRun start(Path file, CaptureHeader header, long maxBytes, long maxSeconds)
      throws IOException {
    if (active() != null) {
      throw new IllegalStateException("a capture is already running: " + active.file());
    }
    final CaptureRun a =
        new CaptureRun(CaptureWriter.create(file, header, maxBytes, maxSeconds), file, header.valuesMasked());
    active = a;
    // The time limit holds without traffic too (an idle capture ran on, found in review).
    timer().schedule(new Runnable() {
      @Override
      public void run() {
        synchronized (CaptureSlot.this) {
          if (active == a) {
            finish(a, "time limit");
          }
        }
      }
    }, maxSeconds, TimeUnit.SECONDS);
    return a;
  }

  /** Stops the capture under way; what it wrote, or null when none was running. */
  public synchronized Summary stop() {
    CaptureRun a = active;
    return a == null ? null : finish(a, "stopped");
  }

  /** The last finished capture, or null. */
  public Summary last() {
    return last;
  }

  /** Stops the capture under way and the timer (at shutdown). */
  public synchronized void close() {
    stop();
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  private synchronized Summary finish(CaptureRun a, String why) {
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
    last = new Summary(a.file(), a.writer().events(), a.writer().dropped(), a.writer().bytes(),
        a.connections(), limit ? "limit reached" : why);
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
