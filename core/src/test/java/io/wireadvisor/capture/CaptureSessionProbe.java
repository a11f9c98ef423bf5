package io.wireadvisor.capture;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.sql.Escaping;
import java.nio.charset.StandardCharsets;

/** For tests elsewhere: what a capture's file holds after one COM_QUERY of {@code sql}. */
public final class CaptureSessionProbe {
  private CaptureSessionProbe() {}

  /** The whole capture file (header, events, last line) after {@code sql} ran once in {@code mode}. */
  public static String captured(String sql, Escaping mode) {
    try {
      MemoryCapture control = new MemoryCapture();
      control.start(false);
      CaptureSession s = new CaptureSession(control);
      byte[] sqlBytes = sql.getBytes(StandardCharsets.UTF_8);
      byte[] payload = new byte[sqlBytes.length + 1];
      payload[0] = 0x03;
      System.arraycopy(sqlBytes, 0, payload, 1, sqlBytes.length);
      s.complete(s.begin(CommandType.QUERY, payload, payload.length, payload.length, sql,
          System.nanoTime(), false, mode), -1, 1000);
      control.stop();
      return control.text();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
