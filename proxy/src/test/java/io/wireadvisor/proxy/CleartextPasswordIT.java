package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 28: a password in clear never crosses a plaintext leg, at the proxy's defaults and with
 * {@code --upstream-tls preferred}. Two {@link RecordingRelay}s record what an eavesdropper sees
 * on each leg (client → relay → proxy → relay → server) while Connector/J (sslMode DISABLED,
 * PREFERRED, REQUIRED, with allowPublicKeyRetrieval), the MariaDB mysql CLI (default options,
 * {@code --ssl}, {@code --skip-ssl}) and PyMySQL (plaintext, TLS) log in as a
 * caching_sha2_password user (TiDB; MariaDB has no such plugin) and a mysql_native_password
 * user. The password must occur in neither recording; logins that can succeed must succeed.
 * Positive controls: a query's text is seen on plaintext legs, and with {@code
 * --allow-cleartext-passwords} the password itself is (so the relays would see it).
 */
@RealDatabase
class CleartextPasswordIT {
  /** Distinct enough that it occurs in no other byte of a login. */
  private static final String SECRET = "Pw28-" + UUID.randomUUID().toString().substring(0, 13);

  private final DatabaseServer server;
  private final String nativeUser;
  private final String sha2User;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final StringBuilder log = new StringBuilder();

  CleartextPasswordIT(DatabaseServer server) throws SQLException {
    this.server = server;
    String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    this.nativeUser = "wa28n_" + suffix;
    this.sha2User = server.isTiDB() ? "wa28s_" + suffix : null;
    try (Connection c = server.connect(null, "sslMode=DISABLED");
        Statement s = c.createStatement()) {
      if (server.isTiDB()) {
        s.execute("CREATE USER '" + nativeUser + "'@'%' IDENTIFIED WITH mysql_native_password BY '" + SECRET + "'");
        s.execute("CREATE USER '" + sha2User + "'@'%' IDENTIFIED WITH caching_sha2_password BY '" + SECRET + "'");
      } else {
        try {
          for (String host : new String[] {"%", "localhost", "127.0.0.1"}) {
            s.execute("CREATE USER '" + nativeUser + "'@'" + host + "' IDENTIFIED VIA mysql_native_password USING PASSWORD('" + SECRET + "')");
          }
        } catch (SQLException e) {
          if (!e.getMessage().contains("skip-grant-tables")) {
            throw e;
          }
          // The embedded MariaDB runs without grant tables: it takes any user and password, but
          // the client still sends its mysql_native_password proof, which is what is recorded.
          log.append("  (the server runs with --skip-grant-tables: no users created, any login is accepted)\n");
        }
      }
    }
  }

