package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A TiDB CPU profile read into where the CPU went: a Go pprof profile built here in protobuf
 * wire format (as {@code runtime/pprof} writes it: packed sample fields, string table last),
 * gzipped as the status port serves it.
 */
class ServerCpuProfileTest {
  private static final String CONN = "github.com/pingcap/tidb/pkg/server.(*clientConn).Run";
  private static final String PARSE = "github.com/pingcap/tidb/pkg/session.(*session).ParseSQL";
  private static final String COMPILE = "github.com/pingcap/tidb/pkg/executor.(*Compiler).Compile";
  private static final String LOOKUP = "github.com/pingcap/tidb/pkg/planner/core.GetPlanFromPlanCache";
  private static final String DIGEST = "github.com/pingcap/tidb/pkg/parser.NormalizeDigest";
  private static final String EXEC = "github.com/pingcap/tidb/pkg/executor.(*ExecStmt).Exec";
  private static final String BACKGROUND = "github.com/pingcap/tidb/pkg/disttask/framework/scheduler.(*Manager).scheduleTaskLoop";
  /** TiDB before v7.5 had no pkg/ in its package paths. */
  private static final String OLD_CONN = "github.com/pingcap/tidb/server.(*clientConn).Run";
  private static final String OLD_COMPILE = "github.com/pingcap/tidb/executor.(*Compiler).Compile";

  /** A profile writer: functions and locations one to one, a location per function. */
  static final class Pprof {
    final List<String> strings = new ArrayList<>(Arrays.asList(""));
    final java.util.Map<String, Integer> stringIds = new java.util.HashMap<>();
    final List<String> functions = new ArrayList<>();
    final java.util.Map<String, Integer> functionIds = new java.util.HashMap<>();
    final ByteArrayOutputStream samples = new ByteArrayOutputStream();
    boolean packed = true;
    String[] type = {"cpu", "nanoseconds"};

    int str(String s) {
      if (s.isEmpty()) {
        return 0;
      }
      return stringIds.computeIfAbsent(s, x -> {
        strings.add(x);
        return strings.size() - 1;
      });
    }

    int fn(String name) {
      return functionIds.computeIfAbsent(name, x -> {
        functions.add(x);
        return functions.size();
      });
    }

    /** One sample: {@code nanos} of CPU with this stack, leaf first. */
    Pprof sample(long nanos, String... stack) throws IOException {
      ByteArrayOutputStream s = new ByteArrayOutputStream();
      long[] ids = new long[stack.length];
      for (int i = 0; i < stack.length; i++) {
        ids[i] = fn(stack[i]);
      }
      if (packed) {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        for (long id : ids) {
          varint(p, id);
        }
        bytes(s, 1, p.toByteArray());
        ByteArrayOutputStream v = new ByteArrayOutputStream();
        varint(v, nanos / 10_000_000);
        varint(v, nanos);
        bytes(s, 2, v.toByteArray());
      } else {
        for (long id : ids) {
          varint(s, 1 << 3);
          varint(s, id);
        }
        varint(s, 2 << 3);
        varint(s, nanos / 10_000_000);
        varint(s, 2 << 3);
        varint(s, nanos);
      }
      bytes(samples, 2, s.toByteArray());
      return this;
    }

    byte[] raw() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      bytes(out, 1, valueType("samples", "count"));
      bytes(out, 1, valueType(type[0], type[1]));
      out.write(samples.toByteArray());
      for (int i = 0; i < functions.size(); i++) {
        ByteArrayOutputStream loc = new ByteArrayOutputStream();
        varint(loc, 1 << 3);
        varint(loc, i + 1);
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        varint(line, 1 << 3);
        varint(line, i + 1);
        varint(line, 2 << 3);
        varint(line, 42);
        bytes(loc, 4, line.toByteArray());
        bytes(out, 4, loc.toByteArray());
      }
      for (int i = 0; i < functions.size(); i++) {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        varint(f, 1 << 3);
        varint(f, i + 1);
        varint(f, 2 << 3);
        varint(f, str(functions.get(i)));
        bytes(out, 5, f.toByteArray());
      }
      for (String s : strings) {
        bytes(out, 6, s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      return out.toByteArray();
    }

    byte[] gzipped() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
        gz.write(raw());
      }
      return out.toByteArray();
    }

