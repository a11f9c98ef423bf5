package io.wireadvisor.replay;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureValue;
import io.wireadvisor.profile.ConcurrentHistogram;
import io.wireadvisor.sql.Classification;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.SqlClassifier;
import io.wireadvisor.sql.StatementKind;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Replays one captured connection's events through JDBC, as the application's code would have
 * called the driver: text statements as {@code PreparedStatement}s of their template (so the
 * driver's settings decide the wire, as in the application), prepared statements as prepared
 * statements, session chatter as the JDBC call that causes it ({@code setAutoCommit},
 * {@code getTransactionIsolation}, ...), and commits, by default, as rollbacks.
 */
final class SessionReplayer {
  private static final Pattern AUTOCOMMIT = Pattern.compile("(?i)autocommit\\s*(?::=|=)\\s*'?(\\w+)'?");
  private static final Pattern AUTOCOMMIT_OFF = Pattern.compile("(?i)autocommit\\s*(?::=|=)\\s*'?(0|off|false)'?");
  private static final Pattern READ_ONLY = Pattern.compile("(?i)read\\s+only|(?:tx|transaction)_read_only\\s*(?::=|=)\\s*'?(1|on|true)'?");

  /** Shared by every session of one run. */
  static final class Shared {
    /** Distinct error groups kept per run; past it, "(other errors)". */
    static final int MAX_ERROR_GROUPS = 100;
    /** Characters of a statement's shape in an error group's key. */
    static final int MAX_SHAPE_CHARS = 120;
    /** Characters of an error group's example message. */
    static final int MAX_EXAMPLE_CHARS = 300;

    final boolean commit;
    final ReplayDriver driver;
    final ReplayTarget target;
    /** The schema replay runs in (the target's or --commit-to), or null. */
    final String database;
    final Map<String, String> errorExamples = new ConcurrentHashMap<>();
    final ConcurrentHistogram latency = new ConcurrentHistogram(io.wireadvisor.profile.Histogram.LATENCY_PRECISION);
    final AtomicLong business = new AtomicLong();
    final AtomicLong expectedErrors = new AtomicLong();
    final AtomicLong wrappedWrites = new AtomicLong();
    final Map<String, AtomicLong> newErrors = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> skipped = new ConcurrentHashMap<>();
    final Map<String, Classification> classifications = new ConcurrentHashMap<>();

    Shared(boolean commit, ReplayDriver driver, ReplayTarget target, String database) {
      this.commit = commit;
      this.driver = driver;
      this.target = target;
      this.database = database == null || database.isEmpty() ? null : database;
    }

    void skip(String reason) {
      skipped.computeIfAbsent(reason, k -> new AtomicLong()).incrementAndGet();
    }

    /**
     * An error the capture did not have, grouped by the server's code and the statement's shape
     * (never by its message, which names key values: one group, not one line per key); the
     * group's first message is kept as its example. Bounded: {@link #MAX_ERROR_GROUPS} groups.
     */
    void newError(String kind, String shape, SQLException ex) {
      String on = shape == null ? kind : kind + " " + shape;
      if (on.length() > MAX_SHAPE_CHARS) {
        on = on.substring(0, MAX_SHAPE_CHARS) + "…";
      }
      String key = "error " + ex.getErrorCode() + (ex.getSQLState() == null ? "" : " (" + ex.getSQLState() + ")")
          + " on " + on;
      if (newErrors.size() >= MAX_ERROR_GROUPS && !newErrors.containsKey(key)) {
        key = "(other errors)";
      }
      newErrors.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
      String message = String.valueOf(ex.getMessage());
      errorExamples.putIfAbsent(key,
          message.length() > MAX_EXAMPLE_CHARS ? message.substring(0, MAX_EXAMPLE_CHARS) + "…" : message);
    }

    Classification classify(String sql) {
      if (classifications.size() > 10_000) {
        return SqlClassifier.classify(sql);
      }
      return classifications.computeIfAbsent(sql, SqlClassifier::classify);
    }
  }

  private final DataSource pool;
  private final List<CaptureEvent> events;
  private final Shared shared;
  private final Supplier<Long> startNanos;
  private final long firstMicros;
  private final boolean paced;

  private Connection conn;
  /** A statement the application prepared, and whether it writes (for the rollback guard). */
  private record Prepared(PreparedStatement ps, boolean write, String sql) {}

  private final Map<Integer, Prepared> prepared = new HashMap<>();
  private Prepared lastPrepared;
  /** The application's autocommit as the capture shows it (a pool hands connections out with it on). */
  private boolean appAutocommit = true;
  private boolean explicitTransaction;
  private boolean dirty;
  /** The schema the captured connection had when the capture first saw it. */
  private String capturedSchema;

  SessionReplayer(DataSource pool, List<CaptureEvent> events, Shared shared, Supplier<Long> startNanos,
      long firstMicros, boolean paced) {
    this.pool = pool;
    this.events = events;
    this.shared = shared;
    this.startNanos = startNanos;
    this.firstMicros = firstMicros;
    this.paced = paced;
  }

  /** Per event: 0 as captured; SKIP_DRIVER_OWN: the replayed driver sends it itself; VIA_UPDATE: executeUpdate. */
  private static final byte SKIP_DRIVER_OWN = 1;
  private static final byte VIA_UPDATE = 2;

  private byte[] plan;
  private boolean viaUpdate;

  /**
   * What the replayed driver and pool send by themselves, so that replay does not send it twice,
   * and how the application called the driver where the capture shows it:
   * <ul>
   *   <li>a connection captured from its login: the driver's and the pool's set-up chatter right
   *       after it (variables read, session SETs, autocommit on, read-only and isolation reads),
   *       and again after a COM_CHANGE_USER, are sent by replay's own pool and driver;
   *   <li>before a write, Connector/J's {@code execute()} and {@code executeBatch()} read
   *       {@code @@session.transaction_read_only} (a rewritten batch twice: the batch and its
   *       multi-statement), {@code executeUpdate()} does not: a write the capture shows without a
   *       read before it is replayed with {@code executeUpdate()}; with reads, with {@code
   *       execute()}, which sends one of them itself (the others are replayed as {@code
   *       isReadOnly()}).
   * </ul>
   */
  static byte[] plan(List<CaptureEvent> events, Function<String, Classification> classify) {
    byte[] plan = new byte[events.size()];
    Map<Integer, String> texts = new HashMap<>();
    boolean setUp = false;
    for (int i = 0; i < events.size(); i++) {
      CaptureEvent e = events.get(i);
      if (e.kind() == CaptureEvent.Kind.PREPARE && e.sql() != null) {
        if (texts.size() < 100_000) {
          texts.put(e.statementId(), e.sql());
        }
        continue;
      }
      if (e.kind() == CaptureEvent.Kind.CHANGE_USER) {
        setUp = true;
        continue;
      }
      if (e.kind() == CaptureEvent.Kind.CONNECT) {
        // Captured from its login when its first command is the driver's variables read.
        setUp = i + 1 < events.size() && events.get(i + 1).kind() == CaptureEvent.Kind.QUERY
            && events.get(i + 1).sql() != null && classify.apply(events.get(i + 1).sql()).probe() == ProbeKind.VARIABLES_READ;
        continue;
      }
      if (setUp) {
        ProbeKind k = e.kind() == CaptureEvent.Kind.QUERY && e.sql() != null ? classify.apply(e.sql()).probe() : null;
        boolean chatter = k == ProbeKind.VARIABLES_READ || k == ProbeKind.SESSION_SET || k == ProbeKind.SET_NAMES
            || k == ProbeKind.SHOW_VARIABLES || k == ProbeKind.READ_ONLY_READ || k == ProbeKind.ISOLATION_READ
            || (k == ProbeKind.AUTOCOMMIT_SET && !AUTOCOMMIT_OFF.matcher(e.sql()).find());
        if (chatter) {
          plan[i] = SKIP_DRIVER_OWN;
          continue;
        }
        setUp = false;
      }
      String sql = e.kind() == CaptureEvent.Kind.QUERY ? e.sql()
          : e.kind() == CaptureEvent.Kind.EXECUTE ? texts.get(e.statementId()) : null;
      if (sql == null || e.valuesUnknown()) {
        continue;
      }
      Classification c = classify.apply(sql);
      if (c.isProbe() || !isWrite(c.kind())) {
        continue;
      }
      int reads = 0;
      int nearest = -1;
      for (int j = i - 1; j >= 0; j--) {
        CaptureEvent b = events.get(j);
        if (b.kind() == CaptureEvent.Kind.SET_OPTION) {
          continue;
        }
        if (b.kind() == CaptureEvent.Kind.QUERY && b.sql() != null && plan[j] == 0
            && classify.apply(b.sql()).probe() == ProbeKind.READ_ONLY_READ) {
          reads++;
          nearest = nearest < 0 ? j : nearest;
          continue;
        }
        break;
      }
      if (reads == 0) {
        plan[i] = VIA_UPDATE;
      } else {
        plan[nearest] = SKIP_DRIVER_OWN;
      }
    }
    return plan;
  }

  void run() throws InterruptedException {
    plan = plan(events, shared::classify);
    try {
      for (int i = 0; i < events.size(); i++) {
        CaptureEvent e = events.get(i);
        if (plan[i] == SKIP_DRIVER_OWN) {
          shared.skip("set-up chatter and read-only reads the replayed driver and pool send by themselves");
          continue;
        }
        viaUpdate = plan[i] == VIA_UPDATE;
        if (paced) {
          long due = startNanos.get() + (e.micros() - firstMicros) * 1000L;
          long wait = due - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
          }
        }
        step(e);
      }
    } finally {
      end();
    }
  }

  private void step(CaptureEvent e) {
    if (e.valuesUnknown() && (e.kind() == CaptureEvent.Kind.EXECUTE || e.kind() == CaptureEvent.Kind.QUERY)) {
      shared.skip(e.kind().jsonName() + " whose values the capture could not keep (credential-bearing, longer than"
          + " the collector holds, or parameter types it never saw)");
      return;
    }
    try {
      switch (e.kind()) {
        case CONNECT:
          if (capturedSchema == null) {
            capturedSchema = e.sql();
          }
          connection();
          return;
        case INIT_DB:
          if (e.sql() != null) {
            // The capture's own schema is the replayed one (a copy, --commit-to): never back to the original.
            boolean home = capturedSchema != null && e.sql().equalsIgnoreCase(capturedSchema) && shared.database != null;
            connection().setCatalog(home ? shared.database : e.sql());
          }
          return;
        case SET_OPTION:
          if (CaptureEvent.MULTI_STATEMENTS_ON.equals(e.sql()) || CaptureEvent.MULTI_STATEMENTS_OFF.equals(e.sql())) {
            shared.driver.multiStatements(connection(), CaptureEvent.MULTI_STATEMENTS_ON.equals(e.sql()));
          } else {
            shared.skip("COM_SET_OPTION of an unknown option");
          }
          return;
        case CHANGE_USER:
          // The capture holds no credentials: the session is reset as the replay's own user.
          shared.driver.changeUser(connection(), shared.target.user(), shared.target.password());
          return;
        case RESET_CONNECTION:
          shared.skip("COM_RESET_CONNECTION (Connector/J has no call that sends it)");
          return;
        case QUERY:
          query(e);
          return;
        case PREPARE:
          if (e.sql() == null) {
            shared.skip("prepare without SQL (masked or credential-bearing)");
            return;
          }
          Prepared p = new Prepared(connection().prepareStatement(e.sql()), isWrite(shared.classify(e.sql()).kind()),
              e.sql());
          Prepared old = prepared.put(e.statementId(), p);
          if (old != null) {
            old.ps().close();
          }
          lastPrepared = p;
          return;
        case EXECUTE:
          execute(e);
          return;
        case CLOSE:
          Prepared closing = prepared.remove(e.statementId());
          if (closing != null) {
            closing.ps().close();
          }
          return;
        case RESET:
          shared.skip("COM_STMT_RESET (the driver sends it itself)");
          return;
        case QUIT:
          end();
          return;
        default:
          shared.skip("unknown event");
      }
    } catch (SQLException ex) {
      if (e.ok()) {
        shared.newError(e.kind().jsonName(), shapeOf(e), ex);
      } else {
        shared.expectedErrors.incrementAndGet();
      }
    }
  }

  /** The statement an event ran, as a template (values as ?), or null. */
  private String shapeOf(CaptureEvent e) {
    if (e.kind() == CaptureEvent.Kind.EXECUTE) {
      Prepared p = e.statementId() == -1 ? lastPrepared : prepared.get(e.statementId());
      return p == null ? null : p.sql();
    }
    return e.kind() == CaptureEvent.Kind.QUERY || e.kind() == CaptureEvent.Kind.PREPARE ? e.sql() : null;
  }

  private Connection connection() throws SQLException {
    if (conn == null) {
      conn = pool.getConnection();
      appAutocommit = conn.getAutoCommit();
      explicitTransaction = false;
      dirty = false;
    }
    return conn;
  }

  private void query(CaptureEvent e) throws SQLException {
    if (e.sql() == null) {
      shared.skip("statement without SQL (masked or credential-bearing)");
      return;
    }
    Classification c = shared.classify(e.sql());
    Connection cn = connection();
    if (c.isProbe()) {
      probe(cn, c.probe(), e);
      return;
    }
    StatementKind kind = c.kind();
    switch (kind) {
      case BEGIN:
        run(cn, e, false);
        explicitTransaction = true;
        return;
      case COMMIT:
        finish(cn, shared.commit);
        return;
      case ROLLBACK:
        finish(cn, false);
        return;
      case DDL:
        if (!shared.commit) {
          shared.skip("DDL (it would commit; replay with --commit-to to run it)");
          return;
        }
        run(cn, e, true);
        return;
      default:
        boolean write = isWrite(kind);
        if (write && !shared.commit && appAutocommit && !explicitTransaction) {
          wrapped(cn, () -> run(cn, e, true));
        } else {
          run(cn, e, true);
          dirty |= write;
        }
    }
  }

  private void execute(CaptureEvent e) throws SQLException {
    Prepared p = e.statementId() == -1 ? lastPrepared : prepared.get(e.statementId());
    if (p == null) {
      shared.skip("execute of a statement prepared before the capture started");
      return;
    }
    PreparedStatement ps = p.ps();
    bind(ps, e.values());
    boolean write = p.write();
    if (write && !shared.commit && appAutocommit && !explicitTransaction) {
      wrapped(connection(), () -> timed(ps));
    } else {
      timed(ps);
      dirty |= write;
    }
  }

  private interface Work {
    void run() throws SQLException;
  }

  /** An autocommitted write, in a transaction that is rolled back: the database stays as it was. */
  private void wrapped(Connection cn, Work w) throws SQLException {
    cn.setAutoCommit(false);
    try {
      w.run();
    } finally {
      cn.rollback();
      cn.setAutoCommit(true);
      shared.wrappedWrites.incrementAndGet();
    }
  }

  private void run(Connection cn, CaptureEvent e, boolean business) throws SQLException {
    if (e.values().isEmpty()) {
      long t0 = System.nanoTime();
      try (Statement s = cn.createStatement()) {
        if (viaUpdate) {
          s.executeUpdate(e.sql());
          drain(s, false);
        } else {
          drain(s, s.execute(e.sql()));
        }
      }
      if (business) {
        record(t0);
      }
      return;
    }
    try (PreparedStatement ps = cn.prepareStatement(e.sql())) {
      bind(ps, e.values());
      if (business) {
        timed(ps);
      } else {
        drain(ps, ps.execute());
      }
    }
  }

  private void timed(PreparedStatement ps) throws SQLException {
    long t0 = System.nanoTime();
    if (viaUpdate) {
      // As the application called it (no read-only read before it in the capture).
      ps.executeUpdate();
      drain(ps, false);
    } else {
      drain(ps, ps.execute());
    }
    record(t0);
  }

  private void record(long t0) {
    shared.latency.record((System.nanoTime() - t0) / 1000L);
    shared.business.incrementAndGet();
  }

  private static void drain(Statement s, boolean isResult) throws SQLException {
    boolean result = isResult;
    while (true) {
      if (result) {
        try (ResultSet rs = s.getResultSet()) {
          if (rs == null) {
            return;
          }
          while (rs.next()) {
            // read every row, as the application did
          }
        }
      } else if (s.getUpdateCount() == -1) {
        return;
      }
      result = s.getMoreResults();
    }
  }

  /** The JDBC call behind a probe; the driver decides (by its settings) what goes on the wire. */
  private void probe(Connection cn, ProbeKind kind, CaptureEvent e) throws SQLException {
    String sql = e.sql();
    switch (kind) {
      case AUTOCOMMIT_SET:
        {
          Matcher m = AUTOCOMMIT.matcher(sql);
          boolean on = !m.find() || isOn(m.group(1));
          if (!on) {
            cn.setAutoCommit(false);
          } else {
            if (!shared.commit && dirty) {
              cn.rollback();
              dirty = false;
            }
            cn.setAutoCommit(true);
            explicitTransaction = false;
          }
          appAutocommit = on;
          return;
        }
      case ISOLATION_SET:
        driverConnection(cn).setTransactionIsolation(isolation(sql));
        return;
      case ISOLATION_READ:
        driverConnection(cn).getTransactionIsolation();
        return;
      case READ_ONLY_READ:
        cn.isReadOnly();
        return;
      case READ_ONLY_SET:
        cn.setReadOnly(READ_ONLY.matcher(sql).find());
        return;
      case VALIDATION_QUERY:
        cn.isValid(5);
        return;
      default:
        // SET NAMES, SHOW VARIABLES, variables read and session SETs after the connection's set-up
        // (that one the replayed driver and pool send by themselves: see plan): the
        // application's own, run as it ran them, in order.
        run(cn, e, false);
    }
  }

  /**
   * The driver's connection under the replay pool's proxy. The capture holds what the
   * application's pool did on each borrow (its resets); replay holds one borrow per captured
   * connection, so the replay pool's own per-borrow state must not stand in: HikariCP answers
   * {@code getTransactionIsolation()} from its cache once the isolation was set through it (the
   * bank's 325 isolation reads a window went unsent), and resets the isolation when the borrow
   * ends. Isolation is set and read on the driver's connection.
   */
  private static Connection driverConnection(Connection cn) throws SQLException {
    return cn.isWrapperFor(Connection.class) ? cn.unwrap(Connection.class) : cn;
  }

  private void finish(Connection cn, boolean commit) throws SQLException {
    if (cn.getAutoCommit()) {
      try (Statement s = cn.createStatement()) {
        s.execute(commit ? "COMMIT" : "ROLLBACK");
      }
    } else if (commit) {
      cn.commit();
    } else {
      cn.rollback();
    }
    explicitTransaction = false;
    dirty = false;
  }

  private void end() {
    for (Prepared p : prepared.values()) {
      try {
        p.ps().close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
    prepared.clear();
    lastPrepared = null;
    if (conn != null) {
      try {
        if (!conn.getAutoCommit()) {
          if (shared.commit) {
            conn.commit();
          } else {
            conn.rollback();
          }
        }
        conn.close();
      } catch (SQLException ignored) {
        // the pool evicts a broken connection
      }
      conn = null;
    }
  }

  private static boolean isWrite(StatementKind k) {
    return k == StatementKind.INSERT || k == StatementKind.UPDATE || k == StatementKind.DELETE
        || k == StatementKind.REPLACE;
  }

  private static boolean isOn(String v) {
    String s = v.toLowerCase(Locale.ROOT);
    return s.equals("1") || s.equals("on") || s.equals("true");
  }

  private static int isolation(String sql) {
    String s = sql.toUpperCase(Locale.ROOT).replace('_', ' ').replace('-', ' ');
    if (s.contains("READ UNCOMMITTED")) {
      return Connection.TRANSACTION_READ_UNCOMMITTED;
    }
    if (s.contains("READ COMMITTED")) {
      return Connection.TRANSACTION_READ_COMMITTED;
    }
    if (s.contains("SERIALIZABLE")) {
      return Connection.TRANSACTION_SERIALIZABLE;
    }
    return Connection.TRANSACTION_REPEATABLE_READ;
  }

  /** Binds captured values; masked ones get a generated value of the same type and length. */
  static void bind(PreparedStatement ps, List<CaptureValue> values) throws SQLException {
    for (int i = 0; i < values.size(); i++) {
      CaptureValue v = values.get(i);
      int at = i + 1;
      String t = v.isMasked() ? generated(v) : v.text();
      switch (v.type()) {
        case NULL:
          ps.setNull(at, Types.NULL);
          break;
        case NUMBER:
          if (t.matches("-?\\d{1,18}")) {
            ps.setLong(at, Long.parseLong(t));
          } else {
            ps.setBigDecimal(at, new BigDecimal(t));
          }
          break;
        case BYTES:
          ps.setBytes(at, v.isMasked() ? new byte[v.length() * 3 / 4] : Base64.getDecoder().decode(t));
          break;
        case DATE:
          ps.setDate(at, java.sql.Date.valueOf(t));
          break;
        case TIME:
          ps.setTime(at, java.sql.Time.valueOf(t));
          break;
        case DATETIME:
          ps.setTimestamp(at, java.sql.Timestamp.valueOf(t.replace('T', ' ')));
          break;
        default:
          ps.setString(at, t);
      }
    }
  }

  /** A value for a masked one: same type, same length where the type allows. */
  static String generated(CaptureValue v) {
    switch (v.type()) {
      case NUMBER:
        return "1" + "0".repeat(Math.max(0, Math.min(v.length(), 9) - 1));
      case DATE:
        return "2000-01-01";
      case TIME:
        return "00:00:00";
      case DATETIME:
        return "2000-01-01 00:00:00";
      default:
        return "x".repeat(v.length());
    }
  }
}
