package io.wireadvisor.advisor;

/** How much a recommendation is expected to matter. */
public enum Severity {
  /** Large share of round trips or server work wasted. */
  HIGH,
  /** Noticeable, worth doing. */
  MEDIUM,
  /** Small, or a safety net. */
  LOW
}
