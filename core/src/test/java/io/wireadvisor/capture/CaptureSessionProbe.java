package io.wireadvisor.capture;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.sql.Escaping;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** For tests elsewhere: what a capture's file holds after one COM_QUERY of {@code sql}. */
public final class CaptureSessionProbe implements CaptureControl {
  private final WireSession.Budget budget = new WireSession.Budget();
  private CaptureRun run;

  private CaptureSessionProbe() {}

  /** The whole capture file (header, events, last line) after {@code sql} ran once in {@code mode}. */
  public static String captured(String sql, Escaping mode) {
    try {
      CaptureSessionProbe control = new CaptureSessionProbe();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      CaptureWriter w = CaptureWriter.open(
          out, CaptureHeader.builder("proxy", "test").server("8.0.11-TiDB").build(), 1 << 24, 600);
      control.run = new CaptureRun(w, null, false);
      CaptureSession s = new CaptureSession(control);
      byte[] sqlBytes = sql.getBytes(StandardCharsets.UTF_8);
      byte[] payload = new byte[sqlBytes.length + 1];
      payload[0] = 0x03;
      System.arraycopy(sqlBytes, 0, payload, 1, sqlBytes.length);
      s.complete(s.begin(CommandType.QUERY, payload, payload.length, payload.length, sql,
          System.nanoTime(), false, mode), -1, 1000);
      w.close();
      return out.toString(StandardCharsets.UTF_8);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public CaptureRun active() {
    return run;
  }

  @Override
  public WireSession.Budget textBudget() {
    return budget;
  }

  @Override
  public long textBytesPerConnection() {
    return 1 << 20;
  }

  @Override
  public long textBytesTotal() {
    return 64 << 20;
  }
}
