package io.wireadvisor.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureEvent.Kind;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replay's errors grouped by code and shape; the same-database rule; what the replayed driver sends itself. */
class ReplayErrorsTest {
  private static SessionReplayer.Shared shared() {
    return new SessionReplayer.Shared(false, null, null, "db");
  }

  @Test
  void duplicateKeysAreOneGroupWithOneExampleNotOneLinePerKey() {
    SessionReplayer.Shared s = shared();
    for (int k = 0; k < 5_000; k++) {
      s.newError("query", "INSERT INTO hist (id) VALUES (?)",
          new SQLIntegrityConstraintViolationException("Duplicate entry '" + k + "' for key 'PRIMARY'", "23000", 1062));
    }
    s.newError("query", "UPDATE acct SET bal = ? WHERE id = ?", new SQLException("Lock wait timeout exceeded", "HY000", 1205));
    assertThat(s.newErrors).hasSize(2);
    String key = "error 1062 (23000) on query INSERT INTO hist (id) VALUES (?)";
    assertThat(s.newErrors.get(key).get()).isEqualTo(5_000);
    assertThat(s.errorExamples.get(key)).isEqualTo("Duplicate entry '0' for key 'PRIMARY'");
  }

  @Test
  void errorGroupsAreBounded() {
    SessionReplayer.Shared s = shared();
    StringBuilder longShape = new StringBuilder("SELECT ");
    for (int i = 0; i < 1_000; i++) {
      longShape.append("c").append(i).append(", ");
    }
    for (int i = 0; i < 10_000; i++) {
      s.newError("query", "SELECT " + i + " " + longShape, new SQLException(longShape.toString(), "42000", 1064));
    }
    assertThat(s.newErrors).hasSize(SessionReplayer.Shared.MAX_ERROR_GROUPS + 1).containsKey("(other errors)");
    assertThat(s.newErrors.keySet()).allSatisfy(k -> assertThat(k.length()).isLessThan(200));
    assertThat(s.errorExamples.values()).allSatisfy(v -> assertThat(v.length())
        .isLessThanOrEqualTo(SessionReplayer.Shared.MAX_EXAMPLE_CHARS + 1));
    assertThat(s.errorExamples).hasSameSizeAs(s.newErrors);
  }

  private static CaptureFormat.Capture capture(String upstream, List<CaptureEvent> events) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CaptureWriter w = CaptureWriter.open(out, CaptureHeader.builder("proxy", "t").server("8.0.11-TiDB")
        .upstream(upstream).build(), 1 << 20, 60)) {
      for (CaptureEvent e : events) {
        w.write(e);
      }
    }
    return CaptureFormat.read(new ByteArrayInputStream(out.toByteArray()), "mem", CaptureFormat.Limits.defaults());
  }

  @Test
  void theSameDatabaseIsTheCapturesServerAndOneOfItsSchemas() throws Exception {
    CaptureFormat.Capture c = capture("127.0.0.1:4000", List.of(
        CaptureEvent.builder(1, 0, Kind.CONNECT).sql("bank").build(),
        CaptureEvent.builder(1, 1, Kind.INIT_DB).sql("audit").build()));
    assertThat(SameDatabase.reason(c, new ReplayTarget("localhost", 4000, "bank", "u", ""), "bank"))
        .contains("committed there already").contains("--allow-same-database");
    assertThat(SameDatabase.reason(c, new ReplayTarget("127.0.0.1", 4000, "AUDIT", "u", ""), "AUDIT")).isNotNull();
    assertThat(SameDatabase.reason(c, new ReplayTarget("127.0.0.1", 4000, "bank_copy", "u", ""), "bank_copy"))
        .as("another schema on the same server").isNull();
    assertThat(SameDatabase.reason(c, new ReplayTarget("127.0.0.1", 4001, "bank", "u", ""), "bank"))
        .as("another server").isNull();
    CaptureFormat.Capture noSchemas = capture("127.0.0.1:4000", List.of(CaptureEvent.builder(1, 0, Kind.CONNECT).build()));
    assertThat(SameDatabase.reason(noSchemas, new ReplayTarget("127.0.0.1", 4000, "anything", "u", ""), "anything"))
        .as("a capture naming no schema: the whole server is its database").isNotNull();
    CaptureFormat.Capture unknown = capture(null, List.of(CaptureEvent.builder(1, 0, Kind.CONNECT).sql("bank").build()));
    assertThat(SameDatabase.reason(unknown, new ReplayTarget("127.0.0.1", 4000, "bank", "u", ""), "bank"))
        .as("no upstream in the header: cannot be told").isNull();
  }

  @Test
  void theSchemasReadFromACaptureAreBounded() throws Exception {
    java.util.ArrayList<CaptureEvent> events = new java.util.ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      events.add(CaptureEvent.builder(1, i, Kind.INIT_DB).sql("schema_" + i).build());
    }
    assertThat(SameDatabase.schemas(capture("127.0.0.1:4000", events))).hasSize(1_000);
  }

  @Test
  void theReplayedDriversOwnChatterIsNotSentTwice() {
    SessionReplayer.Shared s = shared();
    String batch = "UPDATE acct SET bal = bal + ? WHERE id = ?;UPDATE acct SET bal = bal + ? WHERE id = ?";
    List<CaptureEvent> events = List.of(
        CaptureEvent.builder(1, 0, Kind.CONNECT).sql("bank").build(),
        CaptureEvent.builder(1, 1, Kind.QUERY).sql("/* mysql-connector-j-8.0.33 (Revision: x) */SELECT @@session.auto_increment_increment AS a, @@wait_timeout AS w").build(),
        CaptureEvent.builder(1, 2, Kind.QUERY).sql("SET character_set_results = NULL").build(),
        CaptureEvent.builder(1, 3, Kind.QUERY).sql("SET autocommit=1").build(),
        CaptureEvent.builder(1, 4, Kind.QUERY).sql("SELECT @@session.transaction_read_only").build(),
        CaptureEvent.builder(1, 5, Kind.QUERY).sql("SET autocommit=0").build(),
        CaptureEvent.builder(1, 6, Kind.QUERY).sql("SELECT @@session.transaction_read_only").build(),
        CaptureEvent.builder(1, 7, Kind.SET_OPTION).sql(CaptureEvent.MULTI_STATEMENTS_ON).build(),
        CaptureEvent.builder(1, 8, Kind.QUERY).sql("SELECT @@session.transaction_read_only").build(),
        CaptureEvent.builder(1, 9, Kind.QUERY).sql(batch).build(),
        CaptureEvent.builder(1, 10, Kind.SET_OPTION).sql(CaptureEvent.MULTI_STATEMENTS_OFF).build(),
        CaptureEvent.builder(1, 11, Kind.QUERY).sql("INSERT INTO hist VALUES (?)").build(),
        CaptureEvent.builder(1, 12, Kind.QUERY).sql("SET SESSION sql_mode = 'ANSI'").build(),
        CaptureEvent.builder(1, 13, Kind.QUERY).sql("COMMIT").build());
    byte[] plan = SessionReplayer.plan(events, s::classify);
    // Set-up chatter after the login (not the application's autocommit=0), one read-only read per
    // executed write; the insert without a read before it goes by executeUpdate; the
    // application's own session SET later is replayed.
    assertThat(plan).containsExactly(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0);
  }
}
