package io.wireadvisor.capture;

import io.wireadvisor.profile.WireSession;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A capture control for tests, as a collector's: one run at a time, written to memory (16 MiB,
 * 600 s), 1 MiB of statement texts per connection and 64 MiB in all, read back by the strict
 * reader when stopped.
 */
final class MemoryCapture implements CaptureControl {
  private final WireSession.Budget budget = new WireSession.Budget();
  private CaptureRun run;
  private ByteArrayOutputStream out;

  /** The header the tests write unless they need another: a proxy's, in front of TiDB. */
  static CaptureHeader.Builder header() {
    return CaptureHeader.builder("proxy", "test").server("8.0.11-TiDB");
  }

  /** Starts a run with {@link #header()}, values masked or not. */
  CaptureRun start(boolean masked) throws IOException {
    return start(header().valuesMasked(masked).build());
  }

  CaptureRun start(CaptureHeader header) throws IOException {
    out = new ByteArrayOutputStream();
    run = new CaptureRun(CaptureWriter.open(out, header, 1 << 24, 600), null, header.valuesMasked());
    return run;
  }

  /** Ends the run (its last line written) and reads the file back. */
  CaptureFormat.Capture stop() throws IOException {
    run.writer().close();
    run = null;
    return CaptureFormat.read(
        new ByteArrayInputStream(out.toByteArray()), "mem", CaptureFormat.Limits.defaults());
  }

  /** The file's text as written so far. */
  String text() {
    return out.toString(StandardCharsets.UTF_8);
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
