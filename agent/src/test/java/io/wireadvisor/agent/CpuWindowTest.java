package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.profile.CpuUsage;
import io.wireadvisor.profile.TrafficProfile;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** The agent's CPU readings: /proc/stat, a status port's process CPU, the bounded read. */
class CpuWindowTest {
  @Test
  void readsBusyAndTotalTicksFromTheCpuLine() {
    long[] t = CpuWindow.parseStatLine("cpu  100 5 50 800 20 3 2 10 7 0\ncpu0 1 2 3 4\n");
    // busy = user + nice + system + irq + softirq + steal; idle and iowait are not busy; guest is in user.
    assertThat(t).containsExactly(170, 990);
    assertThat(CpuWindow.parseStatLine("intr 1 2 3")).isNull();
    assertThat(CpuWindow.parseStatLine("cpu x y z w v")).isNull();
  }

  @Test
  void aWindowIsTheDifferenceOfTwoReadings() {
    CpuUsage u = CpuWindow.since(new long[] {0, 1_000, 10, 100, 5_000}, new long[] {2_000, 3_000, 60, 200, 9_000});
    assertThat(u.windowNanos()).isEqualTo(2_000);
    assertThat(u.processNanos()).isEqualTo(2_000);
    assertThat(u.hostBusyNanos()).isEqualTo(50 * CpuWindow.NANOS_PER_TICK);
    assertThat(u.hostNanos()).isEqualTo(100 * CpuWindow.NANOS_PER_TICK);
    assertThat(u.serverNanos()).isEqualTo(4_000);
    // A server restarted in between (its counter went back) or not read: no server CPU.
    assertThat(CpuWindow.since(new long[] {0, 1, 1, 2, 9}, new long[] {1, 2, 2, 4, 3}).serverNanos()).isEqualTo(-1);
    assertThat(CpuWindow.since(new long[] {0, 1, -1, -1, -1}, new long[] {1, 2, -1, -1, -1}).hostKnown()).isFalse();
    // No process CPU clock: no cpu at all.
    assertThat(CpuWindow.since(new long[] {0, -1, 1, 2, -1}, new long[] {1, -1, 2, 4, -1})).isNull();
  }

  @Test
  void theHostsCpuWaitIsThePressureFilesSomeTotalOverTheWindow() {
    String psi = "some avg10=48.46 avg60=50.40 avg300=51.45 total=26119980557\n"
        + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
    assertThat(CpuWindow.parsePressure(psi)).isEqualTo(26_119_980_557L);
    assertThat(CpuWindow.parsePressure("full avg10=0.00 total=5\n")).isEqualTo(-1);
    assertThat(CpuWindow.parsePressure("some avg10=1 total=x\n")).isEqualTo(-1);
    assertThat(CpuWindow.parsePressure("")).isEqualTo(-1);
    // Microseconds between two readings, as nanoseconds; never more than the window.
    CpuUsage u = CpuWindow.since(new long[] {0, 1, 10, 100, -1, 1_000}, new long[] {2_000_000, 2, 60, 200, -1, 1_500});
    assertThat(u.hostCpuWaitNanos()).isEqualTo(500_000);
    assertThat(u.hostCpuWaitShare()).isEqualTo(0.25);
    assertThat(CpuWindow.since(new long[] {0, 1, 10, 100, -1, 0}, new long[] {1_000, 2, 60, 200, -1, 9})
        .hostCpuWaitNanos()).isEqualTo(1_000);
    // Not read at either end: unknown.
    assertThat(CpuWindow.since(new long[] {0, 1, 10, 100, -1, -1}, new long[] {1_000, 2, 60, 200, -1, 9})
        .hostCpuWaitNanos()).isEqualTo(-1);
    if (new java.io.File("/proc/pressure/cpu").canRead()) {
      assertThat(CpuWindow.hostCpuWaitMicros()).isNotNegative();
    }
  }

