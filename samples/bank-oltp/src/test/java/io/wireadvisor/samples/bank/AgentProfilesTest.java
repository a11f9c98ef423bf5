package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the agent jar comes from (attaching is covered by ProveIT and BankOltpIT). */
class AgentProfilesTest {
  @AfterEach
  void clearProperty() {
    System.clearProperty(AgentProfiles.JAR_PROPERTY);
  }

  @Test
  void anExplicitJarWinsAndAMissingOneIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
    Path jar = Files.createFile(dir.resolve("agent.jar"));
    System.setProperty(AgentProfiles.JAR_PROPERTY, dir.resolve("other.jar").toString());
    assertThat(AgentProfiles.locate(jar)).isEqualTo(jar);
    assertThatThrownBy(() -> AgentProfiles.locate(dir.resolve("missing.jar")))
        .isInstanceOf(AgentProfiles.AgentUnavailableException.class)
        .hasMessage("--agent-jar " + dir.resolve("missing.jar") + ": no such file");
  }

  @Test
  void theSystemPropertyComesNext(@TempDir Path dir) throws Exception {
    Path jar = Files.createFile(dir.resolve("from-property.jar"));
    System.setProperty(AgentProfiles.JAR_PROPERTY, jar.toString());
    assertThat(AgentProfiles.locate(null)).isEqualTo(jar);
  }
}
