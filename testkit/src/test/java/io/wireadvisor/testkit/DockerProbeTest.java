package io.wireadvisor.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DockerProbeTest {
  @Test
  void saysAnEngineAnswersOnlyWhenTheTestkitFoundOne() {
    assertThat(DockerProbe.unusableWords("", "Testcontainers 2.0.5"))
        .startsWith("Testcontainers 2.0.5 found no Docker engine it can use")
        .doesNotContain("answers");
    assertThat(DockerProbe.unusableWords("Docker Engine 20.10.24 (API 1.41)", "Testcontainers 2.0.5"))
        .startsWith("Docker Engine 20.10.24 (API 1.41) answers, but Testcontainers 2.0.5 cannot use it");
  }

  @Test
  void comparesApiVersionsNumerically() {
    assertThat(DockerProbe.olderThan("1.9", 1, 32)).isTrue();
    assertThat(DockerProbe.olderThan("1.41", 1, 32)).isFalse();
    assertThat(DockerProbe.olderThan("x.y", 1, 32)).isFalse();
  }
}
