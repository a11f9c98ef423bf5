package io.wireadvisor.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Real clients send repeated text statements through the proxy to the real server; the proxy's
 * {@code /report} names each client and gives the change in its own terms, never a JDBC line for a
 * client that is not JDBC, and still the JDBC lines for Connector/J (issue 29).
 */
@RealDatabase
class ClientLanguageIT {
  /** What only a JDBC user can paste. */
  private static final List<String> JDBC_LINES =
      List.of("useServerPrepStmts", "dataSource.", "spring.datasource", "HikariCP");

  private static final int REPEATS = 200;
  private final DatabaseServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  ClientLanguageIT(DatabaseServer server) {
    this.server = server;
  }

  @AfterAll
  static void noLeaks() throws InterruptedException {
    LeakRecorder.assertNoLeaks();
  }

  private static void assumePyMySql() throws Exception {
    Run probe = run(List.of("python3", "-c", "import pymysql"), null, null);
    Assumptions.assumeTrue(probe.exit == 0,
        "python3 cannot import pymysql (bin/ensure-sql-clients installs it): " + probe.output);
  }

  /**
   * A PyMySQL program that connects through argv (port, user, database; the password from
   * {@code WA_PW}, never the command line) and runs {@code body}'s lines REPEATS times, {@code i}
   * the round.
   */
  private static String pyMySqlLoop(String... body) {
    StringBuilder sb = new StringBuilder("import os, sys, pymysql\n"
        + "c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user=sys.argv[2],"
        + " password=os.environ['WA_PW'], database=sys.argv[3], ssl_disabled=True)\n"
        + "cur = c.cursor()\n"
        + "for i in range(" + REPEATS + "):\n");
    for (String line : body) {
      sb.append("    ").append(line).append('\n');
    }
    return sb.append("c.close()\n").toString();
  }

  @Test
  void theMysqlCliIsToldToPrepareInSql() throws Exception {
    Run version = run(List.of("mysql", "--version"), null, null);
    Assumptions.assumeTrue(version.exit == 0,
        "no mysql CLI on the PATH (bin/ensure-sql-clients installs Debian's mariadb-client): "
            + version.output);
    try (ProxiedServer p = proxy()) {
      String db = table("client_cli");
      StringBuilder script = new StringBuilder();
      for (int i = 0; i < REPEATS; i++) {
        script.append("SELECT v FROM t WHERE id = ").append(i % 10).append(";\n");
      }
      Run r = run(List.of("mysql", "--no-defaults", "--protocol=TCP", "--skip-ssl", "-h",
          "127.0.0.1", "-P", String.valueOf(p.proxy.port()), "-u", server.user(), "-D", db,
          "-N", "-B"), script.toString(), server.password());
      assertThat(r.exit).as(r.output).isZero();
      String report = report(p, "libmariadb", "mysql command-line client");
      assertThat(report).contains("PREPARE s FROM");
    }
  }

  @Test
  void sysbenchIsToldItsPsModeAndTheCApi() throws Exception {
    Run version = run(List.of("sysbench", "--version"), null, null);
    Assumptions.assumeTrue(version.exit == 0,
        "no sysbench on the PATH (bin/ensure-sql-clients installs it with apt-get): "
            + version.output);
    try (ProxiedServer p = proxy()) {
      String db = server.createDatabase("client_sysbench");
      List<String> common = List.of("sysbench", "--db-driver=mysql", "--mysql-host=127.0.0.1",
          "--mysql-port=" + p.proxy.port(), "--mysql-user=" + server.user(),
          "--mysql-password=" + server.password(), "--mysql-db=" + db, "--mysql-ssl=off",
          "--db-ps-mode=disable", "--tables=1", "--table-size=100", "oltp_point_select");
      Run prepare = run(concat(common, "prepare"), null, null);
      assertThat(prepare.exit).as(prepare.output).isZero();
      Run bench = run(concat(common, "--threads=1", "--events=" + REPEATS, "--time=0", "run"),
          null, null);
      assertThat(bench.exit).as(bench.output).isZero();
      String report = report(p, "libmariadb", "libmysqlclient/libmariadb C API");
      assertThat(report).contains("--db-ps-mode=auto").contains("mysql_stmt_prepare");
    }
  }

