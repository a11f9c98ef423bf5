package io.wireadvisor.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.ImageNameSubstitutor;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * Decides whether the TiDB container can be used, without letting a missing or wedged engine stall
 * the build, and when it cannot, says what to do: start the engine, build or pull the image, turn
 * off Ryuk where its image cannot be had, set the host override inside a container.
 */
final class DockerProbe {
  /** Property {@code wireadvisor.docker.timeoutSeconds}: how long asking the engine may take. */
  private static final long TIMEOUT_SECONDS = Long.getLong("wireadvisor.docker.timeoutSeconds", 20);

  /** Property {@code wireadvisor.docker.pullTimeoutSeconds}: how long an image pull may take. */
  private static final long PULL_TIMEOUT_SECONDS = Long.getLong("wireadvisor.docker.pullTimeoutSeconds", 600);

  /** The image Testcontainers 2.0.5 starts Ryuk from (its package-private RyukContainer's). */
  static final String RYUK_IMAGE = "testcontainers/ryuk:0.14.0";

  private DockerProbe() {}

  /** The name Testcontainers will ask the engine for, after the user's configured substitutions. */
  static String substituted(String image) {
    return ImageNameSubstitutor.instance().apply(DockerImageName.parse(image)).asCanonicalNameString();
  }

  /** Why Docker cannot be used, or null when it can. */
  static String unavailableReason() {
    if ("false".equalsIgnoreCase(System.getProperty("wireadvisor.docker"))) {
      return "Docker disabled by -Dwireadvisor.docker=false";
    }
    if (!anyDockerHint()) {
      // Testcontainers would otherwise walk every strategy, which takes seconds even when none works.
      return "Docker not available: DOCKER_HOST unset and no docker.sock";
    }
    Optional<DockerEngine> engine =
        DockerEngine.locate(System.getenv("DOCKER_HOST"), "1".equals(System.getenv("DOCKER_TLS_VERIFY")));
    String engineWords = "";
    if (engine.isPresent()) {
      // Asked directly first: Testcontainers' own failure says only "not available".
      String[] version;
      try {
        version = engineVersion(engine.get());
      } catch (IllegalStateException e) {
        return e.getMessage();
      }
      engineWords = "Docker Engine " + version[0] + " (API " + version[1] + ")";
      if (olderThan(version[1], 1, 32)) {
        // Testcontainers asks for API 1.44 and falls back to 1.32, no lower.
        return engineWords + " is older than Testcontainers can use (API 1.32, Docker 17.09): upgrade the engine";
      }
      String images = imagesReason(engine.get());
      if (images != null) {
        return images;
      }
    }
    return testcontainersReason(engineWords);
  }

