package io.wireadvisor.agent.it.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * An application's own Byte Buddy and Micrometer, in versions other than the agent's: used while
 * the agent is loaded, they must be the application's and work.
 */
final class OwnLibraries {
  private OwnLibraries() {}

  /** Uses both libraries; returns "byteBuddyVersion micrometerVersion". */
  static String exercise() throws Exception {
    Class<?> type =
        new ByteBuddy()
            .subclass(Object.class)
            .method(ElementMatchers.named("toString"))
            .intercept(FixedValue.value("made by the app's Byte Buddy"))
            .make()
            .load(OwnLibraries.class.getClassLoader())
            .getLoaded();
    String made = type.getConstructor().newInstance().toString();
    if (!made.equals("made by the app's Byte Buddy")) {
      throw new IllegalStateException(made);
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Counter c = registry.counter("app.counter");
    c.increment(3);
    if (c.count() != 3.0) {
      throw new IllegalStateException("counter " + c.count());
    }
    return version(ByteBuddy.class) + " " + version(SimpleMeterRegistry.class);
  }

  private static String version(Class<?> c) {
    String jar = c.getProtectionDomain().getCodeSource().getLocation().getPath();
    return jar.substring(jar.lastIndexOf('/') + 1);
  }
}
