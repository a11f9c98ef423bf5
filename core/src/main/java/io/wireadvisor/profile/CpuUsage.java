package io.wireadvisor.profile;

/**
 * CPU the recording process and its host used over a profile's window, as the agent measured it
 * (docs/profile.md, {@code cpu}): the process's CPU time (every thread of the application's JVM:
 * the application, the driver, the agent), the host's busy and total core time from
 * {@code /proc/stat} (every process on the host, the database server too when it runs there), and
 * the cores the JVM may use; with the agent's {@code serverStatusUrl} the server's CPU, and with
 * {@code serverCpuProfile} where it went ({@link ServerCpuProfile}). A fixed set of numbers:
 * nothing grows with the traffic.
 *
 * <p>Merged profiles add their figures (process CPU and window of each JVM, host busy and total
 * time of each reading), so the host's busy share of a merge is the mean weighted by time.
 */
public final class CpuUsage {
  private long windowNanos;
  private long processNanos;
  private int cores;
  private long hostBusyNanos;
  private long hostNanos;
  private long serverNanos = -1;
  private long hostCpuWaitNanos = -1;
  private ServerCpuProfile serverProfile;

  /**
   * @param windowNanos wall time the figures cover (a monotonic clock's delta)
   * @param processNanos the recording JVM's CPU time in it, all threads
   * @param cores processors the JVM may use ({@code Runtime.availableProcessors()})
   * @param hostBusyNanos core time the host spent busy in it (all cores, all processes; 0 with
   *     {@code hostNanos} 0 when unknown)
   * @param hostNanos core time the host had in it (busy and idle, all cores; 0 when unknown)
   */
  public CpuUsage(long windowNanos, long processNanos, int cores, long hostBusyNanos, long hostNanos) {
    if (windowNanos < 0 || processNanos < 0 || cores < 0 || hostBusyNanos < 0 || hostNanos < 0
        || hostBusyNanos > hostNanos) {
      throw new IllegalArgumentException("CPU figures must be non-negative and busy <= total: " + windowNanos
          + ", " + processNanos + ", " + cores + ", " + hostBusyNanos + ", " + hostNanos);
    }
    this.windowNanos = windowNanos;
    this.processNanos = processNanos;
    this.cores = cores;
    this.hostBusyNanos = hostBusyNanos;
    this.hostNanos = hostNanos;
  }

  public long windowNanos() {
    return windowNanos;
  }

  public long processNanos() {
    return processNanos;
  }

  public int cores() {
    return cores;
  }

  public long hostBusyNanos() {
    return hostBusyNanos;
  }

  public long hostNanos() {
    return hostNanos;
  }

  /**
   * The database server's process CPU time over the same window, read from its status port
   * ({@code process_cpu_seconds_total}, TiDB; the agent's {@code serverStatusUrl}); -1 when not
   * measured.
   */
  public long serverNanos() {
    return serverNanos;
  }

  /** This usage with the server's CPU time over the window ({@code -1}: unknown). */
  public CpuUsage withServerNanos(long nanos) {
    CpuUsage c = copy();
    c.serverNanos = nanos < 0 ? -1 : nanos;
    return c;
  }

  /**
   * Where the server's CPU went in the window, from its CPU profiles (the agent's {@code
   * serverCpuProfile}); null when none was taken.
   */
  public ServerCpuProfile serverProfile() {
    return serverProfile;
  }

  /** This usage with the server's CPU profiles of the window (null: none). */
  public CpuUsage withServerProfile(ServerCpuProfile profile) {
    CpuUsage c = copy();
    c.serverProfile = profile == null ? null : profile.copy();
    return c;
  }

  /**
   * Wall time in the window during which at least one task on the host was ready to run and
   * waited for a CPU (Linux pressure stall information, {@code /proc/pressure/cpu}, its {@code
   * some} total); -1 when not read (no PSI: an older kernel, another OS).
   */
  public long hostCpuWaitNanos() {
    return hostCpuWaitNanos;
  }

  /** The share of the window in which tasks waited for a CPU, 0..1; -1 when unknown. */
  public double hostCpuWaitShare() {
    return hostCpuWaitNanos >= 0 && windowNanos > 0 ? Math.min(1, (double) hostCpuWaitNanos / windowNanos) : -1;
  }

  /** This usage with the host's CPU wait over the window ({@code -1}: unknown; at most the window). */
  public CpuUsage withHostCpuWaitNanos(long nanos) {
    CpuUsage c = copy();
    c.hostCpuWaitNanos = nanos < 0 ? -1 : Math.min(nanos, windowNanos);
    return c;
  }

  /** True when the host's busy time was read ({@code /proc/stat}). */
  public boolean hostKnown() {
    return hostNanos > 0;
  }

  /** The host's busy share of its core time in the window, 0..1; -1 when unknown. */
  public double hostBusyShare() {
    return hostNanos > 0 ? (double) hostBusyNanos / hostNanos : -1;
  }

  /** Adds {@code other}'s figures (a merge). */
  public void add(CpuUsage other) {
    windowNanos += other.windowNanos;
    processNanos += other.processNanos;
    cores = Math.max(cores, other.cores);
    hostBusyNanos += other.hostBusyNanos;
    hostNanos += other.hostNanos;
    // The server's CPU is known for a merge only when every part knows it.
    serverNanos = serverNanos < 0 || other.serverNanos < 0 ? -1 : serverNanos + other.serverNanos;
    hostCpuWaitNanos = hostCpuWaitNanos < 0 || other.hostCpuWaitNanos < 0 ? -1
        : hostCpuWaitNanos + other.hostCpuWaitNanos;
    // Its profiles are samples of where that CPU went: a merge adds the samples it has.
    if (other.serverProfile != null) {
      if (serverProfile == null) {
        serverProfile = other.serverProfile.copy();
      } else {
        serverProfile.add(other.serverProfile);
      }
    }
  }

  public CpuUsage copy() {
    CpuUsage c = new CpuUsage(windowNanos, processNanos, cores, hostBusyNanos, hostNanos);
    c.serverNanos = serverNanos;
    c.hostCpuWaitNanos = hostCpuWaitNanos;
    c.serverProfile = serverProfile == null ? null : serverProfile.copy();
    return c;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CpuUsage)) {
      return false;
    }
    CpuUsage c = (CpuUsage) o;
    return windowNanos == c.windowNanos && processNanos == c.processNanos && cores == c.cores
        && hostBusyNanos == c.hostBusyNanos && hostNanos == c.hostNanos && serverNanos == c.serverNanos
        && hostCpuWaitNanos == c.hostCpuWaitNanos
        && java.util.Objects.equals(serverProfile, c.serverProfile);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(windowNanos, processNanos, cores, hostBusyNanos, hostNanos, serverNanos,
        hostCpuWaitNanos, serverProfile);
  }

  @Override
  public String toString() {
    return "CpuUsage{window=" + windowNanos + "ns, process=" + processNanos + "ns, cores=" + cores
        + ", hostBusy=" + hostBusyNanos + "ns of " + hostNanos + "ns, server=" + serverNanos + "ns"
        + (serverProfile == null ? "" : ", " + serverProfile) + "}";
  }
}
