package io.wireadvisor.agent;

import io.wireadvisor.agent.internal.ConnState;
import java.lang.reflect.Method;

/**
 * Describes a connection that was opened before the agent was attached, so its constructor's
 * advice never ran: the same facts read reflectively from its {@code NativeProtocol} (no URL is
 * reachable from there). Read locally; nothing is sent. Cold path: once per such connection.
 */
final class LateDescriber {
  private static final java.util.concurrent.atomic.AtomicBoolean WARNED =
      new java.util.concurrent.atomic.AtomicBoolean();

  private LateDescriber() {}

  /** Records the connection's configuration; true when done (or impossible: never retried). */
  static boolean describe(Object protocol, ConnState conn) {
    try {
      ClassLoader loader = protocol.getClass().getClassLoader();
      Class<?> serverSessionType = Class.forName("com.mysql.cj.protocol.ServerSession", false, loader);
      Class<?> propertySetType = Class.forName("com.mysql.cj.conf.PropertySet", false, loader);
      Class<?> propertyType = Class.forName("com.mysql.cj.conf.RuntimeProperty", false, loader);
      Class<?> protocolType = Class.forName("com.mysql.cj.protocol.Protocol", false, loader);
      Object ss = protocolType.getMethod("getServerSession").invoke(protocol);
      Method var = serverSessionType.getMethod("getServerVariable", String.class);
      // Connector/J does not load @@version; the handshake's version is the same text.
      String version = (String) var.invoke(ss, "version");
      if (version == null) {
        Object v = serverSessionType.getMethod("getServerVersion").invoke(ss);
        version = v == null ? null : v.toString();
      }
      String isolation = (String) var.invoke(ss, "transaction_isolation");
      if (isolation == null) {
        isolation = (String) var.invoke(ss, "tx_isolation");
      }
      Object ps = protocolType.getMethod("getPropertySet").invoke(protocol);
      Method getProperty = propertySetType.getMethod("getProperty", String.class);
      Method stringValue = propertyType.getMethod("getStringValue");
      String[] values = new String[Hooks.PROPERTY_NAMES.length];
      for (int i = 0; i < values.length; i++) {
        try {
          Object p = getProperty.invoke(ps, Hooks.PROPERTY_NAMES[i]);
          values[i] = p == null ? null : (String) stringValue.invoke(p);
        } catch (Throwable unknownInThisVersion) {
          values[i] = null;
        }
      }
      Hooks.connected(conn, Hooks.driverVersion(loader), version, isolation, null, values);
      return true;
    } catch (Throwable e) {
      // Cannot describe it: record the traffic without a description rather than retry forever.
      if (WARNED.compareAndSet(false, true)) {
        AgentLog.warn("could not read the configuration of a connection opened before attach: " + e);
      }
      return true;
    }
  }
}