  @Test
  void pyMySqlIsToldItCannotPrepare() throws Exception {
    assumePyMySql();
    try (ProxiedServer p = proxy()) {
      String db = table("client_pymysql");
      String script = pyMySqlLoop("cur.execute('SELECT v FROM t WHERE id = %s', (i % 10,)); cur.fetchall()");
      Run r = run(List.of("python3", "-c", script, String.valueOf(p.proxy.port()), server.user(),
          db), null, server.password());
      assertThat(r.exit).as(r.output).isZero();
      String report = report(p, "pymysql", "PyMySQL");
      assertThat(report).contains("PyMySQL has no server-side prepared statements")
          .doesNotContain("prepared-statement-cache");
    }
  }

  @Test
  void goSqlDriverIsToldInterpolateParamsAndDbPrepare() throws Exception {
    // src/test/clients/go: go-sql-driver/mysql 1.8.1 (the first to send connection attributes)
    // with interpolateParams=true, so the ? argument travels inside the text.
    Path dir = copy("go", "main.go", "go.mod", "go.sum");
    Path binary = dir.resolve("clientlang");
    Run build = run(List.of("go", "build", "-mod=mod", "-o", binary.toString(), "."), null, null,
        dir);
    Assumptions.assumeTrue(build.exit == 0,
        "cannot build the Go client (go on the PATH, github.com/go-sql-driver/mysql v1.8.1 in the"
            + " module cache or from the Go module proxy): " + build.output);
    try (ProxiedServer p = proxy()) {
      String db = table("client_go");
      Run r = run(List.of(binary.toString(), String.valueOf(p.proxy.port()), server.user(), db),
          null, server.password(), dir);
      assertThat(r.exit).as(r.output).isZero();
      String report = report(p, "Go-MySQL-Driver", "go-sql-driver/mysql");
      assertThat(report).contains("interpolateParams=false").contains("db.Prepare");
    }
  }

  @Test
  void nodeMysql2IsToldExecuteRatherThanQuery() throws Exception {
    // src/test/clients/node: mysql2 3.24.6, connection.query() with values (formatted into text).
    Path dir = copy("node", "main.js", "package.json");
    Run install = run(List.of("npm", "install", "--no-audit", "--no-fund", "--silent"), null, null,
        dir);
    Assumptions.assumeTrue(install.exit == 0,
        "cannot install mysql2 with npm (node and npm on the PATH, the npm registry reachable): "
            + install.output);
    try (ProxiedServer p = proxy()) {
      String db = table("client_node");
      Run r = run(List.of("node", "main.js", String.valueOf(p.proxy.port()), server.user(), db),
          null, server.password(), dir);
      assertThat(r.exit).as(r.output).isZero();
      String report = report(p, "Node-MySQL-2", "Node.js mysql2");
      assertThat(report).contains("connection.execute(sql, values)");
    }
  }

  @Test
  void phpPdoWithEmulatedPreparesIsToldToTurnThemOff() throws Exception {
    // pdo_mysql emulates prepares by default (php-src ext/pdo_mysql/mysql_driver.c:
    // H->emulate_prepare = 1): $pdo->prepare() + execute() sends the values inside COM_QUERY.
    Path script = php("pdo.php",
        "<?php\n"
            + "$pdo = new PDO('mysql:host=127.0.0.1;port=' . $argv[1] . ';dbname=' . $argv[3],"
            + " $argv[2], getenv('WA_PW'));\n"
            + "$st = $pdo->prepare('SELECT v FROM t WHERE id = ?');\n"
            + "for ($i = 0; $i < " + REPEATS + "; $i++) { $st->execute([$i % 10]); $st->fetchAll(); }\n");
    try (ProxiedServer p = proxy()) {
      String db = table("client_php_pdo");
      Run r = run(List.of("php", script.toString(), String.valueOf(p.proxy.port()), server.user(),
          db), null, server.password());
      assertThat(r.exit).as(r.output).isZero();
      String report = report(p, "mysqlnd", "PHP mysqlnd (PDO_MySQL, mysqli)");
      assertThat(report).contains("PDO::ATTR_EMULATE_PREPARES => false");
      // The wire shows the default: text statements, no COM_STMT_PREPARE.
      TrafficProfile profile = p.proxy.profile();
      assertThat(profile.total(io.wireadvisor.profile.Via.TEXT_EXECUTES))
          .isGreaterThanOrEqualTo(REPEATS);
      assertThat(profile.total(io.wireadvisor.profile.Via.PREPARES)).isZero();
    }
  }

