package io.wireadvisor.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import io.wireadvisor.testkit.ServerGlobals;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The last integration test of the build (this module is last in the reactor, and its ITs run in
 * alphabetical order): a server the build was given ({@code WIRE_ADVISOR_JDBC_URL}) is still up and
 * has every global variable it had when the build first met it. Embedded servers are per JVM and
 * need no such check.
 */
@RealDatabase
class ServerLeftAsFoundIT {
  @Test
  void everyGlobalVariableIsAsTheBuildFoundIt(DatabaseServer server) {
    Optional<Map<String, String>> before = ServerGlobals.recorded(server);
    Assumptions.assumeTrue(before.isPresent(),
        () -> "no record of " + server + "'s globals in this build (" + ServerGlobals.ledger().orElse(null)
            + "): the server is not one the build was given, or the build did not start at testkit");
    Map<String, String> now = ServerGlobals.read(server);
    Map<String, String> changed = new TreeMap<>();
    for (String name : union(before.get().keySet(), now.keySet())) {
      String was = before.get().get(name);
      String is = now.get(name);
      if (!Objects.equals(was, is)) {
        changed.put(name, was + " -> " + is);
      }
    }
    assertThat(changed).as("global variables of %s changed by the build (before the first test -> after the last)", server)
        .isEmpty();
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }
}
