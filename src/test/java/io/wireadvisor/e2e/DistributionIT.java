package io.wireadvisor.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution as a user gets it ({@code mvn package} → {@code dist/target/wire-advisor-VERSION/}):
 * its launchers from another directory, the CLI reaching a server through the driver beside it,
 * and an application turned on with the agent from {@code JAVA_TOOL_OPTIONS} and
 * {@code WIRE_ADVISOR_*} alone, its profile analyzed by the CLI.
 */
@RealDatabase
class DistributionIT {
  private static Path dist() {
    Path d = Paths.get(System.getProperty("e2e.distDir", "dist/target/missing"));
    assertThat(d.resolve("bin/wire-advisor")).as("the distribution is built by mvn package").exists();
    return d;
  }

  private record Run(int code, String out) {}

  private static Run run(Path cwd, Map<String, String> env, String... cmd) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().putAll(env);
    Path out = Files.createTempFile("dist-run", ".txt");
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(180, TimeUnit.SECONDS)).as(String.join(" ", cmd)).isTrue();
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  @Test
  void theJunitArtifactShipsWithWhatItNeedsToInstall() throws Exception {
    // docs/wire-budgets.md: bin/wire-advisor-install-junit installs maven/ into a user's repository.
    Path d = dist();
    Path maven = d.toRealPath().resolve("maven"); // as the script names it, .. resolved
    String v = System.getProperty("e2e.version", "0.1.0-SNAPSHOT");
    assertThat(Files.list(maven).map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
        "wire-advisor-parent-" + v + ".pom",
        "wire-advisor-core-" + v + ".jar", "wire-advisor-core-" + v + ".pom",
        "wire-advisor-advisor-" + v + ".jar", "wire-advisor-advisor-" + v + ".pom",
        "wire-advisor-junit-" + v + ".jar", "wire-advisor-junit-" + v + ".pom");
    assertThat(maven.resolve("wire-advisor-junit-" + v + ".pom")).content()
        .contains("<artifactId>wire-advisor-junit</artifactId>", "<artifactId>wire-advisor-advisor</artifactId>");
    try (java.util.jar.JarFile jar = new java.util.jar.JarFile(maven.resolve("wire-advisor-junit-" + v + ".jar").toFile())) {
      assertThat(jar.getEntry("io/wireadvisor/junit/WireBudget.class")).isNotNull();
      assertThat(new String(jar.getInputStream(jar.getEntry("META-INF/spring.factories")).readAllBytes(),
          StandardCharsets.UTF_8)).contains("io.wireadvisor.junit.WireBudgetSpringListener");
    }
    Path install = d.resolve("bin/wire-advisor-install-junit");
    assertThat(Files.isExecutable(install)).isTrue();
    // The script's calls, through a stand-in for mvn that writes down its arguments (the real
    // install was run by hand: junit/src/it/check-user-build).
    Path calls = Files.createTempFile("mvn-calls", ".txt");
    Path fakeMvn = Files.createTempFile("fake-mvn", ".sh");
    Files.writeString(fakeMvn, "#!/bin/sh\necho \"$*\" >> " + calls + "\n");
    fakeMvn.toFile().setExecutable(true);
    Run r = run(Paths.get(System.getProperty("java.io.tmpdir")), Map.of("MVN", fakeMvn.toString()),
        install.toString(), "-Dmaven.repo.local=/somewhere");
    assertThat(r.code()).as(r.out()).isZero();
    List<String> lines = Files.readAllLines(calls);
    assertThat(lines).hasSize(4).allMatch(l -> l.contains(":install-file") && l.endsWith("-Dmaven.repo.local=/somewhere"));
    for (String a : new String[] {"core", "advisor", "junit"}) {
      assertThat(lines).anyMatch(l -> l.contains("-Dfile=" + maven.resolve("wire-advisor-" + a + "-" + v + ".jar"))
          && l.contains("-DpomFile=" + maven.resolve("wire-advisor-" + a + "-" + v + ".pom")));
    }
    assertThat(lines).anyMatch(l -> l.contains("-DpomFile=" + maven.resolve("wire-advisor-parent-" + v + ".pom"))
        && l.contains("-Dpackaging=pom"));
  }

  @Test
  void launchersWorkFromAnyDirectoryAndTheAgentTurnsOnFromTheEnvironment(DatabaseServer server,
      @TempDir Path dir) throws Exception {
    Path d = dist();
    String cli = d.resolve("bin/wire-advisor").toString();
    assertThat(run(dir, Map.of(), cli, "--version").out()).contains("wire-advisor");
    Run proxyHelp = run(dir, Map.of(), d.resolve("bin/wire-advisor-proxy").toString(), "--help");
    assertThat(proxyHelp.code()).isZero();
    assertThat(proxyHelp.out()).contains("--upstream");
    assertThat(run(dir, Map.of(), d.resolve("bin/wire-advisor-agent").toString(), "--help").out())
        .contains("WIRE_ADVISOR_<OPTION>");
    assertThat(Files.list(d.resolve("lib")).map(p -> p.getFileName().toString()))
        .anyMatch(n -> n.startsWith("mysql-connector-j-"))
        .contains("wire-advisor-agent.jar", "wire-advisor-proxy.jar", "wire-advisor-cli.jar");
    assertThat(d.resolve("NOTICE.md")).content().contains("Universal FOSS Exception");
    assertThat(Files.isExecutable(d.resolve("bin/wire-advisor"))).isTrue();

    // The CLI reaches the server through the driver in lib/ (no "No suitable driver found").
    String db = server.createDatabase("dist");
    Path pw = dir.resolve("pw");
    Files.writeString(pw, server.password());
    Path view = dir.resolve("view.json");
    Run inspect = run(dir, Map.of(), cli, "inspect", "--jdbc-url", server.jdbcUrl(db, null), "--user", server.user(),
        "--password-file", pw.toString(), "-o", view.toString());
    assertThat(inspect.code()).as(inspect.out()).isZero();
    assertThat(view).content().contains("wire-advisor/server-view");

    // An application under the agent, configured only by the environment.
    Path profile = dir.resolve("app-profile.json");
    String appClasses = Paths.get(DriverModesApp.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    List<String> app = new ArrayList<>(Arrays.asList(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", appClasses + File.pathSeparator + ForkedJvm.jar(ForkedJvm.DRIVER_JAR), DriverModesApp.class.getName(),
        "jdbc:mysql://" + server.host() + ":" + server.port() + "/" + db, server.user(),
        server.password().isEmpty() ? "-" : server.password(), dir.resolve("done").toString()));
    Run appRun = run(dir, Map.of(
        "JAVA_TOOL_OPTIONS", "-javaagent:" + d.resolve("lib/wire-advisor-agent.jar"),
        "WIRE_ADVISOR_PROFILE", profile.toString(),
        "WIRE_ADVISOR_INTERVAL", "0"), app.toArray(new String[0]));
    assertThat(appRun.code()).as(appRun.out()).isZero();
    assertThat(appRun.out()).contains("wire-advisor: agent ", "profile:WIRE_ADVISOR_PROFILE");
    TrafficProfile p = ProfileJson.readFile(profile);
    assertThat(p.count(CommandType.STMT_EXECUTE)).isPositive();

    Run analyze = run(dir, Map.of(), cli, "analyze", "--format", "html", "-o", dir.resolve("r/report.html").toString(),
        profile.toString());
    assertThat(analyze.code()).as(analyze.out()).isIn(0, 1);
    assertThat(dir.resolve("r/report.html")).content().contains("id=\"summary\"");
  }
}
