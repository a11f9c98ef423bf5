package io.wireadvisor.capture;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/** One capture under way: its file, its clock and its connection numbers. Thread-safe. */
public final class CaptureRun {
  private final CaptureWriter writer;
  private final Path file;
  private final long startNanos = System.nanoTime();
  private final boolean masked;
  final AtomicLong connections = new AtomicLong();
  private final AtomicLong writeFailures = new AtomicLong();

  public CaptureRun(CaptureWriter writer, Path file, boolean masked) {
    this.writer = writer;
    this.file = file;
    this.masked = masked;
  }

  /** Microseconds since this capture started, at {@code nanos} ({@link System#nanoTime()}). */
  public long micros(long nanos) {
    return Math.max(0, (nanos - startNanos) / 1_000);
  }

  /** Writes {@code event}; a failing disk ends the capture, never the caller's command. */
  public void write(CaptureEvent event) {
    try {
      writer.write(event);
    } catch (IOException e) {
      writeFailures.incrementAndGet();
      try {
        writer.close();
      } catch (IOException ignored) {
        // already failing
      }
    }
  }

  /** True once a limit or a write failure ended it. */
  public boolean over() {
    return writer.ended() || writeFailures.get() > 0;
  }

  public boolean writeFailed() {
    return writeFailures.get() > 0;
  }

  public CaptureWriter writer() {
    return writer;
  }

  public Path file() {
    return file;
  }

  public boolean masked() {
    return masked;
  }

  /** Connections that took part so far. */
  public long connections() {
    return connections.get();
  }
}