  @Test
  void phpMysqliQueryIsToldItsPrepare() throws Exception {
    Path script = php("mysqli.php",
        "<?php\n"
            + "mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);\n"
            + "$m = new mysqli('127.0.0.1', $argv[2], getenv('WA_PW'), $argv[3], (int) $argv[1]);\n"
            + "for ($i = 0; $i < " + REPEATS + "; $i++) {"
            + " $m->query('SELECT v FROM t WHERE id = ' . ($i % 10))->fetch_all(); }\n");
    try (ProxiedServer p = proxy()) {
      String db = table("client_php_mysqli");
      Run r = run(List.of("php", script.toString(), String.valueOf(p.proxy.port()), server.user(),
          db), null, server.password());
      assertThat(r.exit).as(r.output).isZero();
      String report = report(p, "mysqlnd", "PHP mysqlnd (PDO_MySQL, mysqli)");
      assertThat(report).contains("$mysqli->prepare()");
    }
  }

  /** A PHP script in target/client-language-it/php, when php with pdo_mysql and mysqli runs. */
  private static Path php(String name, String code) throws Exception {
    Run modules = run(List.of("php", "-m"), null, null);
    Assumptions.assumeTrue(modules.exit == 0 && modules.output.contains("pdo_mysql")
            && modules.output.contains("mysqli"),
        "no php with pdo_mysql and mysqli on the PATH (Debian: apt-get install php-cli php-mysql): "
            + modules.output);
    Path dir = Path.of("target", "client-language-it", "php").toAbsolutePath();
    Files.createDirectories(dir);
    return Files.writeString(dir.resolve(name), code);
  }

  /** The client's sources copied to target/client-language-it/{@code name} (built there). */
  private static Path copy(String name, String... files) throws IOException {
    Path dir = Path.of("target", "client-language-it", name).toAbsolutePath();
    Files.createDirectories(dir);
    for (String f : files) {
      Files.copy(Path.of("src", "test", "clients", name, f), dir.resolve(f),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    return dir;
  }

  @Test
  void connectorJStillGetsItsJdbcLines() throws Exception {
    try (ProxiedServer p = proxy()) {
      String db = table("client_cj");
      try (Connection c = p.connect(db, "");
          Statement s = c.createStatement()) {
        for (int i = 0; i < REPEATS; i++) {
          s.executeQuery("SELECT v FROM t WHERE id = " + (i % 10)).close();
        }
      }
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      TrafficProfile profile = p.proxy.profile();
      assertThat(profile.sources()).extracting(Source::driverName).containsOnly("MySQL Connector/J");
      String text = get(p, "/report?format=text");
      assertThat(text).contains("useServerPrepStmts=true").contains("dataSource.useServerPrepStmts=true")
          .contains("spring.datasource.hikari.data-source-properties.useServerPrepStmts=true")
          .doesNotContain("For PyMySQL");
    }
  }

  @Test
  void connectorJWithoutConnectionAttributesIsNamedByItsConnectTimeComment() throws Exception {
    // useConfigs=maxPerformance sets connectionAttributes=none: no attributes. Its first
    // connection per URL still reads the server's variables under a comment naming the driver
    // ("/* mysql-connector-j-X.Y.Z (Revision: ...) */SELECT  @@session..."); the bundle's
    // cacheServerConfiguration=true spares the next connections that read, so they stay unnamed.
    // An explicit connectionAttributes wins over the bundle (what the replayer sets).
    try (ProxiedServer p = proxy()) {
      String db = table("client_cj_none");
      String version;
      try (Connection c = p.connect(db, "useConfigs=maxPerformance")) {
        c.createStatement().executeQuery("SELECT 1").close();
        version = c.getMetaData().getDriverVersion().replaceAll("^mysql-connector-j-([^ ]+).*", "$1");
      }
      try (Connection c = p.connect(db, "useConfigs=maxPerformance")) {
        c.createStatement().executeQuery("SELECT 2").close();
      }
      try (Connection c = p.connect(db,
          "useConfigs=maxPerformance&connectionAttributes=program_name:wire-advisor-replay")) {
        c.createStatement().executeQuery("SELECT 1").close();
      }
      FaultsIT.waitFor(p.proxy::clientConnections, 0);
      assertThat(p.proxy.profile().sources())
          .extracting(Source::driverName, Source::driverVersion, s -> s.property("program_name"))
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple("MySQL Connector/J", version, null),
              org.assertj.core.groups.Tuple.tuple(null, null, null),
              org.assertj.core.groups.Tuple.tuple("MySQL Connector/J", version,
                  "wire-advisor-replay"));
    }
  }

  @Test
  void mixedTrafficOfConnectorJAndPyMySqlIsToldPerClient() throws Exception {
    assumePyMySql();
    try (ProxiedServer p = proxy()) {
      String db = table("client_mixed");
      String script = pyMySqlLoop("cur.execute('SELECT v FROM t WHERE id = %s', (i % 10,)); cur.fetchall()",
          "cur.execute('SELECT id FROM t WHERE v = %s', ('a',)); cur.fetchall()");
      // Both at once: the Python process runs while Connector/J sends its statements.
      java.util.concurrent.CompletableFuture<Run> python =
          java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
              return run(List.of("python3", "-c", script, String.valueOf(p.proxy.port()),
                  server.user(), db), null, server.password());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return new Run(-1, "interrupted");
            }
          });
      try (Connection c = p.connect(db, "");
          Statement s = c.createStatement()) {
        for (int i = 0; i < REPEATS; i++) {
          s.executeQuery("SELECT v FROM t WHERE id = " + (i % 10)).close();
        }
      }
      Run r = python.get(300, TimeUnit.SECONDS);
      assertThat(r.exit).as(r.output).isZero();
      FaultsIT.waitFor(p.proxy::clientConnections, 0);

