package io.wireadvisor.advisor;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells each recommendation to the clients that sent the traffic, in their own terms. The rules
 * judge the wire and speak Connector/J; when a profile's sources name other clients (a proxy's
 * profile records each connection's {@code _client_name}), each change gets a block per client
 * ({@link Change#clients()}), and when no source is a JDBC client, nothing JDBC is left: no URL
 * properties, HikariCP, Hibernate or Spring settings, no note, evidence or sentence naming them. A
 * client not known here gets what the wire shows and the server-side change, never another
 * driver's setting.
 *
 * <p>Driver facts, each checked where it is written down: go-sql-driver/mysql's README
 * ({@code interpolateParams}: default false; with false, {@code db.Exec}/{@code db.Query} with
 * arguments prepare, execute and close a statement; Go's database/sql {@code Stmt} re-prepares
 * itself on each connection it runs on); PyMySQL's source (defines COM_STMT_PREPARE, never sends
 * it; {@code executemany} rewrites {@code INSERT … VALUES} into multi-row statements up to
 * {@code max_stmt_length}); node-mysql2's documentation/en/Prepared-Statements.md ({@code
 * execute()} prepares on first use and re-uses the statement from a per-connection LRU of {@code
 * maxPreparedStatements}); php-src's pdo_mysql ({@code PDO::ATTR_EMULATE_PREPARES}; emulated
 * prepares send COM_QUERY); the MySQL C API ({@code mysql_stmt_prepare}, {@code
 * mysql_stmt_execute}); sysbench 1.0.20's {@code --help} ({@code --db-ps-mode=STRING prepared
 * statements usage mode {auto, disable} [auto]}). Connection attributes were captured from the
 * clients themselves (see the proxy's ClientAttributes).
 */
final class ClientSpeech {
  /** Words that only make sense to a JDBC user: a sentence holding one is not for other clients. */
  static final Pattern JDBC_TERMS;

  static {
    StringBuilder sb = new StringBuilder("(?i)(");
    for (JdbcProperty p : JdbcProperty.values()) {
      sb.append(Pattern.quote(p.key())).append('|');
    }
    sb.append("Connector/J|Hikari|Hibernate|spring|dataSource|JDBC|java\\.sql|PreparedStatement"
        + "|setReadOnly|setAutoCommit|@Transactional|connectionTestQuery|isValid\\(\\)"
        + "|executeBatch|addBatch|getTransactionIsolation|isReadOnly|getAutoCommit|URL)");
    JDBC_TERMS = Pattern.compile(sb.toString());
  }

  private static final Pattern TIDB_VERSION = Pattern.compile("TiDB-v(\\d+)");

  private ClientSpeech() {}

  /** The recommendations told to the profile's clients (unchanged for JDBC-only traffic). */
  static List<Recommendation> tell(List<Recommendation> recommendations, TrafficProfile profile) {
    Clients clients = Clients.of(profile);
    if (clients.others().isEmpty()) {
      return recommendations;
    }
    List<Recommendation> out = new ArrayList<>(recommendations.size());
    for (Recommendation r : recommendations) {
      if (StatementCacheRule.ID.equals(r.id()) && !clients.speaksJdbc()
          && cannotPrepare(clients)) {
        continue; // no statement to cache: these clients send no binary prepared statements
      }
      out.add(tell(r, clients, profile));
    }
    return Collections.unmodifiableList(out);
  }

  static Recommendation tell(Recommendation r, Clients clients, TrafficProfile profile) {
    Change c = r.change();
    boolean jdbcOnly =
        !c.jdbcProperties().isEmpty() || !c.poolSettings().isEmpty()
            || !c.hibernateProperties().isEmpty();
    boolean keepJdbc = clients.speaksJdbc();
    Change.Builder b = Change.builder();
    if (keepJdbc) {
      for (java.util.Map.Entry<String, String> e : c.jdbcProperties().entrySet()) {
        b.jdbc(e.getKey(), e.getValue());
      }
      for (java.util.Map.Entry<String, String> e : c.poolSettings().entrySet()) {
        b.pool(e.getKey(), e.getValue());
      }
      for (java.util.Map.Entry<String, String> e : c.hibernateProperties().entrySet()) {
        b.hibernate(e.getKey(), e.getValue());
      }
    }
    for (String s : c.sql()) {
      b.sql(s);
    }
    for (String n : c.notes()) {
      if (keepJdbc
          || !jdbcSpeech(n) && !n.contains("tidb_enable_non_prepared_plan_cache")
              && !(cannotPrepare(clients) && n.contains(StatementCacheRule.ID))) {
        b.note(n);
      }
    }
    for (java.util.Map.Entry<String, java.util.List<String>> e : c.clients().entrySet()) {
      for (String line : e.getValue()) {
        b.client(e.getKey(), line);
      }
    }
    if (keepJdbc && jdbcOnly) {
      for (ClientKind k : clients.jdbcKinds()) {
        b.client(clients.label(k), "The JDBC URL parameters, HikariCP and Spring Boot lines of"
            + " this change.");
      }
    }
    boolean told = false;
    for (ClientKind k : clients.others()) {
      List<String> lines = lines(r.id(), k);
      for (String line : lines) {
        b.client(clients.label(k), line);
      }
      if (lines.isEmpty() && jdbcOnly) {
        b.client(clients.label(k), "No setting of this client is known here to do this: the"
            + " evidence shows what its traffic sends; the SQL of this change, if any, applies"
            + " whatever the client.");
      }
      told |= !lines.isEmpty();
    }
    if (TextProtocolRule.ID.equals(r.id()) && told) {
      serverSide(b, profile);
    }
    if (keepJdbc) {
      return r.retold(r.title(), r.evidence(), b.build(), r.expectedEffect(), r.risk(), r.verify());
    }
    List<String> evidence = new ArrayList<>();
    for (String e : r.evidence()) {
      if (!jdbcSpeech(e)) {
        evidence.add(e);
      }
    }
    return r.retold(
        title(r), evidence, b.build(), sentences(r.expectedEffect()), sentences(r.risk()),
        sentences(r.verify()));
  }

  /** True when every non-JDBC client is one that sends no binary prepared statements at all. */
  private static boolean cannotPrepare(Clients clients) {
    for (ClientKind k : clients.others()) {
      if (k != ClientKind.PYMYSQL && k != ClientKind.MYSQL_CLI) {
        return false;
      }
    }
    return true;
  }

  /** True when {@code text} names something only a JDBC user has. */
  static boolean jdbcSpeech(String text) {
    return text != null && JDBC_TERMS.matcher(text).find();
  }

  /** The title without its JDBC names. */
  private static String title(Recommendation r) {
    if (StatementCacheRule.ID.equals(r.id())) {
      return "Keep prepared statements open per connection instead of preparing every execution";
    }
    if (SessionProbeRule.ID.equals(r.id())) {
      return "Stop session-variable probes";
    }
    String t = r.title();
    Matcher m = Pattern.compile("\\s*\\(([^)]*)\\)").matcher(t);
    StringBuffer sb = new StringBuffer();
    while (m.find()) {
      m.appendReplacement(sb, jdbcSpeech(m.group(1)) ? "" : Matcher.quoteReplacement(m.group()));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** The sentences of {@code text} that do not speak JDBC. */
  private static String sentences(String text) {
    if (text == null || !jdbcSpeech(text)) {
      return text;
    }
    StringBuilder sb = new StringBuilder();
    for (String s : text.split("(?<=\\.)\\s+")) {
      if (!jdbcSpeech(s)) {
        sb.append(sb.length() == 0 ? "" : " ").append(s);
      }
    }
    return sb.length() > 0 ? sb.toString() : "As the rule states it for JDBC drivers, which did not"
        + " send this traffic: judge it for this client by the evidence above.";
  }

  /** The server side of rule server-prepared-statements, for clients that cannot prepare. */
  private static void serverSide(Change.Builder b, TrafficProfile profile) {
    Outlook.ServerKind kind = Estimates.serverKind(profile, null);
    if (kind == Outlook.ServerKind.TIDB) {
      int major = tidbMajor(profile);
      if (major == 0 || major >= 7) {
        b.sql("SET GLOBAL tidb_enable_non_prepared_plan_cache = ON;");
        b.note("Server side, whatever the client: tidb_enable_non_prepared_plan_cache (TiDB v7.0+)"
            + " caches plans of text statements too, but only simple ones (e.g. no subqueries,"
            + " window functions or partitioned tables, at most 200 parameters; primary-key"
            + " point lookups take TiDB's point-get path instead), and every text is still"
            + " parsed; check PLAN_IN_CACHE in STATEMENTS_SUMMARY, or SELECT"
            + " @@last_plan_from_cache after a statement.");
      } else {
        b.note("Server side: TiDB before v7.0 caches no plans of text statements; the change is in"
            + " the client.");
      }
    } else if (kind != Outlook.ServerKind.UNKNOWN) {
      b.note("Server side: MySQL and MariaDB keep no plans of text statements to reuse (each is"
          + " parsed and optimized anew); the change is in the client.");
    }
  }

  private static int tidbMajor(TrafficProfile profile) {
    for (Source s : profile.sources()) {
      if (s.serverVersion() != null) {
        Matcher m = TIDB_VERSION.matcher(s.serverVersion());
        if (m.find()) {
          return Integer.parseInt(m.group(1));
        }
      }
    }
    return 0;
  }

  /** What {@code kind} does about rule {@code ruleId}, in its own terms; empty when nothing known. */
  static List<String> lines(String ruleId, ClientKind kind) {
    List<String> l = new ArrayList<>();
    if (TextProtocolRule.ID.equals(ruleId)) {
      textProtocol(kind, l);
    } else if (StatementCacheRule.ID.equals(ruleId)) {
      statementCache(kind, l);
    } else if (BatchRewriteRule.ID.equals(ruleId)) {
      batches(kind, l);
    }
    return l;
  }

  private static void textProtocol(ClientKind kind, List<String> l) {
    switch (kind) {
      case GO_SQL_DRIVER:
        l.add("These statements arrive as COM_QUERY text: the DSN sets interpolateParams=true (the"
            + " driver then writes the ? arguments into the text; the default is false), or the"
            + " code builds the SQL text itself.");
        l.add("Keep interpolateParams=false (remove it from the DSN), pass values as ? arguments,"
            + " and prepare each repeated statement once with db.Prepare (or db.PrepareContext),"
            + " then call stmt.Exec / stmt.Query on it: database/sql prepares it once on each"
            + " connection it runs on and executes it with COM_STMT_EXECUTE.");
        l.add("Without db.Prepare, db.Exec / db.Query with arguments prepare, execute and close a"
            + " statement on every call (three round trips).");
        break;
      case PYMYSQL:
        l.add("PyMySQL has no server-side prepared statements: cursor.execute(sql, args) escapes"
            + " the arguments into the SQL text on the client and sends COM_QUERY, and no PyMySQL"
            + " setting changes that. mysqlclient (MySQLdb) has none either.");
        l.add("What is left: the server-side change below, or keeping the repeated statements"
            + " fewer (several rows per statement, results cached in the application).");
        break;
      case NODE_MYSQL2:
        l.add("Use connection.execute(sql, values) (pool.execute on a pool) instead of"
            + " connection.query(sql, values) for the repeated statements: query() formats the"
            + " values into the text on the client; execute() prepares the statement on the"
            + " server on first use and re-uses it from a per-connection cache (an LRU of"
            + " maxPreparedStatements statements), sending COM_STMT_EXECUTE with binary values.");
        break;
      case PHP_MYSQLND:
        l.add("PDO: create the connection with [PDO::ATTR_EMULATE_PREPARES => false] (or"
            + " $pdo->setAttribute(PDO::ATTR_EMULATE_PREPARES, false)): $pdo->prepare() then"
            + " prepares on the server and $stmt->execute() sends COM_STMT_EXECUTE; with emulated"
            + " prepares, as this traffic shows, the values travel inside COM_QUERY text. Prepare"
            + " each repeated statement once and execute it many times.");
        l.add("mysqli: $mysqli->prepare() with $stmt->bind_param() and $stmt->execute() is"
            + " server-side already; $mysqli->query() is text.");
        break;
      case C_API:
        l.add("C API: prepare each repeated statement once per connection with mysql_stmt_init +"
            + " mysql_stmt_prepare, then per call mysql_stmt_bind_param + mysql_stmt_execute"
            + " (COM_STMT_EXECUTE, binary values) instead of mysql_query / mysql_real_query with"
            + " the values in the text; mysql_stmt_close when the statement is no longer needed.");
        l.add("sysbench runs on this library: --db-ps-mode=auto (its default) sends its statements"
            + " as server-side prepared statements, --db-ps-mode=disable as text.");
        l.add("Python's mysqlclient (MySQLdb) runs on this library too and has no server-side"
            + " prepared statements: its cursor writes the arguments into the text.");
        break;
      case MYSQL_CLI:
        l.add("The mysql command-line client sends every statement as COM_QUERY text. A script"
            + " that repeats one can prepare it once per session in SQL: PREPARE s FROM '... WHERE"
            + " id = ?'; SET @id = 1; EXECUTE s USING @id; (TiDB's plan cache serves these"
            + " too), or the repeated work can move to a program whose driver prepares on the"
            + " server.");
        break;
      default:
        l.add("This client sent no connection attributes (or a name not known here), so its"
            + " settings are not given: the wire shows these statements as COM_QUERY text with"
            + " the values inside. In its driver, look for server-side prepared statements"
            + " (COM_STMT_PREPARE + COM_STMT_EXECUTE) and for an option that interpolates"
            + " parameters on the client.");
        break;
    }
  }

  private static void statementCache(ClientKind kind, List<String> l) {
    switch (kind) {
      case GO_SQL_DRIVER:
        l.add("db.Exec / db.Query with arguments (interpolateParams=false) prepare, execute and"
            + " close a statement on every call: prepare the repeated ones once with db.Prepare"
            + " and keep the *sql.Stmt for the program's life (database/sql prepares it once on"
            + " each connection it runs on).");
        break;
      case NODE_MYSQL2:
        l.add("connection.execute() keeps prepared statements per connection already: a PREPARE"
            + " per execution means statements are closed after use (connection.unprepare(), or"
            + " statement.close() after connection.prepare()) or each call runs on a new"
            + " connection; keep connections in a pool (mysql.createPool) and let execute()"
            + " cache.");
        break;
      case PHP_MYSQLND:
        l.add("A $pdo->prepare() (or $mysqli->prepare()) per execution sends COM_STMT_PREPARE"
            + " each time: keep the statement object of a repeated statement and call execute()"
            + " on it with new values.");
        break;
      case C_API:
        l.add("Keep the MYSQL_STMT from mysql_stmt_prepare and call mysql_stmt_execute on it again"
            + " with new bound values, instead of mysql_stmt_prepare and mysql_stmt_close around"
            + " every execution.");
        break;
      case PYMYSQL:
      case MYSQL_CLI:
        break;
      default:
        l.add("This client's driver is not known here: the wire shows a COM_STMT_PREPARE (and a"
            + " COM_STMT_CLOSE) around executions; in its driver, keep prepared statements open"
            + " per connection (a statement cache) instead of preparing per call.");
        break;
    }
  }

  private static void batches(ClientKind kind, List<String> l) {
    switch (kind) {
      case PYMYSQL:
        l.add("cursor.executemany(\"INSERT INTO t (a, b) VALUES (%s, %s)\", rows) sends one"
            + " multi-row INSERT per batch (PyMySQL rewrites INSERT ... VALUES, up to"
            + " max_stmt_length = 1,024,000 bytes per statement), where a loop of"
            + " cursor.execute sends a statement per row.");
        break;
      case GO_SQL_DRIVER:
        l.add("database/sql has no batch call: build one INSERT ... VALUES (?, ?), (?, ?), ... per"
            + " batch and execute it once.");
        break;
      case NODE_MYSQL2:
        l.add("connection.query('INSERT INTO t (a, b) VALUES ?', [rows]) with rows an array of"
            + " arrays sends one multi-row INSERT.");
        break;
      default:
        l.add("Send one INSERT ... VALUES (...), (...), ... per batch instead of one statement per"
            + " row.");
        break;
    }
  }
}