  /** Whether an API version such as {@code 1.41} is below {@code major.minor}; false when unreadable. */
  static boolean olderThan(String apiVersion, int major, int minor) {
    String[] parts = apiVersion.split("\\.");
    try {
      int ma = Integer.parseInt(parts[0]);
      int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return ma < major || (ma == major && mi < minor);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * The engine's version and API version.
   *
   * @throws IllegalStateException saying what to do when no engine answers there
   */
  static String[] engineVersion(DockerEngine engine) {
    try {
      return timed(engine::version, TIMEOUT_SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("no Docker engine answers on " + engine + " (" + rootMessage(e)
          + "): start it (dockerd, or the Docker service) or point DOCKER_HOST at one", e);
    }
  }

  /** Null when TiDB's image (and Ryuk's, unless Ryuk is off) is on the engine or was pulled now. */
  private static String imagesReason(DockerEngine engine) {
    String tidb = tidbImageReason(engine, substituted(TestVersions.TIDB_IMAGE));
    if (tidb != null) {
      return tidb;
    }
    if (!ryukDisabled()) {
      String ryuk = substituted(RYUK_IMAGE);
      String missing = missingImage(engine, ryuk);
      if (missing != null) {
        return "Testcontainers' Ryuk image " + ryuk + " is not on the engine and cannot be pulled (" + missing
            + "): set TESTCONTAINERS_RYUK_DISABLED=true (the testkit then stops its containers itself) or"
            + " make the image available";
      }
    }
    return null;
  }

  /** Null when the TiDB image is on the engine or was pulled now, else what to do. */
  static String tidbImageReason(DockerEngine engine, String image) {
    String missing = missingImage(engine, image);
    return missing == null ? null
        : "TiDB image " + image + " is not on the engine and cannot be pulled (" + missing
            + "): build one from bin/local-tidb's TiDB with `bin/local-tidb image` and run with"
            + " -Dwireadvisor.tidb.image=wire-advisor/tidb:local, or pull one the engine can reach";
  }

  /** Why the image cannot be had, or null when it is there (pulled now if it was not). */
  private static String missingImage(DockerEngine engine, String image) {
    try {
      if (timed(() -> engine.hasImage(image), TIMEOUT_SECONDS)) {
        return null;
      }
      System.err.println("wire-advisor testkit: pulling " + image + " (up to " + PULL_TIMEOUT_SECONDS + " s)");
      return timed(() -> engine.pull(image), PULL_TIMEOUT_SECONDS).orElse(null);
    } catch (Exception e) {
      return rootMessage(e);
    }
  }

  private static String testcontainersReason(String engineWords) {
    String client = "Testcontainers " + org.testcontainers.DockerClientFactory.TESTCONTAINERS_VERSION;
    try {
      boolean ok = timed(() -> org.testcontainers.DockerClientFactory.instance().isDockerAvailable(), TIMEOUT_SECONDS);
      return ok ? null : unusableWords(engineWords, client) + containerHint();
    } catch (TimeoutException e) {
      return client + " did not get an answer from Docker within " + TIMEOUT_SECONDS + " s" + containerHint();
    } catch (Exception e) {
      return client + " cannot use Docker: " + rootMessage(e) + containerHint();
    }
  }

  /**
   * What to say when Testcontainers finds no usable engine: with {@code engineWords} empty the
   * testkit located no engine of its own either (a DOCKER_HOST or socket it cannot read), so it
   * does not claim one answers.
   */
  static String unusableWords(String engineWords, String client) {
    return engineWords.isEmpty()
        ? client + " found no Docker engine it can use (DOCKER_HOST " + (isBlank(System.getenv("DOCKER_HOST")) ? "unset" : "set")
            + "; see its log for the strategies it tried)"
        : engineWords + " answers, but " + client
            + " cannot use it (see its log: DOCKER_HOST, TLS or context settings it cannot follow)";
  }

  /**
   * Inside a container Testcontainers looks for the host's gateway, which may take a helper
   * container; where the engine runs in the same container the host is simply loopback.
   */
  private static String containerHint() {
    if (new File("/.dockerenv").exists() && isBlank(System.getenv("TESTCONTAINERS_HOST_OVERRIDE"))) {
      return "; this build runs inside a container: where the engine runs in the same container set"
          + " TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1";
    }
    return "";
  }

  static boolean ryukDisabled() {
    return Boolean.parseBoolean(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))
        || Boolean.parseBoolean(TestcontainersConfiguration.getInstance().getEnvVarOrUserProperty("ryuk.disabled", "false"));
  }

  private static <T> T timed(Callable<T> call, long seconds) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                result.complete(call.call());
              } catch (Throwable e) {
                result.completeExceptionally(e);
              }
            },
            "wire-advisor-docker-probe");
    t.setDaemon(true);
    t.start();
    try {
      return result.get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw e;
    }
  }

  private static String rootMessage(Throwable e) {
    if (e instanceof TimeoutException) {
      return "no answer within the time allowed";
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage();
    return m == null || m.isBlank() ? root.getClass().getSimpleName() : m;
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }

  private static boolean anyDockerHint() {
    String dockerHost = System.getenv("DOCKER_HOST");
    if (!isBlank(dockerHost)) {
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