      TrafficProfile profile = ProfileJson.fromJson(get(p, "/profile"));
      assertThat(profile.sources()).extracting(Source::driverName)
          .containsExactlyInAnyOrder("MySQL Connector/J", "pymysql");
      assertThat(profile.attributed()).isTrue();
      // The statement both sent is one shape, its executions told apart per client.
      io.wireadvisor.profile.ShapeStats shared = profile.shapes().values().stream()
          .filter(x -> x.digestText().toLowerCase(java.util.Locale.ROOT)
              .matches("select v from t where id = \\?"))
          .findFirst().orElseThrow();
      assertThat(shared.count("MySQL Connector/J", io.wireadvisor.profile.Via.TEXT_EXECUTES))
          .isEqualTo(REPEATS);
      assertThat(shared.count("pymysql", io.wireadvisor.profile.Via.TEXT_EXECUTES))
          .isEqualTo(REPEATS);
      io.wireadvisor.profile.ShapeStats pyOnly = profile.shapes().values().stream()
          .filter(x -> x.digestText().toLowerCase(java.util.Locale.ROOT)
              .matches("select id from t where v = \\?"))
          .findFirst().orElseThrow();
      assertThat(pyOnly.clients()).containsOnlyKeys("pymysql");
      assertThat(pyOnly.count(io.wireadvisor.profile.Via.TEXT_EXECUTES)).isEqualTo(REPEATS);