  @Test
  void thisJvmAndHostAreMeasured() {
    CpuWindow.reset();
    long spin = System.nanoTime();
    while (System.nanoTime() - spin < 50_000_000L) {
      Math.sqrt(spin);
    }
    TrafficProfile p = CpuWindow.annotate(new TrafficProfile());
    assertThat(p.cpu()).isNotNull();
    assertThat(p.cpu().processNanos()).isPositive();
    assertThat(p.cpu().cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
    if (new java.io.File("/proc/stat").canRead()) {
      assertThat(p.cpu().hostKnown()).isTrue();
    }
    assertThat(p.cpu().serverNanos()).isEqualTo(-1); // no serverStatusUrl
  }

  @Test
  void findsTheProcessCpuSampleInPrometheusText() throws Exception {
    String text = "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
        + "# TYPE process_cpu_seconds_total counter\n"
        + "process_cpu_seconds_total_other 5\n"
        + "process_cpu_seconds_total 34.8\n";
    assertThat(CpuWindow.metricNanos(new BufferedReader(new StringReader(text)))).isEqualTo(34_800_000_000L);
    assertThat(CpuWindow.metricNanos(new BufferedReader(new StringReader("go_goroutines 3\n")))).isEqualTo(-1);
    assertThat(CpuWindow.metricNanos(new BufferedReader(new StringReader("process_cpu_seconds_total NaN\n"))))
        .isEqualTo(-1);
    // An unreachable status port: -1, no exception.
    assertThat(CpuWindow.serverCpuNanos("http://127.0.0.1:1")).isEqualTo(-1);
  }

  @Test
  void theMetricsReadStopsAtItsBound() throws Exception {
    byte[] big = new byte[10_000];
    CpuWindow.BoundedInput in = new CpuWindow.BoundedInput(new ByteArrayInputStream(big), 4_096);
    byte[] buf = new byte[1_000];
    long total = 0;
    int n;
    while ((n = in.read(buf, 0, buf.length)) > 0) {
      total += n;
    }
    assertThat(total).isEqualTo(4_096);
    assertThat(in.read()).isEqualTo(-1);
  }

  @Test
  void theStatusUrlOptionTakesPlainHttpOnly() {
    assertThat(AgentOptions.parse("serverStatusUrl=http://127.0.0.1:10080/").serverStatusUrl())
        .isEqualTo("http://127.0.0.1:10080");
    assertThat(AgentOptions.parse("").serverStatusUrl()).isNull();
    for (String bad : new String[] {"file:///etc/passwd", "http://u:secret@h:1", "http://h:1/?a=b", "ftp://h"}) {
      AgentOptions o = AgentOptions.parse("serverStatusUrl=" + bad);
      assertThat(o.serverStatusUrl()).isNull();
      assertThat(o.warnings()).hasSize(1);
      assertThat(o.warnings().get(0)).contains("serverStatusUrl").doesNotContain("secret");
    }
  }

  @Test
  void theServerCpuProfileOptionTakesZeroOrFiveToSixtySeconds() {
    assertThat(AgentOptions.parse("").serverCpuProfileSeconds()).isZero();
    assertThat(AgentOptions.parse("serverStatusUrl=http://127.0.0.1:10080,serverCpuProfile=10").serverCpuProfileSeconds())
        .isEqualTo(10);
    for (String bad : new String[] {"3", "61", "-1", "ten"}) {
      AgentOptions o = AgentOptions.parse("serverCpuProfile=" + bad);
      assertThat(o.serverCpuProfileSeconds()).isZero();
      assertThat(o.warnings()).hasSize(1);
      assertThat(o.warnings().get(0)).contains("serverCpuProfile");
    }
  }

  /**
   * A profile taken across a new window's start is dropped (its samples belong to two windows);
   * those taken inside the window add up into its {@code cpu.serverProfile}, beside the server's CPU
   * read from a status port (here an HTTP server that answers like TiDB's, and refuses the
   * profile as TiDB does while another profiler runs).
   */
  @Test
  void serverProfilesCountInTheWindowTheyWereTakenIn() throws Exception {
    com.sun.net.httpserver.HttpServer http =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/metrics", x -> {
      byte[] b = "process_cpu_seconds_total 12.5\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      x.sendResponseHeaders(200, b.length);
      x.getResponseBody().write(b);
      x.close();
    });
    http.createContext("/debug/pprof/profile", x -> {
      byte[] b = "Could not enable CPU profiling: cpu profiling already in use".getBytes(
          java.nio.charset.StandardCharsets.US_ASCII);
      x.sendResponseHeaders(500, b.length);
      x.getResponseBody().write(b);
      x.close();
    });
    http.start();
    String url = "http://127.0.0.1:" + http.getAddress().getPort();
    try {
      CpuWindow.configure(url);
      CpuWindow.reset();
      long g = CpuWindow.generation();
      io.wireadvisor.profile.ServerCpuProfile a = new io.wireadvisor.profile.ServerCpuProfile(100, 80, 10, 20, 5, 5, 1);
      CpuWindow.addServerProfile(g, a);
      CpuWindow.addServerProfile(g, a);
      CpuWindow.addServerProfile(g - 1, a); // began in the window before
      TrafficProfile p = CpuWindow.annotate(new TrafficProfile());
      assertThat(p.cpu().serverNanos()).isZero(); // the same counter at both ends
      assertThat(p.cpu().serverProfile().sampledNanos()).isEqualTo(200);
      assertThat(p.cpu().serverProfile().slices()).isEqualTo(2);
      CpuWindow.reset();
      assertThat(CpuWindow.generation()).isEqualTo(g + 1);
      CpuWindow.addServerProfile(g, a); // taken while the window changed
      assertThat(CpuWindow.annotate(new TrafficProfile()).cpu().serverProfile()).isNull();
      assertThatThrownBy(() -> ServerProfiler.take(url, 5)).isInstanceOf(java.io.IOException.class)
          .hasMessageContaining("HTTP 500");
    } finally {
      CpuWindow.configure(null);
      CpuWindow.reset();
      http.stop(0);
    }
  }
}
