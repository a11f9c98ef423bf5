package io.wireadvisor.agent.it.app;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * The application the agent ITs run in a forked JVM under {@code -javaagent}. It talks over
 * stdin/stdout so the test can read the server's counters exactly around its work:
 *
 * <pre>
 * app: READY            (driver loaded, no connection yet)   test: snapshot, then GO
 * app: runs the scenario, keeps its connections open, dumps AgentApi.profileJson() to
 *      &lt;out&gt;/window.json, prints DONE &lt;connections&gt; &lt;late&gt;    test: snapshot, then EXIT
 * app: a USE on each connection, closes them (COM_QUIT), opens and closes &lt;late&gt; connections
 *      that run no statement, exits (the agent writes its profile at shutdown)
 * </pre>
 *
 * Arguments: scenario, JDBC URL (with the scenario's properties), user, password, output dir.
 */
public final class WorkloadApp {
  public static final int ROUNDS = 12;
  /** Longer than Connector/J's default prepStmtCacheSqlLimit (256), as ORM SQL often is. */
  static final String LONG_SELECT =
      "SELECT t.id, t.v, t.id + 1 AS next_id, t.id * 2 AS double_id, CONCAT(t.v, '-suffix') AS"
          + " decorated, LENGTH(t.v) AS v_length, UPPER(t.v) AS v_upper, LOWER(t.v) AS v_lower,"
          + " COALESCE(t.v, 'none') AS v_or_none FROM t WHERE t.id = ? AND t.v IS NOT NULL AND"
          + " t.id BETWEEN 0 AND 1000000";

  private WorkloadApp() {}

  public static void main(String[] args) throws Exception {
    String scenario = args[0];
    String url = args[1];
    String user = args[2];
    String password = args[3];
    Path out = Paths.get(args[4]);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    if (Boolean.getBoolean("workload.ownLibs")) {
      System.out.println("OWNLIBS " + OwnLibraries.exercise());
    }
    List<Connection> open = new ArrayList<>();
    // Connections opened and closed after the window without running a statement.
    int lateUnused = 0;
    Connection early = null;
    if (Boolean.getBoolean("workload.connectFirst")) {
      // For attach: the driver's classes are loaded and a connection is open before the agent
      // arrives, so the agent must retransform them and pick the connection up mid-life.
      early = connect(url, user, password);
      try (Statement s = early.createStatement()) {
        s.executeQuery("SELECT 1").close();
      }
      System.out.println("CONNECTED");
      System.out.flush();
      expect(in, "ATTACHED");
    }
    System.out.println("READY " + agentActive());
    System.out.flush();
    expect(in, "GO");

    AutoCloseable pool = null;
    switch (scenario) {
      case "plain":
        {
          Connection c = early != null ? early : connect(url, user, password);
          open.add(c);
          mixed(c, true);
          break;
        }
      case "isolation":
        {
          // Statements under the server's default isolation, then under READ COMMITTED; a switch
          // to SERIALIZABLE with nothing run under it; a second connection that only switches to
          // READ UNCOMMITTED and runs nothing (described at snapshot time as it stands).
          Connection c = connect(url, user, password);
          open.add(c);
          queries(c);
          c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
          queries(c);
          c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
          Connection idle = connect(url, user, password);
          open.add(idle);
          idle.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
          lateUnused = 1;
          break;
        }
      case "batch":
        {
          Connection c = connect(url, user, password);
          open.add(c);
          batches(c);
          break;
        }
      case "intercepted":
        {
          // queryInterceptors=LocalAnswerInterceptor (in the URL) answers the marked texts
          // itself: they never reach the server, and must not be counted.
          Connection c = connect(url, user, password);
          open.add(c);
          try (Statement s = c.createStatement()) {
            for (int i = 0; i < ROUNDS; i++) {
              s.executeUpdate(LocalAnswerInterceptor.MARKER + " SET @local_only = " + i);
              try (ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = " + (i % 5 + 1))) {
                rs.next();
              }
            }
          }
          queries(c);
          System.out.println("ANSWERED " + LocalAnswerInterceptor.ANSWERED.get());
          break;
        }
      case "abort":
        {
          // One connection stays open; another is aborted (socket closed, no COM_QUIT). The
          // aborted one stays reachable, so only the agent's close hook can end it, not the GC.
          Connection c = connect(url, user, password);
          open.add(c);
          queries(c);
          aborted = connect(url, user, password);
          queries(aborted);
          aborted.abort(Runnable::run);
          if (!aborted.isClosed()) {
            throw new IllegalStateException("abort did not close the connection");
          }
          break;
        }
      case "hikari":
        {
          HikariRun h = new HikariRun(url, user, password);
          pool = h;
          h.run();
          break;
        }
      case "reset":
        {
          // Work, reset the agent's window while the connection stays open, work again.
          Connection c = connect(url, user, password);
          open.add(c);
          mixed(c, false);
          writeProfile(out.resolve("before-reset.json"));
          callApi("reset");
          mixed(c, false);
          break;
        }
      default:
        throw new IllegalArgumentException("unknown scenario " + scenario);
    }
    writeProfile(out.resolve("window.json"));
    System.out.println("DONE " + open.size() + " " + lateUnused);
    System.out.flush();
    expect(in, "EXIT");

    for (Connection c : open) {
      c.setCatalog("information_schema"); // a USE each (COM_QUERY), counted after the window
      c.close();
    }
    for (int i = 0; i < lateUnused; i++) {
      // Opened after the last snapshot and closed without a statement: described at its COM_QUIT
      // (told apart from the others by its prepStmtCacheSize).
      Connection unused = connect(url + "&prepStmtCacheSize=7", user, password);
      unused.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
      unused.close();
    }
    if (pool != null) {
      pool.close();
    }
  }

  private static java.sql.Driver childDriver;
  /** The connection the "abort" scenario aborted, kept reachable until the JVM exits. */
  static Connection aborted;

  /**
   * Connects through DriverManager, or, with {@code -Dworkload.childDriver=<jar>}, through a
   * driver loaded by a child URLClassLoader (as in a Spring Boot fat jar or a webapp).
   */
  static Connection connect(String url, String user, String password) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    String jar = System.getProperty("workload.childDriver");
    if (jar == null) {
      return DriverManager.getConnection(url, p);
    }
    if (childDriver == null) {
      ClassLoader child =
          new java.net.URLClassLoader(
              new java.net.URL[] {Paths.get(jar).toUri().toURL()}, WorkloadApp.class.getClassLoader());
      childDriver =
          (java.sql.Driver)
              Class.forName("com.mysql.cj.jdbc.Driver", true, child).getConstructor().newInstance();
      if (childDriver.getClass().getClassLoader() != child) {
        throw new IllegalStateException("driver not loaded by the child loader");
      }
    }
    return childDriver.connect(url, p);
  }

  /** Text queries, prepared statements (short and long SQL), long data, probes, a transaction. */
  static void mixed(Connection c, boolean probes) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (int i = 0; i < ROUNDS; i++) {
        try (ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = " + (i % 5 + 1))) {
          rs.next();
        }
      }
    }
    for (int i = 0; i < ROUNDS; i++) {
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
        ps.setInt(1, i % 5 + 1);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
        }
      }
      try (PreparedStatement ps = c.prepareStatement(LONG_SELECT)) {
        ps.setInt(1, i % 5 + 1);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE t SET b = ? WHERE id = ?")) {
      for (int i = 0; i < 3; i++) {
        ps.setBinaryStream(1, new ByteArrayInputStream(new byte[] {1, 2, 3, (byte) i}), 4);
        ps.setInt(2, i + 1);
        ps.executeUpdate();
      }
    }
    if (probes) {
      for (int i = 0; i < 4; i++) {
        c.getTransactionIsolation();
        c.isReadOnly();
      }
    }
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?")) {
      ps.setString(1, "x");
      ps.setInt(2, 5);
      ps.executeUpdate();
    }
    c.commit();
    c.setAutoCommit(true);
  }

  /** A text query and a prepared one. */
  static void queries(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = 1")) {
      rs.next();
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      ps.setInt(1, 2);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
      }
    }
  }

  static void batches(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
      for (int i = 0; i < 5; i++) {
        ps.setInt(1, 1000 + i);
        ps.setString(2, "b" + i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (Statement s = c.createStatement()) {
      s.addBatch("UPDATE t SET v = 'u1' WHERE id = 1000");
      s.addBatch("UPDATE t SET v = 'u2' WHERE id = 1001");
      s.addBatch("DELETE FROM t WHERE id = 1004");
      s.executeBatch();
    }
    try (Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM t WHERE id >= 1000");
    }
  }

  /** HikariCP over one connection: borrow, work, return (the pool resets state each time). */
  static final class HikariRun implements AutoCloseable {
    private final AutoCloseable ds;

    HikariRun(String url, String user, String password) throws Exception {
      Class<?> config = Class.forName("com.zaxxer.hikari.HikariConfig");
      Object cfg = config.getConstructor().newInstance();
      config.getMethod("setJdbcUrl", String.class).invoke(cfg, url);
      config.getMethod("setUsername", String.class).invoke(cfg, user);
      config.getMethod("setPassword", String.class).invoke(cfg, password);
      // One connection, made synchronously in the constructor: no background fill in the window.
      config.getMethod("setMaximumPoolSize", int.class).invoke(cfg, 1);
      config.getMethod("setMinimumIdle", int.class).invoke(cfg, 1);
      config.getMethod("setAutoCommit", boolean.class).invoke(cfg, true);
      config.getMethod("setTransactionIsolation", String.class).invoke(cfg, "TRANSACTION_READ_COMMITTED");
      config.getMethod("setConnectionTestQuery", String.class).invoke(cfg, "SELECT 1");
      Class<?> dsClass = Class.forName("com.zaxxer.hikari.HikariDataSource");
      ds = (AutoCloseable) dsClass.getConstructor(config).newInstance(cfg);
    }

    void run() throws SQLException {
      DataSource d = (DataSource) ds;
      for (int i = 0; i < ROUNDS; i++) {
        try (Connection c = d.getConnection()) {
          c.setAutoCommit(false);
          try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
            ps.setInt(1, i % 5 + 1);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
            }
          }
          try (PreparedStatement ps = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?")) {
            ps.setString(1, "h" + i);
            ps.setInt(2, i % 5 + 1);
            ps.executeUpdate();
          }
          c.commit();
        }
      }
    }

    @Override
    public void close() throws Exception {
      ds.close();
    }
  }

  static void expect(BufferedReader in, String word) throws Exception {
    String line = in.readLine();
    if (!word.equals(line)) {
      throw new IllegalStateException("expected " + word + ", got " + line);
    }
  }

  static Object callApi(String method) throws Exception {
    Class<?> api = Class.forName("io.wireadvisor.agent.AgentApi", true, ClassLoader.getSystemClassLoader());
    Method m = api.getMethod(method);
    return m.invoke(null);
  }

  static boolean agentActive() {
    try {
      return (Boolean) callApi("isActive");
    } catch (Exception e) {
      return false;
    }
  }

  static void writeProfile(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    Files.write(file, ((String) callApi("profileJson")).getBytes(StandardCharsets.UTF_8));
  }
}
