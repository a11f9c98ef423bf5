package io.wireadvisor.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wireadvisor.capture.CaptureEvent.Kind;
import io.wireadvisor.capture.CaptureFormat.Capture;
import io.wireadvisor.capture.CaptureValue.Type;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFormatTest {
  @TempDir Path dir;

  private static CaptureHeader header(boolean masked) {
    return CaptureHeader.builder("proxy", "0.1.0").server("8.0.11-TiDB-v8.5.0").startedAtMillis(1_764_000_000_000L)
        .valuesMasked(masked).jdbcProperties(Map.of("useServerPrepStmts", "true", "password", "hunter2")).build();
  }

  private static List<CaptureEvent> session() {
    List<CaptureEvent> e = new ArrayList<>();
    e.add(CaptureEvent.builder(1, 0, Kind.CONNECT).sql("bank").build());
    e.add(CaptureEvent.builder(1, 800, Kind.QUERY).sql("SELECT bal FROM acct WHERE id = ? AND owner = ?")
        .value(CaptureValue.of(Type.NUMBER, "42")).value(CaptureValue.of(Type.STRING, "Zoë \"Z\" O'Neil"))
        .latencyMicros(310).build());
    e.add(CaptureEvent.builder(1, 1400, Kind.PREPARE).statementId(7).sql("UPDATE acct SET bal = ? WHERE id = ?").build());
    e.add(CaptureEvent.builder(1, 1530, Kind.EXECUTE).statementId(7)
        .value(CaptureValue.of(Type.NUMBER, "10.50")).value(CaptureValue.NULL).error(1048).latencyMicros(80).build());
    e.add(CaptureEvent.builder(2, 1600, Kind.EXECUTE).statementId(-1)
        .value(CaptureValue.of(Type.BYTES, "AAEC")).value(CaptureValue.of(Type.DATETIME, "2024-01-01T10:00:00.5"))
        .build());
    e.add(CaptureEvent.builder(1, 2100, Kind.CLOSE).statementId(7).build());
    e.add(CaptureEvent.builder(1, 2200, Kind.QUIT).build());
    return e;
  }

  @Test
  void writesAPrivateFileThatReadsBackEventForEvent() throws Exception {
    Path file = dir.resolve("c.jsonl");
    try (CaptureWriter w = CaptureWriter.create(file, header(false), 1 << 20, 60)) {
      for (CaptureEvent e : session()) {
        assertThat(w.write(e)).isTrue();
      }
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    String text = Files.readString(file);
    assertThat(text).contains(CaptureHeader.NOTICE).doesNotContain("hunter2");
    Capture c = CaptureFormat.read(file);
    assertThat(c.events()).isEqualTo(session());
    assertThat(c.complete()).isTrue();
    assertThat(c.endReason()).isEqualTo("stopped");
    assertThat(c.header().jdbcProperties()).containsOnlyKeys("useServerPrepStmts");
    assertThat(c.header().server()).isEqualTo("8.0.11-TiDB-v8.5.0");
    assertThat(c.byConnection().keySet()).containsExactly(1L, 2L);
    assertThatThrownBy(() -> CaptureWriter.create(file, header(false), 1 << 20, 60))
        .as("an existing capture is never overwritten")
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
  }

  @Test
  void maskedCapturesKeepTypesAndLengthsOnly() throws Exception {
    Path file = dir.resolve("m.jsonl");
    try (CaptureWriter w = CaptureWriter.create(file, header(true), 1 << 20, 60)) {
      for (CaptureEvent e : session()) {
        w.write(e);
      }
      w.write(CaptureEvent.builder(1, 2300, Kind.QUERY).sql("SET @note = 'private'").build());
      w.write(CaptureEvent.builder(1, 2400, Kind.QUERY).sql("SET autocommit=0").build());
    }
    String text = Files.readString(file);
    for (String secret : new String[] {"42", "O'Neil", "10.50", "AAEC", "2024-01-01", "private"}) {
      assertThat(text).as(secret).doesNotContain(secret);
    }
    Capture c = CaptureFormat.read(file);
    assertThat(c.header().valuesMasked()).isTrue();
    CaptureEvent q = c.events().get(1);
    assertThat(q.sql()).isEqualTo("SELECT bal FROM acct WHERE id = ? AND owner = ?");
    assertThat(q.values()).containsExactly(CaptureValue.masked(Type.NUMBER, 2), CaptureValue.masked(Type.STRING, "Zoë \"Z\" O'Neil".length()));
    assertThat(c.events().get(7).sql()).as("a string literal outside parameters").isNull();
    assertThat(c.events().get(8).sql()).isEqualTo("SET autocommit=0");
  }

  @Test
  void credentialsNeverReachTheFileMaskedOrNot() throws Exception {
    Path file = dir.resolve("creds.jsonl");
    try (CaptureWriter w = CaptureWriter.create(file, header(false), 1 << 20, 60)) {
      w.write(CaptureEvent.builder(1, 1, Kind.QUERY).sql("CREATE USER 'app'@'%' IDENTIFIED BY 'S3cretPw'").build());
      w.write(CaptureEvent.builder(1, 2, Kind.QUERY).sql("SET PASSWORD FOR app = ?")
          .value(CaptureValue.of(Type.STRING, "S3cretPw")).build());
      w.write(CaptureEvent.builder(1, 3, Kind.PREPARE).statementId(9).sql("ALTER USER app IDENTIFIED BY ?").build());
      w.write(CaptureEvent.builder(1, 4, Kind.EXECUTE).statementId(9).value(CaptureValue.of(Type.STRING, "S3cretPw")).build());
      w.write(CaptureEvent.builder(1, 5, Kind.CLOSE).statementId(9).build());
      w.write(CaptureEvent.builder(1, 6, Kind.PREPARE).statementId(9).sql("SELECT ? FROM dual").build());
      w.write(CaptureEvent.builder(1, 7, Kind.EXECUTE).statementId(9).value(CaptureValue.of(Type.STRING, "fine")).build());
    }
    String text = Files.readString(file);
    assertThat(text).doesNotContain("S3cretPw").contains("fine");
    Capture c = CaptureFormat.read(file);
    assertThat(c.events()).hasSize(7);
    assertThat(c.events().get(0).sql()).isNull();
    assertThat(c.events().get(3).values()).allMatch(CaptureValue::isMasked);
  }

  @Test
  void aLimitEndsTheCaptureAndTheLastLineSaysWhich() throws Exception {
    Path file = dir.resolve("small.jsonl");
    long written;
    try (CaptureWriter w = CaptureWriter.create(file, header(false), 4096, 60)) {
      int i = 0;
      while (w.write(CaptureEvent.builder(1, i++, Kind.QUERY).sql("SELECT " + "x".repeat(100)).build())) {
        assertThat(i).isLessThan(1000);
      }
      assertThat(w.ended()).isTrue();
      written = w.events();
      assertThat(w.write(CaptureEvent.builder(1, i, Kind.QUIT).build())).isFalse();
    }
    assertThat(Files.size(file)).isLessThanOrEqualTo(4096);
    Capture c = CaptureFormat.read(file);
    assertThat(c.endReason()).isEqualTo("size limit");
    assertThat(c.events()).hasSize((int) written);
    assertThat(c.dropped()).isEqualTo(1);

    // Stopped, not limited: nothing was dropped (found by BankReplayProofIT: it said 1).
    Path stopped = dir.resolve("stopped.jsonl");
    try (CaptureWriter w = CaptureWriter.create(stopped, header(false), 1 << 20, 60)) {
      assertThat(w.write(CaptureEvent.builder(1, 5, Kind.QUIT).build())).isTrue();
    }
    assertThat(CaptureFormat.read(stopped).endReason()).isEqualTo("stopped");
    assertThat(CaptureFormat.read(stopped).dropped()).isZero();

    Path timed = dir.resolve("timed.jsonl");
    try (CaptureWriter w = CaptureWriter.create(timed, header(false), 1 << 20, 1)) {
      assertThat(w.write(CaptureEvent.builder(1, 999_999, Kind.QUIT).build())).isTrue();
      assertThat(w.write(CaptureEvent.builder(1, 1_000_001, Kind.QUIT).build())).isFalse();
    }
    assertThat(CaptureFormat.read(timed).endReason()).isEqualTo("time limit");
  }

  @Test
  void longValuesAreKeptAsTypeAndLength() throws Exception {
    Path file = dir.resolve("long.jsonl");
    String big = "y".repeat(CaptureWriter.MAX_VALUE_CHARS + 1);
    try (CaptureWriter w = CaptureWriter.create(file, header(false), 1 << 20, 60)) {
      w.write(CaptureEvent.builder(1, 1, Kind.EXECUTE).statementId(1)
          .value(CaptureValue.of(Type.STRING, big)).value(CaptureValue.of(Type.NUMBER, "1")).build());
    }
    CaptureEvent e = CaptureFormat.read(file).events().get(0);
    assertThat(e.values()).containsExactly(CaptureValue.masked(Type.STRING, big.length()), CaptureValue.of(Type.NUMBER, "1"));
  }

  @Test
  void badFilesAreRefusedNamingLineAndField() throws Exception {
    String head = "{\"schema\":\"wire-advisor/capture\",\"version\":1,\"collector\":\"proxy\"}\n";
    assertThat(error(head + "{\"c\":1,\"t\":5,\"e\":\"query\",\"id\":\"x\"}\n")).contains("line 2").contains("'id'");
    assertThat(error(head + "{\"c\":1,\"t\":5,\"e\":\"teleport\"}\n")).contains("line 2").contains("'e'").contains("teleport");
    assertThat(error(head + "{\"c\":1,\"t\":-5,\"e\":\"quit\"}\n")).contains("'t'");
    assertThat(error(head + "{\"c\":1,\"t\":5,\"e\":\"execute\",\"v\":[{\"float\":\"1\"}]}\n")).contains("v[0]");
    assertThat(error(head + "{\"c\":1,\"t\":5,\"e\":\"execute\",\"v\":[1]}\n")).contains("v[0]");
    assertThat(error(head + "not json\n")).contains("line 2").contains("not JSON");
    // A last line cut short (no newline: the writer died, the disk filled) is not an error: what
    // came before stands and the capture reads as incomplete.
    Capture cut = CaptureFormat.read(
        new java.io.ByteArrayInputStream((head + "{\"c\":1,\"t\":5,\"e\":\"quit\"}\n{\"c\":1,\"t\":9,\"e\":\"que")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8)), "cut", CaptureFormat.Limits.defaults());
    assertThat(cut.events()).hasSize(1);
    assertThat(cut.complete()).isFalse();
    assertThat(error("{\"schema\":\"other\",\"version\":1}\n")).contains("line 1").contains("'schema'");
    assertThat(error("{\"schema\":\"wire-advisor/capture\",\"version\":2,\"collector\":\"p\"}\n")).contains("'version'");
    assertThat(error("")).contains("no header");
    assertThat(error(head + "{\"e\":\"end\",\"events\":0}\n{\"c\":1,\"t\":5,\"e\":\"quit\"}\n")).contains("after the capture's last line");
    CaptureFormat.Limits tight = new CaptureFormat.Limits(64, 1, 1 << 20, 2);
    assertThat(error(head.replace("}", ",\"pad\":\"" + "p".repeat(80) + "\"}"), tight)).contains("line 1").contains("64 bytes");
    assertThat(error(head + "{\"c\":1,\"t\":5,\"e\":\"quit\"}\n{\"c\":1,\"t\":6,\"e\":\"quit\"}\n",
        new CaptureFormat.Limits(1 << 20, 1, 1 << 20, 2))).contains("line 3").contains("1 events");
  }

  @Test
  void aCaptureWithoutItsLastLineStillReads() throws Exception {
    String head = "{\"schema\":\"wire-advisor/capture\",\"version\":1,\"collector\":\"proxy\"}\n";
    Capture c = CaptureFormat.read(new ByteArrayInputStream(
        (head + "{\"c\":1,\"t\":5,\"e\":\"quit\"}").getBytes(StandardCharsets.UTF_8)), "cut.jsonl",
        CaptureFormat.Limits.defaults());
    assertThat(c.complete()).isFalse();
    assertThat(c.events()).hasSize(1);
  }

  private static String error(String content) {
    return error(content, CaptureFormat.Limits.defaults());
  }

  private static String error(String content, CaptureFormat.Limits limits) {
    try {
      CaptureFormat.read(new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), "cap.jsonl", limits);
    } catch (CaptureFormatException e) {
      assertThat(e.getMessage()).startsWith("cap.jsonl");
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError("expected a CaptureFormatException, got " + e, e);
    }
    throw new AssertionError("accepted: " + content);
  }

  @Test
  void theWriterDropsKeysACollectorPassedOn() throws Exception {
    // Issue 28 point 5: whatever a collector hands over, the writer's guard keeps no key.
    String[] sql = {
      "SET @k = 'Key-w1'", "SELECT @k := 'Key-w2'", "SELECT AES_ENCRYPT(c, 'Key-w3') FROM t",
      "BACKUP DATABASE * TO 'azure://c/p?account-key=Key-w4'",
      "BACKUP DATABASE * TO 's3://b/p?access-key=Key-w5'", "BACKUP DATABASE * TO 'azure://c?sig=Key-w6'",
      "SELECT 1 FROM t WHERE u = 'https://h/?password=Key-w7'",
    };
    Path file = dir.resolve("keys.jsonl");
    try (CaptureWriter w = CaptureWriter.create(file, header(false), 1 << 20, 60)) {
      for (int i = 0; i < sql.length; i++) {
        w.write(CaptureEvent.builder(1, i + 1, Kind.QUERY).sql(sql[i]).build());
      }
      w.write(CaptureEvent.builder(1, 99, Kind.QUERY).sql("SET @tenant = 7").build());
    }
    String text = Files.readString(file);
    assertThat(text).doesNotContain("Key-w").contains("SET @tenant = 7");
    assertThat(CaptureFormat.read(file).events()).hasSize(sql.length + 1);
  }

  // ---- the driver the capture came from ----------------------------------------------------

  private Capture written(CaptureHeader h, java.util.function.Consumer<CaptureWriter> during, boolean end)
      throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    CaptureWriter w = CaptureWriter.open(out, h, 1 << 20, 60);
    w.write(CaptureEvent.builder(1, 0, Kind.CONNECT).sql("bank").build());
    during.accept(w);
    w.close();
    String text = out.toString(StandardCharsets.UTF_8);
    if (!end) { // the writer died before its last line
      text = text.substring(0, text.lastIndexOf("{\"e\":\"end\""));
    }
    return CaptureFormat.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "mem",
        CaptureFormat.Limits.defaults());
  }

  @Test
  void aDriverNamedAfterTheHeaderComesBackInTheHeaderFromTheLastLine() throws Exception {
    Capture c = written(header(false), w -> {
      w.driver("MySQL Connector/J", "8.0.33");
      w.driver("MySQL Connector/J", "8.0.33");
      w.driver("libmariadb", "3.3.8");
    }, true);
    assertThat(c.header().driverName()).isEqualTo("MySQL Connector/J");
    assertThat(c.header().driverVersion()).isEqualTo("8.0.33");
    assertThat(c.drivers()).isEqualTo(2);
  }

  @Test
  void theHeadersDriverStaysAndACaptureWithoutItsLastLineNamesOnlyWhatTheHeaderSaid() throws Exception {
    CaptureHeader named = CaptureHeader.builder("agent", "0.1.0").driver("MySQL Connector/J", "9.5.0").build();
    Capture c = written(named, w -> w.driver("MySQL Connector/J", "8.0.33"), true);
    assertThat(c.header().driverVersion()).isEqualTo("9.5.0");
    assertThat(c.drivers()).isEqualTo(2);

    Capture cut = written(header(false), w -> w.driver("MySQL Connector/J", "8.0.33"), false);
    assertThat(cut.complete()).isFalse();
    assertThat(cut.header().driverVersion()).isNull();
  }

  @Test
  void driversAreBoundedInNumberAndLength() throws Exception {
    String longName = "x".repeat(10_000);
    Capture c = written(header(false), w -> {
      for (int i = 0; i < 1_000; i++) {
        w.driver(i == 0 ? longName : "client-" + i, "1." + i);
      }
    }, true);
    assertThat(c.header().driverName()).hasSize(CaptureWriter.MAX_DRIVER_CHARS);
    assertThat(c.drivers()).isEqualTo(CaptureWriter.MAX_DRIVERS);
  }

  @Test
  void theLastLineFitsItsReserveWithTheLongestDriverFields() throws Exception {
    // Every character escaped (\u0001 is six bytes): the last line must still fit the room kept.
    String worst = "\u0001".repeat(CaptureWriter.MAX_DRIVER_CHARS);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    long max = 8192;
    CaptureWriter w = CaptureWriter.open(out, header(false), max, 60);
    w.driver(worst, worst);
    int i = 0;
    while (w.write(CaptureEvent.builder(1, i++, Kind.QUERY).sql("SELECT " + i).build())) {
      // until the size limit ends it
    }
    w.close();
    assertThat((long) out.size()).isLessThanOrEqualTo(max);
    Capture c = CaptureFormat.read(new ByteArrayInputStream(out.toByteArray()), "mem", CaptureFormat.Limits.defaults());
    assertThat(c.endReason()).isEqualTo("size limit");
    assertThat(c.header().driverName()).isEqualTo(worst);
  }
}
