package io.wireadvisor.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * A server the build was given ({@code WIRE_ADVISOR_JDBC_URL}) must be left as it was found: its
 * global variables are recorded when the build first meets it and compared once every test has run
 * ({@code ServerLeftAsFoundIT}, the last integration test of the reactor).
 *
 * <p>The record lives in the file named by the system property {@value #LEDGER_PROPERTY}, which
 * Failsafe sets to one path per build (the reactor's {@code target/}, stamped with the build's
 * start); outside a Maven build nothing is recorded.
 */
public final class ServerGlobals {
  /** System property naming this build's record. */
  public static final String LEDGER_PROPERTY = "wireadvisor.serverLedger";

  private static final String ADDRESS_KEY = "wire-advisor.server";

  /** Global variables that change by themselves or name where this process put its files. */
  private static final Set<String> VOLATILE = Set.of("tidb_config", "timestamp", "gtid_binlog_pos", "gtid_current_pos");

  private ServerGlobals() {}

  /** {@code SHOW GLOBAL VARIABLES}, by name, without the {@link #VOLATILE} ones. */
  public static Map<String, String> read(DatabaseServer server) {
    Map<String, String> globals = new TreeMap<>();
    try (Connection c = server.connect(null, null);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL VARIABLES")) {
      while (rs.next()) {
        String name = rs.getString(1).toLowerCase(java.util.Locale.ROOT);
        if (!VOLATILE.contains(name)) {
          globals.put(name, String.valueOf(rs.getString(2)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the global variables of " + server, e);
    }
    return globals;
  }

  /** This build's record, when Failsafe names one. */
  public static Optional<Path> ledger() {
    String p = System.getProperty(LEDGER_PROPERTY);
    return p == null || p.isBlank() ? Optional.empty() : Optional.of(Path.of(p));
  }

  /** Writes the record unless an earlier JVM of this build already did (the first one wins). */
  static void recordOnce(DatabaseServer server) {
    Optional<Path> ledger = ledger();
    if (ledger.isEmpty() || Files.exists(ledger.get())) {
      return;
    }
    Properties p = new Properties();
    p.putAll(read(server));
    p.setProperty(ADDRESS_KEY, address(server));
    try {
      Files.createDirectories(ledger.get().toAbsolutePath().getParent());
      try (OutputStream out = Files.newOutputStream(ledger.get(), StandardOpenOption.CREATE_NEW)) {
        p.store(out, "global variables of " + server + " when this build first met it");
      }
    } catch (FileAlreadyExistsException raced) {
      // Another JVM of the same build recorded it first.
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + ledger.get(), e);
    }
  }

  /**
   * The globals recorded for {@code server} by this build; empty when there is no record or it is
   * of another server.
   */
  public static Optional<Map<String, String>> recorded(DatabaseServer server) {
    Optional<Path> ledger = ledger().filter(Files::isRegularFile);
    if (ledger.isEmpty()) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(ledger.get())) {
      p.load(in);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + ledger.get(), e);
    }
    if (!address(server).equals(p.getProperty(ADDRESS_KEY))) {
      return Optional.empty();
    }
    Map<String, String> globals = new TreeMap<>();
    p.stringPropertyNames().stream().filter(k -> !k.equals(ADDRESS_KEY)).forEach(k -> globals.put(k, p.getProperty(k)));
    return Optional.of(globals);
  }

  private static String address(DatabaseServer server) {
    return server.host() + ":" + server.port();
  }
}