    private byte[] valueType(String t, String unit) throws IOException {
      ByteArrayOutputStream v = new ByteArrayOutputStream();
      varint(v, 1 << 3);
      varint(v, str(t));
      varint(v, 2 << 3);
      varint(v, str(unit));
      return v.toByteArray();
    }

    static void bytes(ByteArrayOutputStream out, int field, byte[] b) throws IOException {
      varint(out, field << 3 | 2);
      varint(out, b.length);
      out.write(b);
    }

    static void varint(ByteArrayOutputStream out, long v) {
      while ((v & ~0x7fL) != 0) {
        out.write((int) (v & 0x7f | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }
  }

  private static Pprof statements(boolean packed) throws IOException {
    Pprof p = new Pprof();
    p.packed = packed;
    p.sample(300_000_000, "runtime.mallocgc", PARSE, CONN)
        .sample(500_000_000, "core.findBestTask", COMPILE, CONN)
        // The plan-cache lookup runs inside Compile: a hit's cost, not what a hit saves.
        .sample(70_000_000, "core.rebuildRange", LOOKUP, COMPILE, CONN)
        .sample(40_000_000, DIGEST, CONN)
        .sample(1_000_000_000, "copr.handleTask", EXEC, CONN)
        // Internal SQL parsed and compiled outside client connections: background, not statements.
        .sample(90_000_000, PARSE, BACKGROUND)
        .sample(200_000_000, "runtime.gcBgMarkWorker");
    return p;
  }

  @Test
  void splitsTheServersCpuIntoTheConnectionsParseCompileDigestsAndPlanCacheLookups() throws Exception {
    for (boolean packed : new boolean[] {true, false}) {
      ServerCpuProfile p = ServerCpuProfile.read(new ByteArrayInputStream(statements(packed).gzipped()));
      assertThat(p.sampledNanos()).isEqualTo(2_200_000_000L);
      assertThat(p.connectionNanos()).isEqualTo(1_910_000_000L);
      assertThat(p.parseNanos()).isEqualTo(300_000_000L);
      assertThat(p.compileNanos()).isEqualTo(500_000_000L);
      assertThat(p.planCacheLookupNanos()).isEqualTo(70_000_000L);
      assertThat(p.digestNanos()).isEqualTo(40_000_000L);
      assertThat(p.slices()).isEqualTo(1);
      assertThat(p.optimizerShare()).isEqualTo(840.0 / 2200);
    }
  }

  @Test
  void readsTidbsPackagePathsBeforeV75() throws Exception {
    Pprof p = new Pprof().sample(100_000_000, "x", OLD_COMPILE, OLD_CONN).sample(100_000_000, "y", OLD_CONN);
    ServerCpuProfile r = ServerCpuProfile.read(new ByteArrayInputStream(p.gzipped()));
    assertThat(r.connectionNanos()).isEqualTo(200_000_000L);
    assertThat(r.compileNanos()).isEqualTo(100_000_000L);
  }

  @Test
  void profilesAddUpAcrossSlices() throws Exception {
    ServerCpuProfile a = ServerCpuProfile.read(new ByteArrayInputStream(statements(true).gzipped()));
    a.add(a.copy());
    assertThat(a.slices()).isEqualTo(2);
    assertThat(a.sampledNanos()).isEqualTo(4_400_000_000L);
    assertThat(a.optimizerShare()).isEqualTo(840.0 / 2200);
  }

  @Test
  void refusesWhatIsNotAGoCpuProfile() throws Exception {
    Pprof heap = statements(true);
    heap.type = new String[] {"inuse_space", "bytes"};
    assertThatThrownBy(() -> ServerCpuProfile.read(new ByteArrayInputStream(heap.gzipped())))
        .isInstanceOf(IOException.class).hasMessageContaining("not a CPU profile");
    assertThatThrownBy(() -> ServerCpuProfile.read(new ByteArrayInputStream("<html>error</html>".getBytes())))
        .isInstanceOf(IOException.class);
    byte[] raw = statements(true).raw();
    byte[] truncated = Arrays.copyOf(raw, raw.length / 2);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(truncated);
    }
    assertThatThrownBy(() -> ServerCpuProfile.read(new ByteArrayInputStream(gz.toByteArray())))
        .isInstanceOf(IOException.class);
  }

  @Test
  void readsAtMostItsBoundsCompressedAndDecompressed() throws Exception {
    // A stream longer than the compressed bound is refused, not buffered whole.
    java.io.InputStream endless = new java.io.InputStream() {
      long served;

      @Override
      public int read() {
        served++;
        return 0;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        served += len;
        Arrays.fill(b, off, off + len, (byte) 0);
        return len;
      }
    };
    assertThatThrownBy(() -> ServerCpuProfile.read(endless)).isInstanceOf(IOException.class)
        .hasMessageContaining(String.valueOf(ServerCpuProfile.MAX_COMPRESSED_BYTES));
    // A small gzip that inflates beyond the decompressed bound (a zip bomb) is refused.
    ByteArrayOutputStream bomb = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bomb)) {
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i <= ServerCpuProfile.MAX_PROFILE_BYTES >> 20; i++) {
        out.write(zeros);
      }
    }
    assertThat(bomb.size()).isLessThan(ServerCpuProfile.MAX_COMPRESSED_BYTES);
    assertThatThrownBy(() -> ServerCpuProfile.read(new ByteArrayInputStream(bomb.toByteArray())))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(String.valueOf(ServerCpuProfile.MAX_PROFILE_BYTES));
  }

  @Test
  void refusesMoreEntriesThanItsBound() throws Exception {
    Pprof p = new Pprof();
    for (int i = 0; i <= ServerCpuProfile.MAX_ENTRIES; i++) {
      p.fn("f" + i);
    }
    p.sample(10_000_000, "leaf", CONN);
    byte[] gz = p.gzipped();
    assertThat(gz.length).isLessThan(ServerCpuProfile.MAX_COMPRESSED_BYTES);
    assertThatThrownBy(() -> ServerCpuProfile.read(new ByteArrayInputStream(gz))).isInstanceOf(IOException.class)
        .hasMessageContaining("more than " + ServerCpuProfile.MAX_ENTRIES);
    // One sample whose stack is longer than any Go records.
    String[] deep = new String[ServerCpuProfile.MAX_FRAMES + 1];
    for (int i = 0; i < deep.length; i++) {
      deep[i] = "frame" + i;
    }
    byte[] deepGz = new Pprof().sample(10_000_000, deep).gzipped();
    assertThatThrownBy(() -> ServerCpuProfile.read(new ByteArrayInputStream(deepGz))).isInstanceOf(IOException.class)
        .hasMessageContaining("more than " + ServerCpuProfile.MAX_FRAMES + " frames");
  }

  @Test
  void roundTripsInTheProfilesCpuAndRefusesPartsBeyondTheirWhole() throws Exception {
    TrafficProfile p = new TrafficProfile();
    ServerCpuProfile sp = new ServerCpuProfile(2_000, 1_500, 300, 500, 40, 70, 2);
    p.addCpu(new CpuUsage(20_000_000_000L, 4_000_000_000L, 2, 39_000_000_000L, 40_000_000_000L)
        .withServerNanos(7_000_000_000L).withServerProfile(sp));
    String json = ProfileJson.toJson(p);
    assertThat(json).contains("\"serverProfile\"").contains("\"parseNanos\" : 300");
    TrafficProfile back = ProfileJson.fromJson(json);
    assertThat(back.cpu().serverProfile()).isEqualTo(sp);
    assertThat(back).isEqualTo(p);
    // Merged windows add their samples.
    assertThat(p.merge(back).cpu().serverProfile().sampledNanos()).isEqualTo(4_000);
    String bad = json.replace("\"connectionNanos\" : 1500", "\"connectionNanos\" : 500");
    assertThatThrownBy(() -> ProfileJson.fromJson(bad)).isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("cpu.serverProfile");
    String extra = json.replace("\"slices\" : 2", "\"slices\" : 2, \"sql\" : \"x\"");
    assertThatThrownBy(() -> ProfileJson.fromJson(extra)).isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("sql");
  }
}