      String text = get(p, "/report?format=text");
      Path out = Path.of("target", "client-language-it");
      Files.createDirectories(out);
      Files.writeString(out.resolve("mixed-connector-j-pymysql.txt"), text);
      assertThat(text).contains("Recommendations by client");
      String jdbc = section(text, "Client: MySQL Connector/J");
      String py = section(text, "Client: PyMySQL");
      assertThat(jdbc).contains("useServerPrepStmts=true", "dataSource.useServerPrepStmts=true")
          .doesNotContain("PyMySQL");
      assertThat(py).contains("PyMySQL has no server-side prepared statements");
      for (String line : JDBC_LINES) {
        assertThat(py).as("%s in PyMySQL's group", line).doesNotContain(line);
      }
      // Each group's estimate from its own shapes: PyMySQL sent twice Connector/J's statements.
      assertThat(jdbc).contains("wire commands (");
      String json = get(p, "/report?format=json");
      assertThat(json).contains("\"byClient\"", "\"kind\" : \"CONNECTOR_J\"",
          "\"kind\" : \"PYMYSQL\"");
      assertThat(get(p, "/report?format=markdown")).contains("## Client: PyMySQL");
      assertThat(get(p, "/report?format=html")).contains("Client: PyMySQL");
    }
  }

  /** The text of one client group of a report: from its heading to the next group or section. */
  private static String section(String text, String heading) {
    int at = text.indexOf(heading);
    assertThat(at).as("%s in%n%s", heading, text).isNotNegative();
    int next = text.indexOf("\nClient: ", at + heading.length());
    int end = text.indexOf("\nProfile\n-------", at);
    int stop = next < 0 ? end : Math.min(next, end < 0 ? next : end);
    return stop < 0 ? text.substring(at) : text.substring(at, stop);
  }

  private ProxiedServer proxy() throws IOException, InterruptedException {
    return ProxiedServer.start(server,
        ProxyConfig.of("127.0.0.1", 0, server.host(), server.port()).withAdmin("127.0.0.1", 0));
  }

  /** A database with table t (id, v) of ten rows, made over a direct connection. */
  private String table(String name) throws Exception {
    String db = server.createDatabase(name);
    try (Connection c = server.connect(db, "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))");
      s.execute("INSERT INTO t VALUES (0,'a'),(1,'b'),(2,'c'),(3,'d'),(4,'e'),(5,'f'),(6,'g'),"
          + "(7,'h'),(8,'i'),(9,'j')");
    }
    return db;
  }

  /**
   * The proxy's /report (text, markdown, HTML, JSON) after the client left: it names the client
   * (kind and the {@code _client_name} the profile recorded), and no format holds a JDBC line.
   * Returns the text report.
   */
  private String report(ProxiedServer p, String clientName, String kindLabel) throws Exception {
    FaultsIT.waitFor(p.proxy::clientConnections, 0);
    TrafficProfile profile = ProfileJson.fromJson(get(p, "/profile"));
    assertThat(profile.sources()).extracting(Source::driverName).containsOnly(clientName);
    String text = get(p, "/report?format=text");
    Path out = Path.of("target", "client-language-it");
    Files.createDirectories(out);
    Files.writeString(out.resolve(clientName + "-" + kindLabel.replaceAll("[^A-Za-z]+", "_")
        + ".txt"), text);
    assertThat(text).contains("server-prepared-statements").contains("For " + kindLabel + " (");
    for (String format : List.of("text", "markdown", "html", "json")) {
      String body = format.equals("text") ? text : get(p, "/report?format=" + format);
      for (String jdbc : JDBC_LINES) {
        assertThat(body).as("%s in the %s report", jdbc, format).doesNotContain(jdbc);
      }
      assertThat(body).contains(kindLabel);
    }
    assertThat(get(p, "/report?format=json")).contains("\"clients\"");
    return text;
  }

  private String get(ProxiedServer p, String path) throws Exception {
    HttpResponse<String> r = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.proxy.adminPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path).isEqualTo(200);
    return r.body();
  }

  private static List<String> concat(List<String> a, String... b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(List.of(b));
    return out;
  }

  private record Run(int exit, String output) {}

  /** Runs a process with {@code input} on stdin and the password in MYSQL_PWD / WA_PW. */
  private static Run run(List<String> command, String input, String password)
      throws InterruptedException {
    return run(command, input, password, null);
  }

  private static Run run(List<String> command, String input, String password, Path dir)
      throws InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    if (dir != null) {
      pb.directory(dir.toFile());
    }
    if (password != null) {
      pb.environment().put("MYSQL_PWD", password);
      pb.environment().put("WA_PW", password);
    }
    try {
      Process proc = pb.start();
      try (OutputStream in = proc.getOutputStream()) {
        if (input != null) {
          in.write(input.getBytes(StandardCharsets.UTF_8));
        }
      }
      byte[] out = proc.getInputStream().readAllBytes();
      if (!proc.waitFor(300, TimeUnit.SECONDS)) {
        proc.destroyForcibly();
        return new Run(-1, "timed out");
      }
      return new Run(proc.exitValue(), new String(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return new Run(-1, String.valueOf(e.getMessage()));
    }
  }
}
