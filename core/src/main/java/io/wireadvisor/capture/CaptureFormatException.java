package io.wireadvisor.capture;

import java.io.IOException;

/** A capture file that is not one, or breaks a limit: the message names the line and the field. */
public final class CaptureFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public CaptureFormatException(String message) {
    super(message);
  }
}
