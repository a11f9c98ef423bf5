package io.wireadvisor.agent;

import io.wireadvisor.profile.CpuUsage;
import io.wireadvisor.profile.ServerCpuProfile;
import io.wireadvisor.profile.TrafficProfile;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;

/**
 * The CPU figures of the agent's window (docs/profile.md, {@code cpu}): this JVM's process CPU
 * time ({@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime()}) and the host's busy
 * and total core time (the first line of {@code /proc/stat}, Linux), read when the window starts
 * ({@link #reset}) and when a profile is taken ({@link #annotate}). Nothing here runs on the
 * application's statement path: it reads two counters per profile snapshot. Without a process CPU
 * clock the profile gets no {@code cpu}; without {@code /proc/stat}, none of the host's figures.
 */
final class CpuWindow {
  /** {@code /proc/stat} counts in clock ticks; USER_HZ is 100 on every Linux ABI the JVM runs on. */
  static final long NANOS_PER_TICK = 10_000_000L;
  /**
   * Bytes of {@code /proc/stat} and {@code /proc/pressure/cpu} read: the first line of the one (all
   * CPUs) and the whole of the other are far shorter.
   */
  static final int MAX_STAT_BYTES = 512;

  /** Bytes of a status port's {@code /metrics} read at most (TiDB's is about 0.7 MB). */
  static final int MAX_METRICS_BYTES = 8 << 20;

  private static volatile String serverStatusUrl;
  private static volatile long[] start = read();
  /** The window's number: a server CPU profile counts only in the window it began and ended in. */
  private static volatile long generation;
  /** The server CPU profiles of this window, or null; guarded by the class. */
  private static ServerCpuProfile serverProfile;

  private CpuWindow() {}

  /** The TiDB status port to read the server's process CPU from (null: none). */
  static void configure(String statusUrl) {
    serverStatusUrl = statusUrl;
  }

  /** Starts a new window at the current readings. */
  static void reset() {
    synchronized (CpuWindow.class) {
      generation++;
      serverProfile = null;
    }
    start = read();
  }

  /** The current window's number (see {@link #addServerProfile}). */
  static long generation() {
    return generation;
  }

  /**
   * Adds a server CPU profile taken from {@code sinceGeneration}'s window; ignored when a new
   * window began while it was taken (its samples straddle two windows).
   */
  static void addServerProfile(long sinceGeneration, ServerCpuProfile p) {
    synchronized (CpuWindow.class) {
      if (sinceGeneration != generation) {
        return;
      }
      if (serverProfile == null) {
        serverProfile = p.copy();
      } else {
        serverProfile.add(p);
      }
    }
  }

  /** {@code profile} with the CPU used since the window started; unchanged when unmeasurable. */
  static TrafficProfile annotate(TrafficProfile profile) {
    CpuUsage u = since(start, read());
    if (u != null) {
      ServerCpuProfile sp;
      synchronized (CpuWindow.class) {
        // A copy: the profiler thread adds to the window's figures under this lock.
        sp = serverProfile == null ? null : serverProfile.copy();
      }
      profile.addCpu(sp != null && u.serverNanos() >= 0 ? u.withServerProfile(sp) : u);
    }
    return profile;
  }

  /** The usage between two readings; null without a process CPU clock. */
  static CpuUsage since(long[] a, long[] b) {
    if (a[1] < 0 || b[1] < 0) {
      return null;
    }
    long busy = 0;
    long total = 0;
    if (a[2] >= 0 && b[2] >= 0 && b[3] > a[3]) {
      busy = Math.max(0, b[2] - a[2]) * NANOS_PER_TICK;
      total = (b[3] - a[3]) * NANOS_PER_TICK;
      busy = Math.min(busy, total);
    }
    CpuUsage u = new CpuUsage(Math.max(0, b[0] - a[0]), Math.max(0, b[1] - a[1]),
        Runtime.getRuntime().availableProcessors(), busy, total);
    if (a.length > 5 && b.length > 5 && a[5] >= 0 && b[5] >= a[5]) {
      u = u.withHostCpuWaitNanos((b[5] - a[5]) * 1000);
    }
    // A server restarted in the window (its counter went back) says nothing.
    return a[4] >= 0 && b[4] >= a[4] ? u.withServerNanos(b[4] - a[4]) : u;
  }

  /**
   * {monotonic nanos, process CPU nanos or -1, host busy ticks or -1, host total ticks or -1,
   * server CPU nanos or -1, host CPU wait microseconds (PSI) or -1}.
   */
  static long[] read() {
    long[] r = {System.nanoTime(), -1, -1, -1, -1, hostCpuWaitMicros()};
    try {
      OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
      if (os instanceof com.sun.management.OperatingSystemMXBean) {
        long t = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        r[1] = t >= 0 ? t : -1;
      }
    } catch (Throwable e) {
      r[1] = -1;
    }
    long[] host = hostTicks();
    if (host != null) {
      r[2] = host[0];
      r[3] = host[1];
    }
    String url = serverStatusUrl;
    if (url != null) {
      r[4] = serverCpuNanos(url);
    }
    return r;
  }

