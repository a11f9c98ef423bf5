package io.wireadvisor.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-connection capture rules, fed command by command as a collector feeds them; each case
 * here is a finding of the attacker's review of the first cut (all leaked or grew without bound).
 */
class CaptureSessionTest {
  private final MemoryCapture control = new MemoryCapture();
  private final CaptureSession session = new CaptureSession(control);

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.write(p, 0, p.length);
    }
    return b.toByteArray();
  }

  private static byte[] int4(int v) {
    return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
  }

  private static byte[] lenencString(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length < 251) {
      return concat(new byte[] {(byte) b.length}, b);
    }
    return concat(new byte[] {(byte) 0xfc, (byte) b.length, (byte) (b.length >>> 8)}, b);
  }

  /** COM_STMT_EXECUTE of {@code id} binding string values (types sent). */
  private static byte[] executeStrings(int id, String... values) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x17);
    b.writeBytes(int4(id));
    b.write(0); // flags
    b.writeBytes(int4(1));
    b.writeBytes(new byte[(values.length + 7) / 8]);
    b.write(1); // new params bound
    for (int i = 0; i < values.length; i++) {
      b.write(0xfd); // VAR_STRING
      b.write(0);
    }
    for (String v : values) {
      b.writeBytes(lenencString(v));
    }
    return b.toByteArray();
  }

  private CaptureSession.Pending send(CommandType type, byte[] payload, String sql) {
    return session.begin(type, payload, payload.length, payload.length, sql, System.nanoTime(), false);
  }

  private void prepare(int id, String sql, int params) {
    byte[] p = concat(new byte[] {0x16}, sql.getBytes(StandardCharsets.UTF_8));
    CaptureSession.Pending pending = send(CommandType.STMT_PREPARE, p, sql);
    session.prepared(pending, sql, id, params);
    session.complete(pending, -1, 1000);
  }

  @Test
  void aPipelinedCloseIsWrittenAfterTheExecutionSentBeforeItAndACredentialStatementKeepsNoValues() throws Exception {
    control.start(false);
    prepare(1, "ALTER USER ? IDENTIFIED BY ?", 2);
    CaptureSession.Pending exec = send(CommandType.STMT_EXECUTE, executeStrings(1, "bob", "Hunter2-Secret"), null);
    send(CommandType.STMT_CLOSE, concat(new byte[] {0x19}, int4(1)), null); // before the execute's reply
    session.complete(exec, -1, 2000);
    List<CaptureEvent> events = control.stop().events();
    assertThat(control.text()).doesNotContain("Hunter2").doesNotContain("bob").doesNotContain("IDENTIFIED");
    assertThat(events).extracting(CaptureEvent::kind)
        .containsExactly(CaptureEvent.Kind.CONNECT, CaptureEvent.Kind.PREPARE, CaptureEvent.Kind.EXECUTE, CaptureEvent.Kind.CLOSE);
    assertThat(events.get(2).valuesUnknown()).isTrue();
  }

  @Test
  void anEventBegunInOneCaptureIsNeverWrittenIntoTheNext() throws Exception {
    control.start(false);
    prepare(1, "SET PASSWORD FOR bob = ?", 1);
    prepare(2, "SELECT v FROM t WHERE k = ?", 1);
    CaptureSession.Pending inFlight = send(CommandType.STMT_EXECUTE, executeStrings(2, "in flight"), null);
    List<CaptureEvent> first = control.stop().events();
    assertThat(first).extracting(CaptureEvent::kind).doesNotContain(CaptureEvent.Kind.EXECUTE);
    control.start(false);
    session.complete(inFlight, -1, 2000);
    CaptureSession.Pending next = send(CommandType.STMT_EXECUTE, executeStrings(2, "second"), null);
    session.complete(next, -1, 2000);
    List<CaptureEvent> second = control.stop().events();
    assertThat(control.text()).doesNotContain("in flight").contains("second");
    // Its own connect, the statement it holds (text kept), the execution begun in it.
    assertThat(second).extracting(CaptureEvent::kind)
        .containsExactly(CaptureEvent.Kind.CONNECT, CaptureEvent.Kind.PREPARE, CaptureEvent.Kind.PREPARE, CaptureEvent.Kind.EXECUTE);
    assertThat(second.get(1).sql()).as("the password statement's text is never kept").isNull();
    assertThat(second.get(2).sql()).isEqualTo("SELECT v FROM t WHERE k = ?");
  }

  @Test
  void aCredentialPastTheClassifiersDigestLimitOrInsideAStringIsNotCaptured() throws Exception {
    control.start(false);
    StringBuilder wide = new StringBuilder("SELECT ");
    for (int i = 0; wide.length() < 2600; i++) {
      wide.append("c").append(i).append(", ");
    }
    wide.append("1 FROM t; ALTER USER bob IDENTIFIED BY 'Secret9'");
    String[] sqls = {
      wide.toString(),
      "PREPARE s FROM 'ALTER USER bob IDENTIFIED BY ''Secret19'''",
      "UPDATE mysql.user SET authentication_string = 'x' WHERE user = 'bob'",
      "SELECT AES_DECRYPT(card, 'k3y-Secret') FROM cards",
    };
    for (String sql : sqls) {
      CaptureSession.Pending q = send(CommandType.QUERY, concat(new byte[] {3}, sql.getBytes(StandardCharsets.UTF_8)), sql);
      session.complete(q, -1, 1000);
    }
    List<CaptureEvent> events = control.stop().events();
    assertThat(control.text()).doesNotContain("Secret").doesNotContain("k3y");
    assertThat(events.stream().filter(e -> e.kind() == CaptureEvent.Kind.QUERY))
        .hasSize(4).allSatisfy(e -> {
          assertThat(e.sql()).isNull();
          assertThat(e.valuesUnknown()).isTrue();
        });
  }

  @Test
  void aClientSizedParameterCountIsNeverKeptAndUnreadableTypesAreForgotten() throws Exception {
    prepare(7, "SELECT ?", 1);
    // With query attributes, the count is the client's: 20,000 where the statement has 1.
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x17);
    b.writeBytes(int4(7));
    b.write(0x08); // PARAMETER_COUNT_AVAILABLE
    b.writeBytes(int4(1));
    b.write(0xfc);
    b.write(20_000 & 0xff);
    b.write(20_000 >>> 8);
    b.writeBytes(new byte[(20_000 + 7) / 8]);
    b.write(1);
    for (int i = 0; i < 20_000; i++) {
      b.write(1); // TINY
      b.write(0);
      b.write(0); // empty attribute name
    }
    for (int i = 0; i < 20_000; i++) {
      b.write(i);
    }
    byte[] big = b.toByteArray();
    control.start(false);
    CaptureSession.Pending p = session.begin(CommandType.STMT_EXECUTE, big, big.length, big.length, null, System.nanoTime(), true);
    session.complete(p, -1, 1000);
    // The next execution sends no types: it cannot be read, and is said so, not guessed.
    byte[] noTypes = concat(new byte[] {0x17}, int4(7), new byte[] {0}, int4(1), new byte[] {0, 0}, new byte[] {5});
    CaptureSession.Pending q = send(CommandType.STMT_EXECUTE, noTypes, null);
    session.complete(q, -1, 1000);
    List<CaptureEvent> events = control.stop().events();
    List<CaptureEvent> executes = new ArrayList<>();
    for (CaptureEvent e : events) {
      if (e.kind() == CaptureEvent.Kind.EXECUTE) {
        executes.add(e);
      }
    }
    assertThat(executes).hasSize(2).allSatisfy(e -> assertThat(e.valuesUnknown()).isTrue());
  }

  @Test
  void valuesHeldForRepliesStillToComeAreBoundedInBytes() throws Exception {
    prepare(3, "INSERT INTO t (a, b) VALUES (?, ?)", 2);
    control.start(false);
    String big = "x".repeat(20_000);
    List<CaptureSession.Pending> inFlight = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      inFlight.add(send(CommandType.STMT_EXECUTE, executeStrings(3, big, big), null));
      assertThat(session.pendingBytes()).isLessThanOrEqualTo(CaptureSession.MAX_PENDING_BYTES);
    }
    for (CaptureSession.Pending p : inFlight) {
      session.complete(p, -1, 1000);
    }
    assertThat(session.pendingBytes()).isZero();
    List<CaptureEvent> events = control.stop().events();
    long withValues = events.stream().filter(e -> e.kind() == CaptureEvent.Kind.EXECUTE && !e.values().isEmpty()).count();
    long unknown = events.stream().filter(e -> e.kind() == CaptureEvent.Kind.EXECUTE && e.valuesUnknown()).count();
    assertThat(withValues).isBetween(1L, 20L);
    assertThat(withValues + unknown).isEqualTo(200);
  }

  @Test
  void maskedCapturesDropPreparedTextWithLiteralsAndKeepNumbersThatAreNotValues() throws Exception {
    control.start(true);
    prepare(1, "SELECT name FROM person WHERE id = ? AND ssn = '078-05-1120'", 1);
    prepare(2, "SELECT name FROM person WHERE id = ? LIMIT 10", 1);
    String call = "CALL charge(4111111111111111, 995)";
    CaptureSession.Pending q = send(CommandType.QUERY, concat(new byte[] {3}, call.getBytes(StandardCharsets.UTF_8)), call);
    session.complete(q, -1, 1000);
    List<CaptureEvent> events = control.stop().events();
    assertThat(control.text()).doesNotContain("078-05").doesNotContain("4111111111111111");
    assertThat(events).anySatisfy(e -> assertThat(e.sql()).isEqualTo("SELECT name FROM person WHERE id = ? LIMIT 10"));
  }

  /** Issue 28 point 5: each form that carries a key, one statement each; none may reach the file. */
  private static final String[][] KEY_FORMS = {
    {"SET @k = 'Key-set-eq'", "Key-set-eq"},
    {"SET @k := 'Key-set-assign'", "Key-set-assign"},
    {"SET @a = 1, @k = UNHEX('4b65792d6865782d31')", "4b65792d6865782d31"},
    {"SET @k = X'4b65792d6865782d32'", "4b65792d6865782d32"},
    {"SELECT @k := 'Key-select-assign'", "Key-select-assign"},
    {"SELECT 'Key-into' INTO @k", "Key-into"},
    {"SELECT AES_ENCRYPT(note, 'Key-aes') FROM t WHERE id = 1", "Key-aes"},
    {"SELECT AES_DECRYPT (note, 'Key-aes-space') FROM t", "Key-aes-space"},
    {"SELECT SM4_ENCRYPT(note, 'Key-sm4') FROM t", "Key-sm4"},
    {"SELECT ENCRYPT(note, 'Key-salt') FROM t", "Key-salt"},
    {"BACKUP DATABASE * TO 'azure://c/p?account-name=acct&account-key=Key-azure'", "Key-azure"},
    {"BACKUP DATABASE * TO 's3://b/p?access-key=AKIAKEYS3&secret-access-key=Key-s3'", "AKIAKEYS3"},
    {"BACKUP DATABASE * TO 's3://b/p?access_key=AKIAKEYS3U&region=x'", "AKIAKEYS3U"},
    {"BACKUP DATABASE * TO 'azure://c/p?sv=2021&sig=Key-sas'", "Key-sas"},
    {"RESTORE DATABASE * FROM 'azure://c/p?sas-token=Key-sas-token'", "Key-sas-token"},
    {"LOAD DATA INFILE 'mysql://u@h/?password=Key-url-pw' INTO TABLE t", "Key-url-pw"},
  };

  @Test
  void keysInUserVariablesEncryptionFunctionsAndUrlsNeverReachTheCapture() throws Exception {
    control.start(false);
    for (String[] form : KEY_FORMS) {
      byte[] p = concat(new byte[] {0x03}, form[0].getBytes(StandardCharsets.UTF_8));
      session.complete(send(CommandType.QUERY, p, form[0]), -1, 1000);
    }
    String fine = "SET @tenant = 42";
    session.complete(send(CommandType.QUERY, concat(new byte[] {0x03}, fine.getBytes(StandardCharsets.UTF_8)), fine), -1, 1000);
    List<CaptureEvent> events = control.stop().events();
    for (String[] form : KEY_FORMS) {
      assertThat(control.text()).as(form[0]).doesNotContain(form[1]);
    }
    assertThat(events).filteredOn(e -> e.kind() == CaptureEvent.Kind.QUERY).hasSize(KEY_FORMS.length + 1);
    assertThat(events).anySatisfy(e -> assertThat(e.sql()).isEqualTo(fine));
  }

  @Test
  void aConnectionTellsTheCaptureItsDriverWhenItJoinsOrWhenItIsDescribedLater() throws Exception {
    control.start(false);
    CaptureSession early = new CaptureSession(control);
    early.driver("MySQL Connector/J", "9.5.0"); // named at login (the proxy), joins with its first command
    CaptureSession late = new CaptureSession(control);
    byte[] ping = {0x0e};
    late.complete(late.begin(CommandType.PING, ping, 1, 1, null, System.nanoTime(), false), -1, 0);
    late.driver("MySQL Connector/J", "8.0.33"); // the agent describes a connection after its first commands
    early.complete(early.begin(CommandType.PING, ping, 1, 1, null, System.nanoTime(), false), -1, 0);
    new CaptureSession(control).driver("never joined", "1.0"); // no command in the capture: not named
    CaptureFormat.Capture c = control.stop();
    assertThat(c.header().driverName()).isEqualTo("MySQL Connector/J");
    assertThat(c.header().driverVersion()).isEqualTo("8.0.33");
    assertThat(c.drivers()).isEqualTo(2);
  }
}
