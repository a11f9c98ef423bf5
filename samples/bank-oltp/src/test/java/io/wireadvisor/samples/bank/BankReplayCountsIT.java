package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.proxy.CaptureSettings;
import io.wireadvisor.proxy.ProxyConfig;
import io.wireadvisor.proxy.WireProxy;
import io.wireadvisor.replay.ReplayComparison;
import io.wireadvisor.replay.ReplayConfig;
import io.wireadvisor.replay.ReplayTarget;
import io.wireadvisor.replay.Replayer;
import io.wireadvisor.replay.RunResult;
import io.wireadvisor.testkit.CounterSnapshot;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bank as the application (scenario 1, the study's text-protocol baseline) through the proxy
 * with a capture; one replay under {@code current}, as fast as the server answers, writes rolled
 * back: its wire commands per command type equal the application's within 2% (the proxies' counts
 * and the server's counters), once the events replay cannot run (said in its report) are counted
 * back. Prints what a capture costs in bytes per event (docs/replay.md, sizing).
 */
@RealDatabase
class BankReplayCountsIT {
  private static final double SCALE = 0.02;

  @Test
  void replayUnderCurrentReproducesTheBanksWireCountsPerCommandType(DatabaseServer server, @TempDir Path dir)
      throws Exception {
    BankSchema schema = BankSchema.load();
    BusinessTransactions mix = new BusinessTransactions(StatementCatalog.build(schema));
    List<String> log = new ArrayList<>();
    String database = server.createDatabase("replay_counts");
    new DataLoader(server, schema).load(database, SCALE, 42, log::add);
    Scenarios.Scenario s1 = Scenarios.load().byId(1);
    Workload.Settings settings = new Workload.Settings(2, Duration.ofSeconds(1), Duration.ofSeconds(6), 42, SCALE, 1500);

    Path file = dir.resolve("bank.jsonl");
    CounterSnapshot c0 = server.counters().snapshot();
    TrafficProfile appWire;
    try (WireProxy proxy = WireProxy.start(ProxyConfig.of("127.0.0.1", 0, server.host(), server.port())
        .withCapture(new CaptureSettings(file, null, 512L << 20, 600, false)))) {
      Workload workload = new Workload(new BankReplayProofIT.ThroughProxy(server, proxy.port()), mix);
      try (var ds = workload.pool(database, s1.jdbcProperties(), settings.threads(), "captured-app")) {
        Workload.Result r = workload.run(ds, settings, BankReplayProofIT.NO_WINDOW, "capture", log::add);
        assertThat(r.errors()).as("%s", r.errorSamples()).isZero();
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (proxy.clientConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      appWire = proxy.profile();
    }
    CounterSnapshot appDelta = server.counters().snapshot().minus(c0);
    CaptureFormat.Capture capture = CaptureFormat.read(file);
    long bytes = Files.size(file);
    System.out.printf("bank capture: %,d events, %,d bytes, %.0f bytes per event%n",
        capture.events().size(), bytes, (double) bytes / capture.events().size());

    // Into the database the capture came from, allowed: every write is rolled back, and the
    // bank's inserts take auto-increment keys (no captured row is met again).
    ReplayTarget target = new ReplayTarget(server.host(), server.port(), database, server.user(), server.password());
    CounterSnapshot r0 = server.counters().snapshot();
    RunResult replayed = Replayer.run(capture, ReplayConfig.current(capture), target,
        new Replayer.Options(false, null, 64, true, null));
    CounterSnapshot replayDelta = server.counters().snapshot().minus(r0);
    assertThat(replayed.newErrors()).as("%s", replayed.errorExamples()).isEmpty();
    // What replay says it did not run: statements kept without SQL (credential-like names).
    long notRun = replayed.skipped().entrySet().stream()
        .filter(e -> e.getKey().contains("without SQL") || e.getKey().contains("could not keep"))
        .mapToLong(Map.Entry::getValue).sum();
    Map<String, Long> app = new TreeMap<>();
    Map<String, Long> rep = new TreeMap<>();
    for (CommandType t : CommandType.values()) {
      if (appWire.count(t) + replayed.wire().count(t) > 0) {
        app.put(t.wireName(), appWire.count(t));
        rep.put(t.wireName(), replayed.wire().count(t) + (t == CommandType.QUERY ? notRun : 0));
      }
    }
    System.out.println("bank wire counts, application " + app + ", replay (+ " + notRun + " not run) " + rep
        + "; not replayed " + replayed.skipped() + "; wrapped writes " + replayed.wrappedWrites());
    System.out.println("server counters, application " + server.counters().exactDeltas(appDelta)
        + ", replay " + server.counters().exactDeltas(replayDelta));
    java.util.Set<String> digests = new java.util.TreeSet<>(appWire.shapes().keySet());
    digests.addAll(replayed.wire().shapes().keySet());
    for (String d : digests) {
      var x = appWire.shape(d);
      var y = replayed.wire().shape(d);
      long xa = x == null ? 0 : x.wireCommands();
      long ya = y == null ? 0 : y.wireCommands();
      if (xa != ya) {
        String text = x != null ? x.digestText() : y.digestText();
        System.out.println("  shape " + xa + " vs " + ya + ": " + text.substring(0, Math.min(150, text.length())));
      }
    }
    within2Percent("the proxies' counts", app, rep);
    Map<String, Long> serverApp = server.counters().exactDeltas(appDelta);
    Map<String, Long> serverRep = new TreeMap<>(server.counters().exactDeltas(replayDelta));
    serverRep.computeIfPresent("COM_QUERY", (k, v) -> v + notRun);
    within2Percent("the server's counters", serverApp, serverRep);
    System.out.println(String.join("\n", log));
  }

  private static void within2Percent(String what, Map<String, Long> expected, Map<String, Long> actual) {
    assertThat(actual.keySet()).as(what).isEqualTo(expected.keySet());
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      long a = e.getValue();
      long b = actual.get(e.getKey());
      assertThat((double) Math.abs(a - b)).as("%s: %s application %d, replay %d", what, e.getKey(), a, b)
          .isLessThanOrEqualTo(0.02 * Math.max(a, b));
    }
  }
}
