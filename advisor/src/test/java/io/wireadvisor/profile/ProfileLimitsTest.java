package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.advisor.BankLikeFixtures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forged profiles are refused while streaming, before what they would make the reader allocate:
 * each case checks the message (the field's JSON path) and that reading allocated little.
 */
class ProfileLimitsTest {
  static final long BOUND = 64L << 20;

  @TempDir Path dir;

  static final String HEAD =
      "{\"schema\":\"wire-advisor/traffic-profile\",\"schemaVersion\":1,\"sources\":[],"
          + "\"commands\":{},\"shapes\":[";
  static final String TAIL =
      "],\"probes\":{},\"connections\":{\"connections\":0,\"distributions\":{}}}";

  static String shape(int i) {
    return "{\"digest\":\"d" + i + "\",\"digestText\":\"select ?\",\"kind\":\"SELECT\","
        + "\"tablesRead\":[],\"tablesWritten\":[],\"minSqlLength\":8,\"maxSqlLength\":8,"
        + "\"counts\":{\"textExecutes\":1}}";
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Bytes allocated by this thread while {@code r} runs (HotSpot's per-thread counter). */
  static long allocatedBy(Runnable r) {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = mx.getThreadAllocatedBytes(id);
    r.run();
    return mx.getThreadAllocatedBytes(id) - before;
  }

  /** Reads {@code in}, expects a refusal whose message contains {@code expected}; returns bytes allocated. */
  static long refused(InputStream in, ProfileLimits limits, String... expected) {
    return allocatedBy(() -> assertThatThrownBy(() -> ProfileJson.read(in, limits))
        .isInstanceOf(ProfileFormatException.class)
        .satisfies(e -> assertThat(e.getMessage()).contains(expected)));
  }

  @Test
  void aHighPrecisionIsRefusedBeforeTheHistogramIsAllocated() throws Exception {
    // 3,000 shapes at precision 10 made the old reader allocate 225 KB per shape (660 MB).
    String real = ProfileJson.toJson(BankLikeFixtures.scenario(1));
    assertThat(real).contains("\"precisionBits\" : 7");
    StringBuilder sb = new StringBuilder(HEAD);
    for (int i = 0; i < 3000; i++) {
      if (i > 0) {
        sb.append(',');
      }
      String s = shape(i);
      sb.append(s, 0, s.length() - 1).append(",\"latencyNanos\":{\"precisionBits\":10,\"count\":0,"
          + "\"sum\":0,\"min\":0,\"max\":0,\"buckets\":[]}}");
    }
    byte[] json = utf8(sb.append(TAIL).toString());
    long allocated = refused(new ByteArrayInputStream(json), ProfileLimits.defaults(),
        "shapes[0].latencyNanos.precisionBits: 10 is not allowed", "precision 3");
    assertThat(allocated).isLessThan(BOUND);

    String bad = real.replaceFirst("\"precisionBits\" : 7", "\"precisionBits\" : 10");
    assertThatThrownBy(() -> ProfileJson.fromJson(bad)).hasMessageContaining(
        "connections.distributions.").hasMessageContaining("precisionBits: 10 is not allowed");
  }

  @Test
  void moreBucketsThanThePrecisionHasAreRefused() {
    StringBuilder buckets = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      buckets.append(i == 0 ? "" : ",").append("[").append(i).append(",1]");
    }
    String s = shape(0);
    String json = HEAD + s.substring(0, s.length() - 1) + ",\"latencyNanos\":{\"precisionBits\":3,"
        + "\"count\":300,\"sum\":0,\"min\":0,\"max\":0,\"buckets\":[" + buckets + "]}}" + TAIL;
    assertThatThrownBy(() -> ProfileJson.fromJson(json))
        .hasMessageContaining("shapes[0].latencyNanos.buckets: 300 buckets, more than the 248");
  }

  @Test
  void aMillionShapesStopAtTheLimitWithBoundedMemory() {
    final int shapes = 1_000_000;
    // Generated on the fly: the test holds no 200 MB document either.
    InputStream millions = new InputStream() {
      int next = -1;
      byte[] chunk = utf8(HEAD);
      int pos;

      @Override
      public int read() {
        while (pos == chunk.length) {
          next++;
          if (next > shapes) {
            return -1;
          }
          chunk = utf8(next == shapes ? TAIL : (next == 0 ? "" : ",") + shape(next));
          pos = 0;
        }
        return chunk[pos++] & 0xff;
      }
    };
    long allocated = refused(millions, ProfileLimits.defaults().withMaxShapes(1000),
        "shapes: holds more than 1000 shapes", "--max-profile-shapes");
    assertThat(allocated).isLessThan(BOUND);
  }

  @Test
  void theDefaultShapeLimitIsFarAboveWhatCollectorsWrite() {
    assertThat(ProfileLimits.defaults().maxShapes())
        .isGreaterThanOrEqualTo(4 * TrafficProfile.DEFAULT_MAX_SHAPES);
  }

  @Test
  void aHugeStringIsRefusedWhileBeingRead() {
    char[] big = new char[ProfileLimits.MAX_STRING_CHARS + 1];
    Arrays.fill(big, 'x');
    byte[] json = utf8(HEAD + shape(0).replace("select ?", new String(big)) + TAIL);
    long allocated = refused(new ByteArrayInputStream(json), ProfileLimits.defaults(),
        "shapes[0].digestText: a string longer than " + ProfileLimits.MAX_STRING_CHARS);
    assertThat(allocated).isLessThan(BOUND);
  }

  @Test
  void deepNestingIsRefused() {
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      deep.append('[');
    }
    byte[] json = utf8(HEAD + "{\"digest\":" + deep);
    long allocated = refused(new ByteArrayInputStream(json), ProfileLimits.defaults(),
        "nested deeper than " + ProfileLimits.MAX_DEPTH);
    assertThat(allocated).isLessThan(BOUND);

    String s = shape(0);
    String nestedCounts = HEAD + s.replace("\"counts\":{\"textExecutes\":1}",
        "\"counts\":{\"textExecutes\":[[[[[1]]]]]}") + TAIL;
    assertThatThrownBy(() -> ProfileJson.fromJson(nestedCounts))
        .hasMessageContaining("shapes[0].counts.textExecutes[0][0]: nested deeper than 6 levels");
  }

  @Test
  void tooManyFieldsOrElementsAreRefused() {
    StringBuilder props = new StringBuilder();
    for (int i = 0; i <= ProfileLimits.MAX_ELEMENTS; i++) {
      props.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":\"v\"");
    }
    String json = HEAD.replace("\"sources\":[]", "\"sources\":[{\"collector\":\"agent\","
        + "\"startMillis\":0,\"endMillis\":0,\"properties\":{" + props + "}}]") + TAIL;
    assertThatThrownBy(() -> ProfileJson.fromJson(json))
        .hasMessageContaining("sources[0].properties: has more than 10000 fields");
  }

  @Test
  void aFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws Exception {
    Path f = dir.resolve("big.json");
    ProfileJson.writeFile(BankLikeFixtures.scenario(1), f);
    long size = Files.size(f);
    assertThat(ProfileJson.readFile(f, ProfileLimits.defaults().withMaxBytes(size))).isNotNull();
    long allocated = allocatedBy(() -> assertThatThrownBy(
        () -> ProfileJson.readFile(f, ProfileLimits.defaults().withMaxBytes(size - 1)))
        .hasMessageContaining("the file is " + size + " bytes, above the limit of " + (size - 1))
        .hasMessageContaining("--max-profile-size"));
    assertThat(allocated).isLessThan(1L << 20);
  }

  @Test
  void aStreamOverTheSizeLimitIsRefused() throws IOException {
    byte[] json = utf8(ProfileJson.toJson(BankLikeFixtures.scenario(1)));
    assertThatThrownBy(() -> ProfileJson.read(new ByteArrayInputStream(json),
        ProfileLimits.defaults().withMaxBytes(json.length / 2)))
        .isInstanceOf(ProfileFormatException.class)
        .hasMessageContaining("longer than the limit of " + json.length / 2 + " bytes");
  }

  @Test
  void duplicateFieldsAreRefused() {
    String json = HEAD + shape(0).replace("\"kind\":\"SELECT\"", "\"kind\":\"SELECT\",\"kind\":\"DDL\"")
        + TAIL;
    assertThatThrownBy(() -> ProfileJson.fromJson(json))
        .hasMessageContaining("shapes[0].kind: appears twice");
  }

  @Test
  void aValidProfileStillReadsBack() throws Exception {
    TrafficProfile p = BankLikeFixtures.scenario(1);
    assertThat(ProfileJson.fromJson(ProfileJson.toJson(p))).isEqualTo(p);
    assertThat(ProfileJson.fromJson(HEAD + shape(0) + "," + shape(1) + TAIL).shapes()).hasSize(2);
  }
}
