package io.wireadvisor.junit;

import java.lang.reflect.Method;

/**
 * The agent's in-process API ({@code io.wireadvisor.agent.AgentApi}), reached by reflection through
 * the system class loader: only booleans and strings cross, so no class of the agent's is needed
 * here.
 */
final class AgentBridge {
  private static final String API = "io.wireadvisor.agent.AgentApi";

  private AgentBridge() {}

  /** The API class, or null when no agent is in this JVM. */
  static Class<?> api() {
    try {
      return Class.forName(API, true, ClassLoader.getSystemClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  static boolean present() {
    return api() != null;
  }

  static boolean active() {
    return (Boolean) call("isActive");
  }

  static String profileJson() {
    return (String) call("profileJson");
  }

  static void reset() {
    call("reset");
  }

  private static Object call(String name) {
    Class<?> api = api();
    if (api == null) {
      throw new IllegalStateException(WireBudgetExtension.NO_AGENT);
    }
    try {
      Method m = api.getMethod(name);
      return m.invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the wire-advisor agent's API failed: " + e, e);
    }
  }
}
