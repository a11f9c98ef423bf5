package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The jar other modules rely on: one file, everything relocated, the agent manifest, --help. */
class ShadedJarIT {
  @Test
  void everyClassIsTheAgentsOwnOrRelocatedUnderItsPackage() throws Exception {
    List<String> foreign = new ArrayList<>();
    int relocated = 0;
    try (JarFile jar = new JarFile(AgentFork.agentJar().toFile())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (name.endsWith(".class")) {
          if (name.startsWith("io/wireadvisor/agent/shaded/")) {
            relocated++;
          } else if (!name.startsWith("io/wireadvisor/agent/")) {
            foreign.add(name);
          }
        }
      }
      assertThat(foreign).as("classes outside io.wireadvisor.agent").isEmpty();
      assertThat(relocated).isGreaterThan(1000);
      assertThat(jar.getEntry("io/wireadvisor/agent/shaded/net/bytebuddy/ByteBuddy.class")).isNotNull();
      assertThat(jar.getEntry("io/wireadvisor/agent/shaded/io/wireadvisor/profile/ProfileRecorder.class")).isNotNull();
      assertThat(jar.getEntry("io/wireadvisor/agent/AgentApi.class")).isNotNull();
      assertThat(jar.getEntry("com/mysql/cj/protocol/a/NativeProtocol.class")).as("driver not bundled").isNull();

      Attributes main = jar.getManifest().getMainAttributes();
      assertThat(main.getValue("Premain-Class")).isEqualTo("io.wireadvisor.agent.AgentMain");
      assertThat(main.getValue("Agent-Class")).isEqualTo("io.wireadvisor.agent.AgentMain");
      assertThat(main.getValue("Main-Class")).isEqualTo("io.wireadvisor.agent.AgentMain");
      assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
    }
  }

  @Test
  void helpPrintsUsageAndEveryOption() throws Exception {
    Process p =
        new ProcessBuilder(AgentFork.defaultJava(), "-jar", AgentFork.agentJar().toString(), "--help")
            .redirectErrorStream(true)
            .start();
    String out = read(p.getInputStream());
    assertThat(p.waitFor()).isZero();
    assertThat(out)
        .contains("-javaagent:wire-advisor-agent.jar")
        .contains("attach <pid>")
        .contains("profile=<path>")
        .contains("prometheus=<host:port>")
        .contains("quiet=<bool>");
  }

  @Test
  void attachWithoutPidIsAUsageError() throws Exception {
    Process p =
        new ProcessBuilder(AgentFork.defaultJava(), "-jar", AgentFork.agentJar().toString(), "attach")
            .redirectErrorStream(true)
            .start();
    String out = read(p.getInputStream());
    assertThat(p.waitFor()).isEqualTo(2);
    assertThat(out).contains("usage: java -jar wire-advisor-agent.jar attach <pid> [options]");
  }

  private static String read(InputStream in) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    in.transferTo(b);
    return b.toString(StandardCharsets.UTF_8);
  }
}
