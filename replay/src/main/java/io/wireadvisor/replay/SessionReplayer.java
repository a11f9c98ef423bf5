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
  private static final Pattern READ_ONLY = Pattern.compile("(?i)read\\s+only|(?:tx|transaction)_read_only\\s*(?::=|=)\\s*'?(1|on|true)'?");

  /** Shared by every session of one run. */
  static final class Shared {
    final boolean commit;
    final ConcurrentHistogram latency = new ConcurrentHistogram(io.wireadvisor.profile.Histogram.LATENCY_PRECISION);
    final AtomicLong business = new AtomicLong();
    final AtomicLong expectedErrors = new AtomicLong();
    final AtomicLong wrappedWrites = new AtomicLong();
    final Map<String, AtomicLong> newErrors = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> skipped = new ConcurrentHashMap<>();
    final Map<String, Classification> classifications = new ConcurrentHashMap<>();

    Shared(boolean commit) {
      this.commit = commit;
    }

    void skip(String reason) {
      skipped.computeIfAbsent(reason, k -> new AtomicLong()).incrementAndGet();
    }

    void newError(String what) {
      // Bounded: one key per distinct message start, at most 100 keys.
      String key = what.length() > 160 ? what.substring(0, 160) + "…" : what;
      if (newErrors.size() >= 100 && !newErrors.containsKey(key)) {
        key = "(other errors)";
      }
      newErrors.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
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
  private record Prepared(PreparedStatement ps, boolean write) {}

  private final Map<Integer, Prepared> prepared = new HashMap<>();
  private Prepared lastPrepared;
  /** The application's autocommit as the capture shows it (a pool hands connections out with it on). */
  private boolean appAutocommit = true;
  private boolean explicitTransaction;
  private boolean dirty;

  SessionReplayer(DataSource pool, List<CaptureEvent> events, Shared shared, Supplier<Long> startNanos,
      long firstMicros, boolean paced) {
    this.pool = pool;
    this.events = events;
    this.shared = shared;
    this.startNanos = startNanos;
    this.firstMicros = firstMicros;
    this.paced = paced;
  }

  void run() throws InterruptedException {
    try {
      for (CaptureEvent e : events) {
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
          connection();
          return;
        case INIT_DB:
          if (e.sql() != null) {
            connection().setCatalog(e.sql());
          }
          return;
        case QUERY:
          query(e);
          return;
        case PREPARE:
          if (e.sql() == null) {
            shared.skip("prepare without SQL (masked or credential-bearing)");
            return;
          }
          Prepared p = new Prepared(connection().prepareStatement(e.sql()), isWrite(shared.classify(e.sql()).kind()));
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
        shared.newError(e.kind().jsonName() + ": " + ex.getMessage());
      } else {
        shared.expectedErrors.incrementAndGet();
      }
    }
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
      probe(cn, c.probe(), e.sql());
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
        drain(s, s.execute(e.sql()));
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
    drain(ps, ps.execute());
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
  private void probe(Connection cn, ProbeKind kind, String sql) throws SQLException {
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
        cn.setTransactionIsolation(isolation(sql));
        return;
      case ISOLATION_READ:
        cn.getTransactionIsolation();
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
        // SET NAMES, SHOW VARIABLES, the variables read and session SETs of a connect: the driver
        // sends its own, by its own settings, when the pool opens a connection.
        shared.skip("connect-time session chatter (" + kind + ")");
    }
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
