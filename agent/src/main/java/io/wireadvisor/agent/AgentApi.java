package io.wireadvisor.agent;

import io.wireadvisor.profile.ProfileJson;

/**
 * The in-process API for applications and tests, called by reflection through the system class
 * loader; only {@code boolean} and {@code String} cross the boundary, so the caller needs none of
 * the agent's (relocated) classes:
 *
 * <pre>{@code
 * Class<?> api = Class.forName("io.wireadvisor.agent.AgentApi", true, ClassLoader.getSystemClassLoader());
 * boolean active = (Boolean) api.getMethod("isActive").invoke(null);
 * String json = (String) api.getMethod("profileJson").invoke(null);
 * api.getMethod("reset").invoke(null);
 * }</pre>
 */
public final class AgentApi {
  private AgentApi() {}

  /** True when the driver's hooks are installed and matched the driver version. */
  public static boolean isActive() {
    return Hooks.isActive();
  }

  /** The traffic profile of the current window as JSON (schema: docs/profile.md). */
  public static String profileJson() {
    return ProfileJson.toJson(CpuWindow.annotate(Hooks.snapshot()));
  }

  /**
   * Starts a fresh window: counts, shapes, probes and connections-so-far begin again. Call while
   * the application is idle; open connections and their prepared statements stay known.
   */
  public static void reset() {
    Hooks.reset();
    CpuWindow.reset();
  }

  /**
   * Starts capturing the traffic into {@code path} (a new file, 0600; docs/replay.md) until {@link
   * #stopCapture}, {@code maxBytes} or {@code maxSeconds}. The header carries the JDBC properties of
   * a connection the agent has seen. Statements prepared before the first capture of this JVM are
   * captured by id only (their executions are not replayable), unless {@code capture=} was given
   * at start-up.
   *
   * @return null when started, else why not (one is running, the file exists, ...)
   */
  public static String startCapture(String path, long maxBytes, long maxSeconds, boolean maskValues) {
    try {
      AgentCapture.get().start(java.nio.file.Paths.get(path), maxBytes, maxSeconds, maskValues,
          Hooks.serverVersionSeen(), Hooks.propertiesSeen());
      return null;
    } catch (Exception e) {
      return e.getMessage() == null ? e.toString() : e.getMessage();
    }
  }

  /** Stops the capture under way; returns what it wrote, or null when none was running. */
  public static String stopCapture() {
    io.wireadvisor.capture.CaptureSlot.Summary s = AgentCapture.get().stop();
    return s == null ? null : s.toString();
  }
}