  @AfterEach
  void dropUsersAndStop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    // Every login and what each leg carried, for the reader (also when a test fails).
    java.nio.file.Files.writeString(
        java.nio.file.Path.of("target", "cleartext-password-it.txt"),
        "CleartextPasswordIT on " + server.version() + ":\n" + log,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    try (Connection c = server.connect(null, "sslMode=DISABLED");
        Statement s = c.createStatement()) {
      if (!server.isTiDB() && log.indexOf("skip-grant-tables") >= 0) {
        return;
      }
      for (String host : server.isTiDB() ? new String[] {"%"} : new String[] {"%", "localhost", "127.0.0.1"}) {
        s.execute("DROP USER IF EXISTS '" + nativeUser + "'@'" + host + "'");
        if (sha2User != null) {
          s.execute("DROP USER IF EXISTS '" + sha2User + "'@'" + host + "'");
        }
      }
    }
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  /**
   * The proxy as {@code wire-advisor-proxy --upstream host:port} starts it: client TLS offered
   * with a generated certificate, upstream plaintext. Fails on the main branch before issue 28:
   * CLIENT_SSL was removed, so PREFERRED clients fell back to plaintext (and the mysql CLI sent
   * the password in clear on both legs).
   */
  @Test
  void connectorJAtTheDefaults() throws Exception {
    Legs legs = start();
    List<Login> logins = atTheDefaults(legs, Client.CONNECTOR_J);
    // Clients that prefer TLS get it: the proxy offers it with a certificate of its own.
    assertThat(find(logins, "Connector/J sslMode=PREFERRED", false).clientTls).isTrue();
    assertThat(find(logins, "Connector/J sslMode=REQUIRED", false).clientTls).isTrue();
    assertThat(find(logins, "Connector/J sslMode=DISABLED", false).clientTls).isFalse();
    // Control: what crosses a plaintext leg is visible on both recordings.
    legs.clear();
    String marker = "relay-sees-" + UUID.randomUUID();
    try (Connection c = DriverManager.getConnection(cj(legs, "DISABLED"), nativeUser, SECRET);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT '" + marker + "'")) {
      assertThat(rs.next()).isTrue();
    }
    legs.awaitClosed();
    assertThat(legs.client.saw(marker)).isTrue();
    assertThat(legs.upstream.saw(marker)).isTrue();
  }

  /** The MariaDB mysql CLI at the proxy's defaults: its default options use the offered TLS. */
  @Test
  void mysqlCliAtTheDefaults() throws Exception {
    Assumptions.assumeTrue(mysqlCli() != null, () -> mysqlCliMissing);
    atTheDefaults(start(), Client.MYSQL_CLI);
  }

  @Test
  void pyMySqlAtTheDefaults() throws Exception {
    Assumptions.assumeTrue(pyMySql(), () -> pyMySqlMissing);
    atTheDefaults(start(), Client.PYMYSQL);
  }

  @Test
  void connectorJWithUpstreamTls() throws Exception {
    withUpstreamTls(Client.CONNECTOR_J);
  }

  @Test
  void mysqlCliWithUpstreamTls() throws Exception {
    Assumptions.assumeTrue(mysqlCli() != null, () -> mysqlCliMissing);
    withUpstreamTls(Client.MYSQL_CLI);
  }

  @Test
  void pyMySqlWithUpstreamTls() throws Exception {
    Assumptions.assumeTrue(pyMySql(), () -> pyMySqlMissing);
    withUpstreamTls(Client.PYMYSQL);
  }

  /** No password on either recording; the upstream plaintext; only challenge-response logs in. */
  private List<Login> atTheDefaults(Legs legs, Client client) throws Exception {
    List<Login> logins = everyLogin(legs, client);
    for (Login l : logins) {
      assertThat(l.passwordOnClientLeg).as("client leg, %s", l).isFalse();
      assertThat(l.passwordOnUpstreamLeg).as("upstream leg, %s", l).isFalse();
      assertThat(l.upstreamTls).as("upstream leg of %s", l).isFalse();
      assertThat(l.ok).as("%s", l).isEqualTo(!l.sha2); // TiDB's full auth needs TLS on both legs
    }
    return logins;
  }

  /** Both legs TLS for clients that use it: every login succeeds, the password is encrypted. */
  private void withUpstreamTls(Client client) throws Exception {
    try (Connection c = server.connect(null, "sslMode=DISABLED");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW VARIABLES LIKE 'have_ssl'")) {
      Assumptions.assumeTrue(
          rs.next() && rs.getString(2).equalsIgnoreCase("YES"),
          "the server " + server + " has no TLS configured (have_ssl is not YES)");
    }
    Legs legs = start("--upstream-tls", "preferred");
    for (Login l : everyLogin(legs, client)) {
      assertThat(l.passwordOnClientLeg).as("client leg, %s", l).isFalse();
      assertThat(l.passwordOnUpstreamLeg).as("upstream leg, %s", l).isFalse();
      assertThat(l.upstreamTls).as("upstream leg of %s", l).isTrue();
      assertThat(l.ok).as("%s", l).isEqualTo(!l.sha2 || l.clientTls);
    }
  }

  /**
   * Positive control for the recordings: with {@code --allow-cleartext-passwords} a TLS client's
   * clear password is relayed over the plaintext upstream, and the relay sees it.
   */
  @Test
  void withTheCleartextFlagTheRelaySeesThePassword() throws Exception {
    Assumptions.assumeTrue(server.isTiDB(), "needs caching_sha2_password (TiDB); MariaDB has no plugin that sends the password in clear without PAM");
    Legs legs = start("--allow-cleartext-passwords");
    Login l = connectorJ(legs, "REQUIRED", true);
    log.append("  ").append(l).append('\n');
    assertThat(l.ok).as("%s", l).isTrue();
    assertThat(l.clientTls).isTrue();
    assertThat(l.passwordOnClientLeg).isFalse();
    assertThat(l.passwordOnUpstreamLeg).isTrue();
  }

  // ------------------------------------------------------------------ logins

  /** One login attempt and what the relays saw of its legs. */
  record Login(String client, boolean sha2, boolean ok, boolean clientTls, boolean upstreamTls,
      boolean passwordOnClientLeg, boolean passwordOnUpstreamLeg, String detail) {
    @Override
    public String toString() {
      return client + " as " + (sha2 ? "caching_sha2_password" : "mysql_native_password") + " user: "
          + (ok ? "logged in" : "refused") + ", client leg " + (clientTls ? "TLS" : "plaintext")
          + (passwordOnClientLeg ? " CARRIED THE PASSWORD" : "")
          + ", upstream leg " + (upstreamTls ? "TLS" : "plaintext")
          + (passwordOnUpstreamLeg ? " CARRIED THE PASSWORD" : "") + " (" + detail + ")";
    }
  }

  enum Client {
    CONNECTOR_J,
    MYSQL_CLI,
    PYMYSQL
  }

  private List<Login> everyLogin(Legs legs, Client client) throws Exception {
    List<Login> logins = new ArrayList<>();
    List<Boolean> users = sha2User == null ? List.of(false) : List.of(false, true);
    for (boolean sha2 : users) {
      switch (client) {
        case CONNECTOR_J:
          for (String mode : new String[] {"DISABLED", "PREFERRED", "REQUIRED"}) {
            logins.add(connectorJ(legs, mode, sha2));
          }
          break;
        case MYSQL_CLI:
          logins.add(cli(legs, "default options", sha2));
          logins.add(cli(legs, "--ssl --ssl-verify-server-cert=0", sha2, "--ssl", "--ssl-verify-server-cert=0"));
          logins.add(cli(legs, "--skip-ssl", sha2, "--skip-ssl"));
          break;
        default:
          for (String mode : new String[] {"disabled", "default", "context"}) {
            logins.add(pymysql(legs, mode, sha2));
          }
          break;
      }
    }
    for (Login l : logins) {
      log.append("  ").append(l).append('\n');
    }
    return logins;
  }

  private Login connectorJ(Legs legs, String sslMode, boolean sha2) throws Exception {
    legs.clear();
    boolean ok;
    String detail;
    try (Connection c = DriverManager.getConnection(cj(legs, sslMode), sha2 ? sha2User : nativeUser, SECRET);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT CURRENT_USER()")) {
      ok = rs.next();
      detail = rs.getString(1);
    } catch (SQLException e) {
      ok = false;
      detail = e.getErrorCode() + " " + e.getMessage();
    }
    return legs.login("Connector/J sslMode=" + sslMode, sha2, ok, detail);
  }

  private static String cj(Legs legs, String sslMode) {
    return "jdbc:mysql://127.0.0.1:" + legs.client.port() + "/?sslMode=" + sslMode
        + "&allowPublicKeyRetrieval=true&connectTimeout=10000&socketTimeout=30000";
  }

  private Login cli(Legs legs, String what, boolean sha2, String... options) throws Exception {
    legs.clear();
    List<String> command = new ArrayList<>(List.of(
        mysqlCli(), "--no-defaults", "--protocol=TCP", "-h", "127.0.0.1",
        "-P", String.valueOf(legs.client.port()), "-u", sha2 ? sha2User : nativeUser,
        "--connect-timeout=10", "-N", "-B", "-e", "SELECT CURRENT_USER()"));
    command.addAll(List.of(options));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("MYSQL_PWD", SECRET); // not on the command line
    Run r = run(pb);
    return legs.login("mysql CLI " + what, sha2, r.exit == 0, r.output);
  }

  /**
   * @param mode {@code disabled} ({@code ssl_disabled=True}), {@code default} (PyMySQL 2:
   *     TLS when offered, certificate not verified) or {@code context} (an SSLContext that
   *     verifies nothing)
   */
  private Login pymysql(Legs legs, String mode, boolean sha2) throws Exception {
    legs.clear();
    String script =
        "import os, sys, ssl, pymysql\n"
            + "kw = {}\n"
            + "if sys.argv[3] == 'context':\n"
            + "    ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE\n"
            + "    kw['ssl'] = ctx\n"
            + "elif sys.argv[3] == 'disabled':\n"
            + "    kw['ssl_disabled'] = True\n"
            + "try:\n"
            + "    c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user=sys.argv[2],"
            + " password=os.environ['WA_PW'], connect_timeout=10, **kw)\n"
            + "    cur = c.cursor(); cur.execute('SELECT CURRENT_USER()'); print(cur.fetchone()[0]); c.close()\n"
            + "except Exception as e:\n"
            + "    print('ERROR', repr(e)); sys.exit(1)\n";
    ProcessBuilder pb =
        new ProcessBuilder("python3", "-c", script, String.valueOf(legs.client.port()),
            sha2 ? sha2User : nativeUser, mode)
            .redirectErrorStream(true);
    pb.environment().put("WA_PW", SECRET);
    Run r = run(pb);
    return legs.login(
        "PyMySQL " + (mode.equals("disabled") ? "ssl_disabled=True" : mode.equals("default") ? "default options" : "ssl=SSLContext(CERT_NONE)"),
        sha2, r.exit == 0, r.output);
  }

  private static Login find(List<Login> logins, String client, boolean sha2) {
    return logins.stream()
        .filter(l -> l.client.equals(client) && l.sha2 == sha2)
        .findFirst()
        .orElseThrow();
  }

  // ------------------------------------------------------------------ relays and processes

  /** The two recorded legs around one proxy. */
  final class Legs {
    final RecordingRelay client;
    final RecordingRelay upstream;

    Legs(RecordingRelay client, RecordingRelay upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void clear() {
      client.clear();
      upstream.clear();
    }

    /** Waits (bounded) until the login's connections are closed, so nothing is in flight. */
    void awaitClosed() throws InterruptedException {
      for (int i = 0; i < 100 && !(client.allClosed() && upstream.allClosed()); i++) {
        Thread.sleep(50);
      }
    }

    Login login(String clientName, boolean sha2, boolean ok, String detail) throws InterruptedException {
      awaitClosed();
      assertThat(client.overflowed() || upstream.overflowed()).isFalse();
      boolean clientTls = client.legs().stream().anyMatch(RecordingRelay.Leg::clientSentTls);
      boolean upstreamTls = upstream.legs().stream().anyMatch(RecordingRelay.Leg::clientSentTls);
      return new Login(clientName, sha2, ok, clientTls, upstreamTls, client.saw(SECRET),
          upstream.saw(SECRET), detail.strip().replace('\n', ' '));
    }
  }

  /** Client → relay → proxy (started as ProxyMain parses {@code flags}) → relay → server. */
  private Legs start(String... flags) throws IOException, InterruptedException {
    RecordingRelay upstream = new RecordingRelay(server.host(), server.port());
    open.add(upstream);
    List<String> args = new ArrayList<>(List.of(
        "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:" + upstream.port(), "--admin", "off"));
    args.addAll(List.of(flags));
    ProxyMain main = new ProxyMain();
    new CommandLine(main).parseArgs(args.toArray(new String[0]));
    WireProxy proxy = WireProxy.start(main.toConfig());
    open.add(proxy::close);
    RecordingRelay client = new RecordingRelay("127.0.0.1", proxy.port());
    open.add(client);
    return new Legs(client, upstream);
  }

  private record Run(int exit, String output) {}

  private static Run run(ProcessBuilder pb) throws IOException, InterruptedException {
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes(); // ends when the process closes its output
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Run(-1, "timed out");
    }
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  private static String mysqlCliMissing;
  private static Boolean pyMySqlPresent;
  private static String pyMySqlMissing;

  /** The mysql CLI on the PATH, or null (the reason in {@link #mysqlCliMissing}). */
  private static String mysqlCli() {
    try {
      Run r = run(new ProcessBuilder("mysql", "--version").redirectErrorStream(true));
      if (r.exit == 0) {
        return "mysql";
      }
      mysqlCliMissing = "mysql --version exited " + r.exit;
    } catch (IOException | InterruptedException e) {
      mysqlCliMissing = "no mysql CLI on the PATH (bin/ensure-sql-clients installs Debian's mariadb-client)";
    }
    return null;
  }

  private static boolean pyMySql() {
    if (pyMySqlPresent == null) {
      try {
        Run r = run(new ProcessBuilder("python3", "-c", "import pymysql, cryptography").redirectErrorStream(true));
        pyMySqlPresent = r.exit == 0;
        pyMySqlMissing = "python3 cannot import pymysql and cryptography (bin/ensure-sql-clients installs them): " + r.output.strip();
      } catch (IOException | InterruptedException e) {
        pyMySqlPresent = false;
        pyMySqlMissing = "no python3 on the PATH";
      }
    }
    return pyMySqlPresent;
  }
}
