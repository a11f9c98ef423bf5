package io.wireadvisor.agent;

import java.lang.management.ManagementFactory;

/**
 * Who is collecting, as a profile's {@link io.wireadvisor.profile.Source}, a capture's header and
 * the metrics' tags name it: this wire-advisor's version and the JVM's {@code host:pid}. Both are
 * constants of the JVM; the {@code host:pid} is read on first use only (as before this class, so
 * an agent without metrics does not touch the management beans in {@code premain}).
 */
final class AgentIdentity {
  private static final String VERSION = readVersion();

  private AgentIdentity() {}

  /** This wire-advisor's version (from the jar manifest), or null when run from classes. */
  static String version() {
    return VERSION;
  }

  /** {@code host:pid} of this JVM. */
  static String instance() {
    return Instance.VALUE;
  }

  /** {@code host:pid} from a runtime name {@code pid@host}; the name itself if it is not so. */
  static String instance(String runtimeName) {
    int at = runtimeName.indexOf('@');
    return at < 0 ? runtimeName : runtimeName.substring(at + 1) + ":" + runtimeName.substring(0, at);
  }

  private static String readVersion() {
    Package p = AgentIdentity.class.getPackage();
    return p == null ? null : p.getImplementationVersion();
  }

  /** Initialised by the JVM on the first {@link #instance()}, once, without a lock of ours. */
  private static final class Instance {
    static final String VALUE = instance(ManagementFactory.getRuntimeMXBean().getName());
  }
}
