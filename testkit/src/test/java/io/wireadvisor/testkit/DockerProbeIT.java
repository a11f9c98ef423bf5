package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The probe against the machine's real Docker engine; skipped, saying so, where none answers. */
class DockerProbeIT {
  private static DockerEngine engine() {
    Optional<DockerEngine> engine =
        DockerEngine.locate(System.getenv("DOCKER_HOST"), "1".equals(System.getenv("DOCKER_TLS_VERIFY")));
    assumeTrue(engine.isPresent(), "no Docker engine socket on this machine");
    try {
      DockerProbe.engineVersion(engine.get());
    } catch (IllegalStateException e) {
      assumeTrue(false, e.getMessage());
    }
    return engine.get();
  }

  @Test
  void theEngineSaysItsVersions() throws Exception {
    String[] version = engine().version();
    assertThat(version[0]).matches("\\d+\\.\\d+.*");
    assertThat(version[1]).matches("1\\.\\d+");
  }

  @Test
  void aTiDbImageThatCannotBeHadIsNamedWithHowToBuildOne() {
    String reason = DockerProbe.tidbImageReason(engine(), "wire-advisor/no-such-tidb:never");
    assertThat(reason)
        .contains("TiDB image wire-advisor/no-such-tidb:never is not on the engine and cannot be pulled")
        .contains("bin/local-tidb image")
        .contains("-Dwireadvisor.tidb.image=");
  }

  @Test
  void theImageUnderTestIsUsableWhenTheHarnessChoseTestcontainers() {
    DockerEngine engine = engine();
    DatabaseServer server = ServerLocator.shared();
    assumeTrue(server.source().equals("testcontainers"), "the harness chose " + server.source());
    assertThat(DockerProbe.tidbImageReason(engine, TestVersions.TIDB_IMAGE)).isNull();
    assertThat(server.kind()).isEqualTo(ServerKind.TIDB);
    assertThat(server.statusUrl()).isPresent();
  }
}
