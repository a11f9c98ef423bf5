package io.wireadvisor.profile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Where a TiDB server's CPU went over a window, from the CPU profiles of its status port ({@code
 * /debug/pprof/profile}, Go's pprof protobuf, gzipped): the CPU sampled, the part spent on client
 * connections' statements ({@code server.(*clientConn).Run}), and of that the parts a plan-cache
 * hit does not repeat: parsing the SQL text ({@code session.(*session).ParseSQL}), compiling it
 * ({@code executor.(*Compiler).Compile} outside the plan-cache lookup), and normalizing it for
 * digests and bindings; plus the plan-cache lookup itself, which a hit still pays. Internal SQL
 * (TiDB's own background statements) runs outside client connections and is not counted in the
 * statement parts. Six numbers (docs/profile.md, {@code cpu.serverProfile}); merged windows add
 * them.
 *
 * <p>Decoding is bounded: at most {@link #MAX_COMPRESSED_BYTES} read, {@link #MAX_PROFILE_BYTES}
 * decompressed and {@link #MAX_ENTRIES} of each kind of entry kept; anything that is not a Go CPU
 * profile is an {@link IOException}.
 */
public final class ServerCpuProfile {
  /** Bytes of a gzipped profile read at most (TiDB's 10 s profile under load: about 110 KB). */
  public static final int MAX_COMPRESSED_BYTES = 4 << 20;

  /** Bytes a profile may decompress to (that profile: 325 KB). */
  public static final int MAX_PROFILE_BYTES = 16 << 20;

  /**
   * Samples, locations, functions and strings a profile may have, each (that profile: 1,376
   * samples, 3,382 locations, 2,133 functions, 2,663 strings): what decoding keeps stays within a
   * few tens of megabytes whatever a status port answers.
   */
  public static final int MAX_ENTRIES = 100_000;

  /** Frames of one sample's stack, or lines of one location (Go records at most 128 frames). */
  static final int MAX_FRAMES = 1024;

  private static final int CONNECTION = 1;
  private static final int PARSE = 2;
  private static final int COMPILE = 4;
  private static final int DIGEST = 8;
  private static final int LOOKUP = 16;

  private long sampledNanos;
  private long connectionNanos;
  private long parseNanos;
  private long compileNanos;
  private long digestNanos;
  private long planCacheLookupNanos;
  private int slices;

  public ServerCpuProfile(long sampledNanos, long connectionNanos, long parseNanos, long compileNanos,
      long digestNanos, long planCacheLookupNanos, int slices) {
    if (sampledNanos < 0 || connectionNanos < 0 || parseNanos < 0 || compileNanos < 0 || digestNanos < 0
        || planCacheLookupNanos < 0 || slices < 0 || connectionNanos > sampledNanos
        || parseNanos + compileNanos + digestNanos + planCacheLookupNanos > connectionNanos) {
      throw new IllegalArgumentException("server CPU profile figures must be non-negative, the statement parts"
          + " within the connections' and those within the sampled: " + sampledNanos + ", " + connectionNanos
          + ", " + parseNanos + ", " + compileNanos + ", " + digestNanos + ", " + planCacheLookupNanos);
    }
    this.sampledNanos = sampledNanos;
    this.connectionNanos = connectionNanos;
    this.parseNanos = parseNanos;
    this.compileNanos = compileNanos;
    this.digestNanos = digestNanos;
    this.planCacheLookupNanos = planCacheLookupNanos;
    this.slices = slices;
  }

  /** CPU the profiles sampled, every goroutine of the server. */
  public long sampledNanos() {
    return sampledNanos;
  }

  /** Of it, client connections' (statements of the applications, not TiDB's internal SQL). */
  public long connectionNanos() {
    return connectionNanos;
  }

  public long parseNanos() {
    return parseNanos;
  }

  /** Compiling (optimizing) statements, outside the plan-cache lookup. */
  public long compileNanos() {
    return compileNanos;
  }

  /** Normalizing statements and plans for digests and bindings. */
  public long digestNanos() {
    return digestNanos;
  }

  /** Looking plans up in the plan cache (what a hit still costs). */
  public long planCacheLookupNanos() {
    return planCacheLookupNanos;
  }

  /** Profiles (slices of the window) added up. */
  public int slices() {
    return slices;
  }

  /** Share of the sampled CPU a plan-cache hit does not spend: parse, compile and digests. */
  public double optimizerShare() {
    return sampledNanos == 0 ? 0 : (double) (parseNanos + compileNanos + digestNanos) / sampledNanos;
  }

  public void add(ServerCpuProfile o) {
    sampledNanos += o.sampledNanos;
    connectionNanos += o.connectionNanos;
    parseNanos += o.parseNanos;
    compileNanos += o.compileNanos;
    digestNanos += o.digestNanos;
    planCacheLookupNanos += o.planCacheLookupNanos;
    slices += o.slices;
  }

  public ServerCpuProfile copy() {
    return new ServerCpuProfile(sampledNanos, connectionNanos, parseNanos, compileNanos, digestNanos,
        planCacheLookupNanos, slices);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ServerCpuProfile)) {
      return false;
    }
    ServerCpuProfile p = (ServerCpuProfile) o;
    return sampledNanos == p.sampledNanos && connectionNanos == p.connectionNanos && parseNanos == p.parseNanos
        && compileNanos == p.compileNanos && digestNanos == p.digestNanos
        && planCacheLookupNanos == p.planCacheLookupNanos && slices == p.slices;
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(new long[] {
      sampledNanos, connectionNanos, parseNanos, compileNanos, digestNanos, planCacheLookupNanos, slices
    });
  }

  @Override
  public String toString() {
    return "ServerCpuProfile{sampled=" + sampledNanos + ", connections=" + connectionNanos + ", parse=" + parseNanos
        + ", compile=" + compileNanos + ", digest=" + digestNanos + ", lookup=" + planCacheLookupNanos
        + ", slices=" + slices + "}";
  }

  /** Reads one gzipped Go CPU profile (at most {@link #MAX_COMPRESSED_BYTES} of {@code in}). */
  public static ServerCpuProfile read(InputStream in) throws IOException {
    byte[] compressed = readBounded(in, MAX_COMPRESSED_BYTES, "the compressed profile");
    byte[] raw;
    try (GZIPInputStream gz = new GZIPInputStream(new java.io.ByteArrayInputStream(compressed))) {
      raw = readBounded(gz, MAX_PROFILE_BYTES, "the decompressed profile");
    }
    return decode(raw);
  }

  private static byte[] readBounded(InputStream in, int max, String what) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      if (out.size() + n > max) {
        throw new IOException(what + " is larger than " + max + " bytes");
      }
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  /** Decodes an uncompressed pprof {@code Profile} message. */
  static ServerCpuProfile decode(byte[] b) throws IOException {
    Proto p = new Proto(b, 0, b.length);
    List<long[]> sampleTypes = new ArrayList<long[]>(); // {type, unit} string indexes
    List<long[]> samples = new ArrayList<long[]>(); // location ids, then the values (count at [0] of tail)
    List<long[]> sampleValues = new ArrayList<long[]>();
    Map<Long, long[]> locationFunctions = new HashMap<Long, long[]>();
    Map<Long, Long> functionNames = new HashMap<Long, Long>();
    List<String> strings = new ArrayList<String>();
    while (p.next()) {
      int field = p.field();
      if (p.wire() != 2) {
        p.skip();
        continue;
      }
      Proto m = p.message();
      if (field >= 2 && field <= 6
          && samples.size() + locationFunctions.size() + functionNames.size() + strings.size() >= 4 * MAX_ENTRIES) {
        throw new IOException("more than " + MAX_ENTRIES + " samples, locations, functions or strings");
      }
      switch (field) {
        case 1:
          sampleTypes.add(valueType(m));
          break;
        case 2:
          sample(m, samples, sampleValues);
          break;
        case 4:
          location(m, locationFunctions);
          break;
        case 5:
          function(m, functionNames);
          break;
        case 6:
          strings.add(m.string());
          break;
        default:
          break;
      }
    }
    if (samples.size() > MAX_ENTRIES || locationFunctions.size() > MAX_ENTRIES
        || functionNames.size() > MAX_ENTRIES || strings.size() > MAX_ENTRIES) {
      throw new IOException("more than " + MAX_ENTRIES + " samples, locations, functions or strings");
    }
    int cpu = -1;
    for (int i = 0; i < sampleTypes.size(); i++) {
      long[] t = sampleTypes.get(i);
      if ("cpu".equals(string(strings, t[0])) && "nanoseconds".equals(string(strings, t[1]))) {
        cpu = i;
      }
    }
    if (cpu < 0) {
      throw new IOException("not a CPU profile: no sample type cpu/nanoseconds");
    }
    Map<Long, Integer> functionMask = new HashMap<Long, Integer>();
    for (Map.Entry<Long, Long> f : functionNames.entrySet()) {
      functionMask.put(f.getKey(), mask(string(strings, f.getValue())));
    }
    Map<Long, Integer> locationMask = new HashMap<Long, Integer>();
    for (Map.Entry<Long, long[]> l : locationFunctions.entrySet()) {
      int m = 0;
      for (long fn : l.getValue()) {
        Integer fm = functionMask.get(fn);
        m |= fm == null ? 0 : fm;
      }
      locationMask.put(l.getKey(), m);
    }
    long sampled = 0;
    long connection = 0;
    long parse = 0;
    long compile = 0;
    long digest = 0;
    long lookup = 0;
    for (int i = 0; i < samples.size(); i++) {
      long[] values = sampleValues.get(i);
      if (cpu >= values.length || values[cpu] < 0) {
        continue;
      }
      long v = values[cpu];
      int m = 0;
      for (long loc : samples.get(i)) {
        Integer lm = locationMask.get(loc);
        m |= lm == null ? 0 : lm;
      }
      sampled += v;
      if ((m & CONNECTION) == 0) {
        continue;
      }
      connection += v;
      if ((m & LOOKUP) != 0) {
        lookup += v;
      } else if ((m & PARSE) != 0) {
        parse += v;
      } else if ((m & COMPILE) != 0) {
        compile += v;
      } else if ((m & DIGEST) != 0) {
        digest += v;
      }
    }
    return new ServerCpuProfile(sampled, connection, parse, compile, digest, lookup, 1);
  }

  /**
   * The parts a function marks, by its fully qualified Go name. TiDB moved its packages under
   * {@code pkg/} in v7.5; the names below match both layouts.
   */
  static int mask(String name) {
    if (name == null) {
      return 0;
    }
    int m = 0;
    if (name.endsWith("/server.(*clientConn).Run")) {
      m |= CONNECTION;
    }
    if (name.endsWith("/session.(*session).ParseSQL") || name.endsWith("/parser.(*Parser).Parse")) {
      m |= PARSE;
    }
    if (name.endsWith("/executor.(*Compiler).Compile")) {
      m |= COMPILE;
    }
    if (name.contains("/planner/core.GetPlanFrom") || name.contains("/planner/core.getCachedPointPlan")) {
      m |= LOOKUP;
    }
    if (name.contains("/parser.Normalize") || name.contains("/parser.DigestNormalized")
        || name.endsWith("norm.NormalizeStmtForBinding") || name.contains("/planner/core.NormalizeFlatPlan")
        || name.contains("/planner/core.NormalizePlan")) {
      m |= DIGEST;
    }
    return m;
  }

  private static String string(List<String> strings, long index) {
    return index >= 0 && index < strings.size() ? strings.get((int) index) : null;
  }

  private static long[] valueType(Proto m) throws IOException {
    long[] t = {-1, -1};
    while (m.next()) {
      if (m.is(1, 0) || m.is(2, 0)) {
        t[m.field() - 1] = m.varint();
      } else {
        m.skip();
      }
    }
    return t;
  }

  private static void sample(Proto m, List<long[]> samples, List<long[]> values) throws IOException {
    LongList locations = new LongList();
    LongList vals = new LongList();
    while (m.next()) {
      if ((m.field() == 1 || m.field() == 2) && (m.wire() == 0 || m.wire() == 2)) {
        LongList into = m.field() == 1 ? locations : vals;
        if (m.wire() == 0) {
          into.add(m.varint());
        } else {
          Proto packed = m.message();
          while (packed.more()) {
            into.add(packed.varint());
          }
        }
      } else {
        m.skip();
      }
    }
    samples.add(locations.toArray());
    values.add(vals.toArray());
  }

  private static void location(Proto m, Map<Long, long[]> into) throws IOException {
    long id = 0;
    LongList functions = new LongList();
    while (m.next()) {
      if (m.is(1, 0)) {
        id = m.varint();
      } else if (m.is(4, 2)) {
        Proto line = m.message();
        while (line.next()) {
          if (line.is(1, 0)) {
            functions.add(line.varint());
          } else {
            line.skip();
          }
        }
      } else {
        m.skip();
      }
    }
    into.put(id, functions.toArray());
  }

  private static void function(Proto m, Map<Long, Long> into) throws IOException {
    long id = 0;
    long name = -1;
    while (m.next()) {
      if (m.is(1, 0)) {
        id = m.varint();
      } else if (m.is(2, 0)) {
        name = m.varint();
      } else {
        m.skip();
      }
    }
    into.put(id, name);
  }

  /** A growable array of at most {@link #MAX_FRAMES} longs. */
  private static final class LongList {
    private long[] a = new long[8];
    private int n;

    void add(long v) throws IOException {
      if (n == MAX_FRAMES) {
        throw new IOException("more than " + MAX_FRAMES + " frames or values in one sample or location");
      }
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    long[] toArray() {
      return java.util.Arrays.copyOf(a, n);
    }
  }

  /** A reader of protobuf wire format over a slice of a byte array. */
  private static final class Proto {
    private final byte[] b;
    private int pos;
    private final int end;

    Proto(byte[] b, int from, int end) {
      this.b = b;
      this.pos = from;
      this.end = end;
    }

    private int key;

    boolean more() {
      return pos < end;
    }

    /** Reads the next field's key; false at the end of the message. */
    boolean next() throws IOException {
      if (pos >= end) {
        return false;
      }
      key = (int) varint();
      return true;
    }

    int field() {
      return key >>> 3;
    }

    int wire() {
      return key & 7;
    }

    /** True when the current field is {@code field} with wire type {@code wire}. */
    boolean is(int field, int wire) {
      return field() == field && wire() == wire;
    }

    /** Skips the current field. */
    void skip() throws IOException {
      skip(wire());
    }

    long varint() throws IOException {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw new IOException("truncated varint at byte " + pos);
        }
        int x = b[pos++];
        v |= (long) (x & 0x7f) << shift;
        if ((x & 0x80) == 0) {
          return v;
        }
      }
      throw new IOException("varint longer than 10 bytes at byte " + pos);
    }

    Proto message() throws IOException {
      long len = varint();
      if (len < 0 || len > end - pos) {
        throw new IOException("length " + len + " beyond the message at byte " + pos);
      }
      Proto m = new Proto(b, pos, pos + (int) len);
      pos += (int) len;
      return m;
    }

    String string() {
      return new String(b, pos, end - pos, java.nio.charset.StandardCharsets.UTF_8);
    }

    void skip(int wire) throws IOException {
      switch (wire) {
        case 0:
          varint();
          return;
        case 1:
          advance(8);
          return;
        case 2:
          message();
          return;
        case 5:
          advance(4);
          return;
        default:
          throw new IOException("wire type " + wire + " at byte " + pos);
      }
    }

    private void advance(int n) throws IOException {
      if (n > end - pos) {
        throw new IOException("truncated field at byte " + pos);
      }
      pos += n;
    }
  }
}
