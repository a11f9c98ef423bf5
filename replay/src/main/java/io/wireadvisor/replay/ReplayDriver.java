package io.wireadvisor.replay;

import io.wireadvisor.wire.ConnectorJComment;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The Connector/J that replay drives: the bundled one, or a jar the user gives ({@code --driver
 * JAR}), loaded by a class loader of its own whose parent is the platform loader, so that nothing
 * of the bundled driver (or of the rest of replay's class path) can stand in for it. Also the
 * driver-specific calls replay needs for commands JDBC has no method for (COM_SET_OPTION,
 * COM_CHANGE_USER), made by reflection through the driver's own interfaces.
 */
public final class ReplayDriver {
  private static final String DRIVER_CLASS = "com.mysql.cj.jdbc.Driver";

  private final Driver driver;
  private final ClassLoader loader;
  private final String version;
  private final String origin;

  private ReplayDriver(Driver driver, String version, String origin) {
    this.driver = driver;
    this.loader = driver.getClass().getClassLoader();
    this.version = version;
    this.origin = origin;
  }

  /** The Connector/J on replay's own class path. */
  public static ReplayDriver bundled() {
    try {
      Driver d = new com.mysql.cj.jdbc.Driver();
      return new ReplayDriver(d, versionOf(d), "bundled");
    } catch (SQLException e) {
      throw new IllegalStateException("the bundled Connector/J cannot be loaded: " + e.getMessage(), e);
    }
  }

  /**
   * Connector/J from {@code jar}, isolated from the bundled one.
   *
   * @throws IllegalArgumentException naming the jar and what is wrong with it
   */
  public static ReplayDriver fromJar(Path jar) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--driver " + jar + ": no such file");
    }
    URL url;
    try {
      url = jar.toUri().toURL();
    } catch (IOException e) {
      throw new IllegalArgumentException("--driver " + jar + ": " + e.getMessage());
    }
    URLClassLoader loader = new URLClassLoader("replay-driver", new URL[] {url}, ClassLoader.getPlatformClassLoader());
    try {
      Class<?> c = Class.forName(DRIVER_CLASS, true, loader);
      Driver d = (Driver) c.getDeclaredConstructor().newInstance();
      return new ReplayDriver(d, versionOf(d), jar.toString());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("--driver " + jar + ": not a Connector/J 8.0 or later jar (no "
          + DRIVER_CLASS + ")");
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalArgumentException("--driver " + jar + ": its driver cannot be loaded: " + e);
    }
  }

  private static String versionOf(Driver d) {
    try {
      Class<?> constants = Class.forName("com.mysql.cj.Constants", true, d.getClass().getClassLoader());
      Object v = constants.getField("CJ_VERSION").get(null);
      if (v instanceof String) {
        return (String) v;
      }
    } catch (ReflectiveOperationException | LinkageError ignored) {
      // below
    }
    return d.getMajorVersion() + "." + d.getMinorVersion();
  }

  /** The driver's class (from the jar's own loader for {@code --driver}). */
  Class<?> driverClass() {
    return driver.getClass();
  }

  /** The driver's version, e.g. {@code 8.0.33}. */
  public String version() {
    return version;
  }

  /** {@code bundled}, or the jar's path. */
  public String origin() {
    return origin;
  }

  /**
   * The Connector/J version the application ran, as the capture names it: its header (the agent
   * knows it), else the release ({@code X.Y.Z}) named by the comment Connector/J puts before its
   * connect-time variables read ({@link ConnectorJComment}); null when neither
   * is there (looked for in the first 10,000 events).
   */
  public static String capturedVersion(io.wireadvisor.capture.CaptureFormat.Capture capture) {
    if (capture.header().driverVersion() != null) {
      return isConnectorJ(capture.header().driverName()) ? capture.header().driverVersion() : null;
    }
    int n = 0;
    for (io.wireadvisor.capture.CaptureEvent e : capture.events()) {
      if (++n > 10_000) {
        break;
      }
      if (e.kind() == io.wireadvisor.capture.CaptureEvent.Kind.QUERY) {
        ConnectorJComment comment = ConnectorJComment.of(e.sql());
        if (comment != null) {
          return comment.release();
        }
      }
    }
    return null;
  }

  /**
   * Whether a driver name (the header's: the agent's, or a client's {@code _client_name} through the
   * proxy) is Connector/J; null (not named) is taken as Connector/J, replay's own driver.
   */
  static boolean isConnectorJ(String name) {
    if (name == null) {
      return true;
    }
    String n = name.toLowerCase(java.util.Locale.ROOT);
    return n.contains("connector/j") || n.contains("connector java") || n.contains("connector-j");
  }

  /**
   * Where to find Connector/J {@code version}'s jar in a Maven repository: {@code
   * com.mysql:mysql-connector-j} from 8.0.31 on, {@code mysql:mysql-connector-java} before.
   */
  static String mavenPath(String version) {
    boolean renamed;
    try {
      String[] p = version.split("\\.");
      int major = Integer.parseInt(p[0]);
      int minor = p.length > 1 ? Integer.parseInt(p[1]) : 0;
      int patch = p.length > 2 ? Integer.parseInt(p[2].replaceAll("[^0-9].*", "")) : 0;
      renamed = major > 8 || (major == 8 && (minor > 0 || patch >= 31));
    } catch (RuntimeException e) {
      renamed = true;
    }
    return renamed
        ? "~/.m2/repository/com/mysql/mysql-connector-j/" + version + "/mysql-connector-j-" + version + ".jar"
        : "~/.m2/repository/mysql/mysql-connector-java/" + version + "/mysql-connector-java-" + version + ".jar";
  }

  /**
   * One line for the report: which driver replay ran, and how it stands to the driver the capture
   * names (its header or last line: the agent's Connector/J, the proxy's first client), with the
   * jar to give {@code --driver} when the versions differ, and a word when the application's client
   * was no Connector/J at all.
   */
  public String describe(io.wireadvisor.capture.CaptureFormat.Capture capture) {
    io.wireadvisor.capture.CaptureHeader h = capture.header();
    String many = capture.drivers() > 1
        ? " (the capture's connections named " + capture.drivers() + (capture.drivers() >= 8 ? " or more" : "")
            + " drivers; the first is shown)"
        : "";
    if (h.driverVersion() != null && !isConnectorJ(h.driverName())) {
      String ran = "Connector/J " + version + " (" + ("bundled".equals(origin) ? "bundled" : "--driver " + origin) + ")";
      return "driver: " + ran + "; the capture came from " + h.driverName() + " " + h.driverVersion()
          + ": replay drives Connector/J, so its wire counts are Connector/J's, not that client's" + many;
    }
    String captured = capturedVersion(capture);
    String line = describe(captured);
    if (captured != null && !captured.equals(version)) {
      line += ", e.g. --driver " + mavenPath(captured);
    }
    return line + many;
  }

  /** One line for the report: which driver replay ran, and how it stands to the capture's. */
  public String describe(String captured) {
    String ran = "Connector/J " + version + " (" + ("bundled".equals(origin) ? "bundled" : "--driver " + origin) + ")";
    if (captured == null) {
      return "driver: " + ran + "; the capture does not name the application's driver version";
    }
    if (captured.equals(version)) {
      return "driver: " + ran + ", the version the capture names";
    }
    return "driver: " + ran + "; the capture names " + captured
        + ": replay runs another version than the application (give its jar with --driver)";
  }

  /**
   * A data source opening connections of this driver to {@code url} with {@code properties}
   * (the configuration's JDBC properties, user and password).
   */
  DataSource dataSource(String url, Properties properties) {
    return new DriverSource(driver, url, properties);
  }

  /** COM_SET_OPTION as Connector/J sends it around a rewritten batch: multi-statements on or off. */
  void multiStatements(Connection c, boolean on) throws SQLException {
    Object jc = c.unwrap(type("com.mysql.cj.jdbc.JdbcConnection"));
    Object session = call(jc, type("com.mysql.cj.jdbc.JdbcConnection"), "getSession");
    call(session, session.getClass(), on ? "enableMultiQueries" : "disableMultiQueries");
  }

  /** COM_CHANGE_USER with replay's own credentials (the capture holds none). */
  void changeUser(Connection c, String user, String password) throws SQLException {
    Class<?> jcType = type("com.mysql.cj.jdbc.JdbcConnection");
    Object jc = c.unwrap(jcType);
    try {
      jcType.getMethod("changeUser", String.class, String.class).invoke(jc, user, password);
    } catch (InvocationTargetException e) {
      throw asSql(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new SQLFeatureNotSupportedException("Connector/J " + version + " has no changeUser: " + e);
    }
  }

  private Class<?> type(String name) throws SQLException {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException e) {
      throw new SQLFeatureNotSupportedException("Connector/J " + version + " has no " + name);
    }
  }

  private Object call(Object target, Class<?> type, String method) throws SQLException {
    try {
      Method m = type.getMethod(method);
      return m.invoke(target);
    } catch (InvocationTargetException e) {
      throw asSql(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new SQLFeatureNotSupportedException("Connector/J " + version + " has no " + method + ": " + e);
    }
  }

  private static SQLException asSql(Throwable t) {
    return t instanceof SQLException ? (SQLException) t : new SQLException(String.valueOf(t.getMessage()), t);
  }

  /** Connections straight from the driver, for HikariCP's {@code setDataSource}. */
  private static final class DriverSource implements DataSource {
    private final Driver driver;
    private final String url;
    private final Properties properties;
    private PrintWriter log;
    private int loginTimeout;

    DriverSource(Driver driver, String url, Properties properties) {
      this.driver = driver;
      this.url = url;
      this.properties = properties;
    }

    @Override
    public Connection getConnection() throws SQLException {
      Connection c = driver.connect(url, properties);
      if (c == null) {
        throw new SQLException("the driver does not accept " + url);
      }
      return c;
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      Properties p = new Properties();
      for (Map.Entry<Object, Object> e : properties.entrySet()) {
        p.put(e.getKey(), e.getValue());
      }
      p.setProperty("user", user);
      p.setProperty("password", password);
      return driver.connect(url, p);
    }

    @Override
    public PrintWriter getLogWriter() {
      return log;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
      this.log = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
      this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
      return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
