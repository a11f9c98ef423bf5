package io.wireadvisor.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks Testcontainers whether Docker is usable, without letting a missing or wedged engine stall
 * the build.
 */
final class DockerProbe {
  /** Property {@code wireadvisor.docker.timeoutSeconds}: how long the Testcontainers probe may take. */
  private static final long TIMEOUT_SECONDS = Long.getLong("wireadvisor.docker.timeoutSeconds", 20);

  private DockerProbe() {}

  /** Why Docker cannot be used, or null when it can. */
  static String unavailableReason() {
    if ("false".equalsIgnoreCase(System.getProperty("wireadvisor.docker"))) {
      return "Docker disabled by -Dwireadvisor.docker=false";
    }
    if (!anyDockerHint()) {
      // Testcontainers would otherwise walk every strategy, which takes seconds even when none works.
      return "Docker not available: DOCKER_HOST unset and no docker.sock";
    }
    CompletableFuture<Boolean> probe = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                probe.complete(
                    org.testcontainers.DockerClientFactory.instance().isDockerAvailable());
              } catch (Throwable e) {
                probe.completeExceptionally(e);
              }
            },
            "wire-advisor-docker-probe");
    t.setDaemon(true);
    t.start();
    try {
      return probe.get(TIMEOUT_SECONDS, TimeUnit.SECONDS) ? null : "Docker not available";
    } catch (TimeoutException e) {
      return "Docker did not answer within " + TIMEOUT_SECONDS + " s";
    } catch (ExecutionException e) {
      return "Docker not available: " + e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while probing Docker";
    }
  }

  private static boolean anyDockerHint() {
    String dockerHost = System.getenv("DOCKER_HOST");
    if (dockerHost != null && !dockerHost.isBlank()) {
      return true;
    }
    String home = System.getProperty("user.home", "");
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    return Files.exists(Path.of("/var/run/docker.sock"))
        || Files.exists(Path.of(home, ".docker", "run", "docker.sock"))
        || Files.exists(Path.of(home, ".testcontainers.properties"))
        || (runtime != null && Files.exists(Path.of(runtime, "docker.sock")));
  }
}
