package io.wireadvisor.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.agent.it.app.TinyApp;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent turned on the way containers do it: nothing on the application's command line, the
 * agent in {@code JAVA_TOOL_OPTIONS}, its options as {@code -Dwireadvisor.*} there and as
 * {@code WIRE_ADVISOR_*} variables; one start-up line says what it runs with.
 */
@RealDatabase
class EnvironmentConfigIT {
  @Test
  void javaToolOptionsAndEnvironmentAloneConfigureTheAgent(DatabaseServer server, @TempDir Path dir)
      throws Exception {
    Path profile = dir.resolve("from-env.json");
    List<String> cmd = AgentFork.command(AgentFork.defaultJava(), null, List.of(),
        List.of(AgentFork.testClasses(), AgentFork.driverJar(AgentFork.newestDriver())),
        TinyApp.class.getName(),
        List.of(server.jdbcUrl(server.createDatabase("envcfg"), "useServerPrepStmts=true"), server.user(),
            server.password().isEmpty() ? "-" : server.password()));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("JAVA_TOOL_OPTIONS",
        "-javaagent:" + AgentFork.agentJar().toAbsolutePath() + " -Dwireadvisor.interval=0");
    pb.environment().put("WIRE_ADVISOR_PROFILE", profile.toString());
    pb.environment().put("WIRE_ADVISOR_QUIET", "true");
    pb.environment().put("WIRE_ADVISOR_PROMETHEUS", "127.0.0.1:0");
    Path err = dir.resolve("stderr.txt");
    pb.redirectError(err.toFile()).redirectOutput(dir.resolve("stdout.txt").toFile());
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(stderr).isZero();
    assertThat(Files.readString(dir.resolve("stdout.txt"))).contains("tiny app done");
    assertThat(stderr).doesNotContain("wire-advisor: agent").as("quiet=true from the environment silences it");
    TrafficProfile written = ProfileJson.readFile(profile);
    assertThat(written.count(CommandType.STMT_EXECUTE)).isEqualTo(10);

    // Not quiet: the one start-up line names the configuration, where it came from and the port.
    pb.environment().put("WIRE_ADVISOR_QUIET", "false");
    Files.delete(profile);
    p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    stderr = Files.readString(err, StandardCharsets.UTF_8);
    String line = stderr.lines().filter(l -> l.startsWith("wire-advisor: agent ")).findFirst().orElse("");
    assertThat(line).contains("profile=" + profile, "every shutdown only", "interval:-Dwireadvisor.interval",
        "profile:WIRE_ADVISOR_PROFILE", "metrics http://127.0.0.1:").doesNotContain("127.0.0.1:0/");
    assertThat(Files.exists(profile)).isTrue();
  }
}
