package io.wireadvisor.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The commands that change how later commands are read or run (issue 26): COM_SET_OPTION,
 * COM_INIT_DB, COM_RESET_CONNECTION, COM_CHANGE_USER are captured in sending order, and nothing of
 * a COM_CHANGE_USER but the fact of it.
 */
class CaptureSessionCommandsTest {
  private final MemoryCapture control = new MemoryCapture();
  private final CaptureSession session = new CaptureSession(control);

  private void send(CommandType type, byte[] packet, String sql, int error) {
    CaptureSession.Pending p = session.begin(type, packet, packet.length, packet.length, sql, System.nanoTime(), false);
    session.complete(p, error, 1_000);
  }

  private static byte[] packet(int command, byte[] body) {
    byte[] b = new byte[1 + body.length];
    b[0] = (byte) command;
    System.arraycopy(body, 0, b, 1, body.length);
    return b;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void setOptionAroundAMultiStatementBatchInitDbResetAndChangeUserAreCapturedInOrder() throws Exception {
    session.schema("bank");
    control.start(MemoryCapture.header().upstream("db.example:4000").driver(null, "8.0.33").build());
    String batch = "UPDATE acct SET bal = bal + 1 WHERE id = 1;UPDATE acct SET bal = bal + 1 WHERE id = 2";
    send(CommandType.SET_OPTION, packet(0x1b, new byte[] {0, 0}), null, -1);
    send(CommandType.QUERY, packet(0x03, utf8(batch)), batch, -1);
    send(CommandType.SET_OPTION, packet(0x1b, new byte[] {1, 0}), null, -1);
    send(CommandType.INIT_DB, packet(0x02, utf8("audit")), null, -1);
    send(CommandType.INIT_DB, packet(0x02, utf8("nosuchdb")), null, 1049);
    send(CommandType.RESET_CONNECTION, packet(0x1f, new byte[0]), null, -1);
    // COM_CHANGE_USER: user, a length-prefixed auth response, database, charset, plugin.
    byte[] auth = utf8("s3cretScramble!!");
    byte[] changeUser = concat(packet(0x11, utf8("alice")), new byte[] {0, (byte) auth.length}, auth,
        utf8("hiddendb"), new byte[] {0, 33, 0}, utf8("mysql_native_password"), new byte[] {0});
    send(CommandType.CHANGE_USER, changeUser, null, -1);
    String text = control.text();
    CaptureFormat.Capture capture = control.stop();

    assertThat(capture.header().upstream()).isEqualTo("db.example:4000");
    assertThat(capture.header().driverVersion()).isEqualTo("8.0.33");
    List<CaptureEvent> events = capture.events();
    assertThat(events).extracting(CaptureEvent::kind).containsExactly(CaptureEvent.Kind.CONNECT,
        CaptureEvent.Kind.SET_OPTION, CaptureEvent.Kind.QUERY, CaptureEvent.Kind.SET_OPTION,
        CaptureEvent.Kind.INIT_DB, CaptureEvent.Kind.INIT_DB, CaptureEvent.Kind.RESET_CONNECTION,
        CaptureEvent.Kind.CHANGE_USER);
    assertThat(events.get(0).sql()).as("the login's schema").isEqualTo("bank");
    assertThat(events.get(1).sql()).isEqualTo(CaptureEvent.MULTI_STATEMENTS_ON);
    assertThat(events.get(2).sql()).contains(";UPDATE acct");
    assertThat(events.get(3).sql()).isEqualTo(CaptureEvent.MULTI_STATEMENTS_OFF);
    assertThat(events.get(4).sql()).isEqualTo("audit");
    assertThat(events.get(5).errorCode()).isEqualTo(1049);
    assertThat(events.get(7).sql()).isNull();
    assertThat(events.get(7).values()).isEmpty();
    // Nothing of the COM_CHANGE_USER reaches the file: no user, no auth response, no schema.
    assertThat(text).doesNotContain("alice").doesNotContain("s3cret").doesNotContain("hiddendb")
        .doesNotContain("native_password");

    // The next capture's connect names the schema the successful COM_INIT_DB chose, not the failed one.
    control.start(MemoryCapture.header().upstream("db.example:4000").driver(null, "8.0.33").build());
    send(CommandType.PING, packet(0x0e, new byte[0]), null, -1);
    assertThat(control.stop().events().get(0).sql()).isEqualTo("audit");
  }

  @Test
  void aSchemaNameIsKeptWithinItsBound() throws Exception {
    StringBuilder longName = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      longName.append('s');
    }
    session.schema(longName.toString());
    control.start(MemoryCapture.header().upstream("db.example:4000").driver(null, "8.0.33").build());
    send(CommandType.INIT_DB, packet(0x02, utf8(longName.toString())), null, -1);
    List<CaptureEvent> events = control.stop().events();
    assertThat(events.get(0).sql()).hasSize(CaptureSession.MAX_SCHEMA_CHARS);
    assertThat(events.get(1).sql()).hasSize(CaptureSession.MAX_SCHEMA_CHARS);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.write(p, 0, p.length);
    }
    return b.toByteArray();
  }
}