  /**
   * {@code process_cpu_seconds_total} of the status port at {@code url} in nanoseconds; -1 when it
   * cannot be read (2 s to connect and to read, at most {@link #MAX_METRICS_BYTES}). A failure is
   * silent: the profile then has no server CPU.
   */
  static long serverCpuNanos(String url) {
    java.net.HttpURLConnection c = null;
    try {
      c = (java.net.HttpURLConnection) new java.net.URL(url + "/metrics").openConnection();
      c.setConnectTimeout(2000);
      c.setReadTimeout(2000);
      c.setInstanceFollowRedirects(false);
      if (c.getResponseCode() != 200) {
        return -1;
      }
      try (InputStream in = c.getInputStream()) {
        return metricNanos(new java.io.BufferedReader(new java.io.InputStreamReader(
            new BoundedInput(in, MAX_METRICS_BYTES), StandardCharsets.UTF_8)));
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    } finally {
      if (c != null) {
        c.disconnect();
      }
    }
  }

  /** The {@code process_cpu_seconds_total} sample of Prometheus text, in nanoseconds; -1 without one. */
  static long metricNanos(java.io.BufferedReader lines) throws IOException {
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.startsWith("process_cpu_seconds_total ") || line.startsWith("process_cpu_seconds_total\t")) {
        try {
          double v = Double.parseDouble(line.substring("process_cpu_seconds_total".length()).trim().split("\\s+")[0]);
          return v >= 0 && v < 1e9 ? Math.round(v * 1e9) : -1;
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** At most {@code max} bytes of {@code in}, then end of stream. */
  static final class BoundedInput extends java.io.FilterInputStream {
    private long left;

    BoundedInput(InputStream in, long max) {
      super(in);
      this.left = max;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }

  /**
   * The {@code some} total of {@code /proc/pressure/cpu} (microseconds since boot during which at
   * least one task waited for a CPU); -1 when the file is absent or unreadable (no PSI).
   */
  static long hostCpuWaitMicros() {
    String text = readProc("/proc/pressure/cpu");
    return text == null ? -1 : parsePressure(text);
  }

  /**
   * The {@code total=} of the {@code some} line of a PSI file ({@code some avg10=1.00 avg60=0.50
   * avg300=0.20 total=12345}); -1 when there is none.
   */
  static long parsePressure(String text) {
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 2 || !f[0].equals("some")) {
        continue;
      }
      for (int i = 1; i < f.length; i++) {
        if (f[i].startsWith("total=")) {
          try {
            long v = Long.parseLong(f[i].substring(6));
            return v >= 0 ? v : -1;
          } catch (NumberFormatException e) {
            return -1;
          }
        }
      }
    }
    return -1;
  }

  /** {busy, total} clock ticks of all CPUs since boot, from {@code /proc/stat}; null when unreadable. */
  static long[] hostTicks() {
    String text = readProc("/proc/stat");
    return text == null ? null : parseStatLine(text);
  }

  /** The first {@link #MAX_STAT_BYTES} bytes of a {@code /proc} file as ASCII; null when unreadable. */
  private static String readProc(String path) {
    byte[] buf = new byte[MAX_STAT_BYTES];
    int n = 0;
    try (InputStream in = new FileInputStream(path)) {
      int k;
      while (n < buf.length && (k = in.read(buf, n, buf.length - n)) > 0) {
        n += k;
      }
    } catch (IOException | SecurityException e) {
      return null;
    }
    return new String(buf, 0, n, StandardCharsets.US_ASCII);
  }

  /**
   * {busy, total} ticks from the {@code cpu} line of {@code /proc/stat}: user nice system idle
   * iowait irq softirq steal (guest time is already in user); busy is total minus idle and
   * iowait. Null when the text does not start with that line.
   */
  static long[] parseStatLine(String text) {
    int eol = text.indexOf('\n');
    String line = eol < 0 ? text : text.substring(0, eol);
    String[] f = line.trim().split("\\s+");
    if (f.length < 5 || !f[0].equals("cpu")) {
      return null;
    }
    long total = 0;
    long idle = 0;
    try {
      for (int i = 1; i < f.length && i <= 8; i++) {
        long v = Long.parseLong(f[i]);
        total += v;
        if (i == 4 || i == 5) {
          idle += v;
        }
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return new long[] {total - idle, total};
  }
}
