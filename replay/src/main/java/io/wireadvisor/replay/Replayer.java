package io.wireadvisor.replay;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.proxy.ProxyConfig;
import io.wireadvisor.proxy.WireProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Drives the captured sessions through Connector/J and HikariCP under one configuration, with the
 * captured concurrency (one thread and at most one pooled connection per captured connection
 * alive at the same time) and the captured pacing or as fast as possible, through an in-process
 * proxy that counts the wire.
 */
public final class Replayer {
  /**
   * How a replay is run.
   *
   * @param allowSameDatabase replay even into the database the capture came from ({@link SameDatabase})
   * @param driver the Connector/J to drive; null: the bundled one
   */
  public record Options(boolean paced, String commitTo, int maxSessions, boolean allowSameDatabase,
      ReplayDriver driver) {
    public Options {
      if (maxSessions < 1) {
        throw new IllegalArgumentException("--max-sessions must be at least 1, was " + maxSessions);
      }
    }

    /** Into another database than the capture's, with the bundled driver. */
    public Options(boolean paced, String commitTo, int maxSessions) {
      this(paced, commitTo, maxSessions, false, null);
    }

    /** The driver replay runs. */
    public ReplayDriver driverOrBundled() {
      return driver == null ? BUNDLED.get() : driver;
    }

    /** Captured pacing, writes rolled back, at most 256 concurrent sessions. */
    public static Options defaults() {
      return new Options(true, null, 256);
    }

    boolean commit() {
      return commitTo != null;
    }
  }

  private Replayer() {}

  /** Loaded once, when first needed. */
  private static final java.util.function.Supplier<ReplayDriver> BUNDLED = new java.util.function.Supplier<>() {
    private volatile ReplayDriver d;

    @Override
    public ReplayDriver get() {
      if (d == null) {
        d = ReplayDriver.bundled();
      }
      return d;
    }
  };

  /**
   * Refuses (IllegalStateException, with the reason) a replay into the database the capture came
   * from, unless {@code options} allow it.
   */
  public static void checkTarget(Capture capture, ReplayTarget target, Options options) {
    if (options.allowSameDatabase()) {
      return;
    }
    String database = options.commit() ? options.commitTo() : target.database();
    String reason = SameDatabase.reason(capture, target, database);
    if (reason != null) {
      throw new IllegalStateException("replay refused: " + reason);
    }
  }

  /** Replays {@code capture} under {@code config} against {@code target}. */
  public static RunResult run(Capture capture, ReplayConfig config, ReplayTarget target, Options options)
      throws Exception {
    Map<Long, List<CaptureEvent>> sessions = capture.byConnection();
    if (sessions.isEmpty()) {
      throw new IllegalArgumentException("the capture has no events to replay");
    }
    checkTarget(capture, target, options);
    ReplayDriver driver = options.driverOrBundled();
    int concurrency = Math.min(options.maxSessions(), Math.max(1, maxOverlap(sessions)));
    long firstMicros = Long.MAX_VALUE;
    for (CaptureEvent e : capture.events()) {
      firstMicros = Math.min(firstMicros, e.micros());
    }
    String database = options.commit() ? options.commitTo() : target.database();
    SessionReplayer.Shared shared = new SessionReplayer.Shared(options.commit(), driver, target, database);
    try (WireProxy proxy = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, target.host(), target.port()));
        HikariDataSource pool = new HikariDataSource(hikari(config, target, proxy.port(), database, concurrency, driver))) {
      // The pool's connect-time traffic is measured too: it depends on the configuration
      // (cacheServerConfiguration, useLocalSessionState...) as it does in the application.
      ExecutorService threads = Executors.newFixedThreadPool(concurrency, r -> {
        Thread t = new Thread(r, "replay-session");
        t.setDaemon(true);
        return t;
      });
      long[] start = new long[1];
      List<Future<?>> running = new ArrayList<>();
      start[0] = System.nanoTime();
      long first = firstMicros;
      for (List<CaptureEvent> events : sessions.values()) {
        SessionReplayer s = new SessionReplayer(pool, events, shared, () -> start[0], first, options.paced());
        running.add(threads.submit(() -> {
          s.run();
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
      long elapsed = System.nanoTime() - start[0];
      threads.shutdown();
      threads.awaitTermination(10, TimeUnit.SECONDS);
      pool.close();
      waitForProxyIdle(proxy);
      Map<String, Long> newErrors = new TreeMap<>();
      shared.newErrors.forEach((k, v) -> newErrors.put(k, v.get()));
      Map<String, String> examples = new TreeMap<>(shared.errorExamples);
      Map<String, Long> skipped = new TreeMap<>();
      shared.skipped.forEach((k, v) -> skipped.put(k, v.get()));
      return new RunResult(config, elapsed, shared.business.get(), shared.latency.snapshot(),
          proxy.profile(), newErrors, shared.expectedErrors.get(), skipped, shared.wrappedWrites.get(),
          examples, driver.version());
    }
  }

  private static HikariConfig hikari(ReplayConfig config, ReplayTarget target, int proxyPort, String database, int size,
      ReplayDriver driver) {
    Properties p = new Properties();
    for (Map.Entry<String, String> e : config.poolSettings().entrySet()) {
      p.setProperty(e.getKey(), e.getValue());
    }
    HikariConfig h = new HikariConfig(p);
    h.setPoolName("replay-" + config.name().replaceAll("[^A-Za-z0-9]", "-"));
    h.setMaximumPoolSize(size);
    h.setMinimumIdle(size);
    Properties jdbc = new Properties();
    for (Map.Entry<String, String> e : config.jdbcProperties().entrySet()) {
      jdbc.setProperty(e.getKey(), e.getValue());
    }
    // The replay's own leg to the in-process proxy is loopback; the proxy speaks to the server.
    jdbc.setProperty("sslMode", "DISABLED");
    jdbc.setProperty("allowPublicKeyRetrieval", "false");
    // The proxy names a connection's client by its connection attributes, and the advisor speaks
    // JDBC only to clients named so: keep them on even where the configuration (e.g.
    // useConfigs=maxPerformance) turns them off. They travel in the login packet only.
    jdbc.setProperty("connectionAttributes", "program_name:wire-advisor-replay");
    jdbc.setProperty("user", target.user());
    jdbc.setProperty("password", target.password());
    // Connections of the driver replay runs (the bundled one, or --driver's in a loader of its own).
    h.setDataSource(driver.dataSource(
        "jdbc:mysql://127.0.0.1:" + proxyPort + "/" + (database == null ? "" : database), jdbc));
    return h;
  }

  /** The most captured connections alive at one time. */
  static int maxOverlap(Map<Long, List<CaptureEvent>> sessions) {
    List<long[]> edges = new ArrayList<>();
    for (List<CaptureEvent> events : sessions.values()) {
      edges.add(new long[] {events.get(0).micros(), 1});
      edges.add(new long[] {events.get(events.size() - 1).micros(), -1});
    }
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
    int alive = 0;
    int max = 0;
    for (long[] e : edges) {
      alive += (int) e[1];
      max = Math.max(max, alive);
    }
    return max;
  }

  private static void waitForProxyIdle(WireProxy proxy) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (proxy.clientConnections() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }
}
