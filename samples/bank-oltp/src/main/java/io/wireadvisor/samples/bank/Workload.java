package io.wireadvisor.samples.bank;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.wireadvisor.profile.ConcurrentHistogram;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.samples.bank.BankSchema.Table;
import io.wireadvisor.samples.bank.BusinessTransactions.Plan;
import io.wireadvisor.samples.bank.BusinessTransactions.Step;
import io.wireadvisor.samples.bank.SqlStatement.Param;
import io.wireadvisor.testkit.DatabaseServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Runs the business-transaction mix on N threads through a HikariCP pool: a warm-up, a pause in
 * which every worker has finished its transaction (so that the caller's counter snapshot opens an
 * exact window), the measured duration, and a join before the closing snapshot.
 *
 * <p>Each transaction is wrapped as Spring's {@code @Transactional(isolation = READ_COMMITTED)}
 * wraps it: read the isolation level, {@code setAutoCommit(false)}, the statements, {@code commit},
 * {@code setAutoCommit(true)}. What that costs on the wire depends on the driver settings — the
 * session-variable probes the study's scenario 2 removes. Read-only transactions do not call
 * {@code setReadOnly(true)}: TiDB rejects {@code SET TRANSACTION READ ONLY} unless
 * {@code tidb_enable_noop_functions} is on.
 */
public final class Workload {
  /** What the caller does at the window's edges, while no worker runs a statement. */
  public interface Window {
    void open() throws SQLException;

    void close() throws SQLException;
  }

  /**
   * How to run.
   *
   * @param threads worker threads, and the pool size
   * @param warmup time before the window opens
   * @param measure length of the window
   * @param seed base seed; worker i uses seed + i
   * @param scale the scale factor the data was loaded with (ids are drawn from its ranges)
   * @param minStatements the window goes on past {@code measure} until this many business
   *     statements ran (at most {@value #MAX_EXTENSION} times {@code measure} in all), so that a
   *     slow machine still gives the advisor enough traffic to judge; 0 for a fixed window
   */
  public record Settings(int threads, Duration warmup, Duration measure, long seed, double scale, long minStatements) {
    public Settings {
      if (threads < 1 || threads > 512) {
        throw new IllegalArgumentException("threads must be 1..512, was " + threads);
      }
      if (warmup.isNegative() || measure.isZero() || measure.isNegative()) {
        throw new IllegalArgumentException("warm-up must be >= 0 and the measured duration > 0");
      }
      if (minStatements < 0) {
        throw new IllegalArgumentException("the minimum of statements must be >= 0, was " + minStatements);
      }
    }

    /** A fixed window of {@code measure}. */
    public Settings(int threads, Duration warmup, Duration measure, long seed, double scale) {
      this(threads, warmup, measure, seed, scale, 0);
    }
  }

  /** How far past its duration a window may be extended to reach {@code minStatements}. */
  public static final int MAX_EXTENSION = 10;

  /** What one run measured inside the window. */
  public record Result(
      double seconds,
      long transactions,
      long statements,
      long selects,
      long writes,
      long statementsAtLeast256,
      long errors,
      List<String> errorSamples,
      Histogram statementLatencyNanos,
      Histogram transactionLatencyNanos,
      Map<String, Long> transactionsByType) {}

  /** The isolation every pool connection runs with, as the server names it. */
  public static final String POOL_ISOLATION = "READ-COMMITTED";

  private final DatabaseServer server;
  private final BusinessTransactions mix;
  private final BankSchema schema;

  public Workload(DatabaseServer server, BusinessTransactions mix) {
    this.server = server;
    this.mix = mix;
    this.schema = mix.catalog().schema();
  }

  /** A pool as the application configures it, with the scenario's driver properties. */
  public HikariDataSource pool(String database, String jdbcProperties, int size, String name) {
    return pool(database, jdbcProperties, Map.of(), size, name);
  }

  /**
   * A pool with HikariCP settings on top (names as in a Hikari properties file, e.g.
   * {@code keepaliveTime}); an unknown name is an error.
   */
  public HikariDataSource pool(
      String database, String jdbcProperties, Map<String, String> poolSettings, int size, String name) {
    java.util.Properties p = new java.util.Properties();
    p.putAll(poolSettings);
    HikariConfig hc = poolSettings.isEmpty() ? new HikariConfig() : new HikariConfig(p);
    hc.setJdbcUrl(server.jdbcUrl(database, jdbcProperties));
    hc.setUsername(server.user());
    hc.setPassword(server.password());
    hc.setMaximumPoolSize(size);
    hc.setMinimumIdle(size);
    hc.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    hc.setPoolName(name);
    hc.setConnectionTimeout(30_000);
    return new HikariDataSource(hc);
  }

  /**
   * Runs the mix.
   *
   * @param progress receives a status line every few seconds
   */
  public Result run(
      HikariDataSource ds, Settings settings, Window window, String label, Consumer<String> progress)
      throws SQLException, InterruptedException {
    Counters warm = new Counters();
    Counters measured = new Counters();
    Control ctl = new Control(settings.threads());
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < settings.threads(); i++) {
      final long seed = settings.seed() + i;
      Thread t =
          new Thread(
              () -> work(ds, new SplittableRandom(seed), settings.scale(), ctl, warm, measured),
              "bank-worker-" + i);
      t.setDaemon(true);
      workers.add(t);
    }
    workers.forEach(Thread::start);
    try {
      sleepWithProgress(settings.warmup(), label + " warm-up", warm, progress, ctl);
      ctl.pauseRequested = true;
      ctl.pause.await();
      window.open();
      long start = System.nanoTime();
      ctl.measuring = true;
      ctl.resume.countDown();
      sleepWithProgress(settings.measure(), label + " measure", measured, progress, ctl);
      long cap = start + MAX_EXTENSION * settings.measure().toNanos();
      if (measured.statements.sum() < settings.minStatements() && ctl.failure == null) {
        progress.accept(String.format("  %s measure: extended until %,d statements (at most %d s)", label,
            settings.minStatements(), MAX_EXTENSION * settings.measure().toSeconds()));
        while (measured.statements.sum() < settings.minStatements() && System.nanoTime() < cap && ctl.failure == null) {
          Thread.sleep(50);
        }
      }
      ctl.stop = true;
      for (Thread t : workers) {
        t.join();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      if (ctl.failure != null) {
        throw new IllegalStateException("a worker failed; the run is not valid", ctl.failure);
      }
      window.close();
      return measured.result(seconds);
    } finally {
      ctl.stop = true;
      ctl.resume.countDown();
      for (Thread t : workers) {
        t.interrupt();
        t.join(5_000);
      }
    }
  }

  /**
   * Opens every connection of the pool at once and runs each of the catalogue's statements once on
   * each (writes rolled back), as a long-running application would have: afterwards a statement
   * cache that can hold them all needs no more prepares. Throws if any statement fails.
   */
  public void prime(HikariDataSource ds, int connections, long seed, double scale) throws SQLException {
    SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
    List<Connection> held = new ArrayList<>();
    try {
      for (int i = 0; i < connections; i++) {
        held.add(ds.getConnection());
      }
      for (Connection con : held) {
        con.setAutoCommit(false);
        Map<String, Long> roles = new HashMap<>();
        for (SqlStatement st : mix.catalog().statements()) {
          try {
            execute(con, new Step(st, Map.of()), roles, r, scale);
          } catch (SQLException e) {
            throw new SQLException("statement " + st.key() + " failed: " + e.getMessage(), e.getSQLState(), e);
          }
        }
        con.rollback();
        con.setAutoCommit(true);
      }
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
  }

  private static void sleepWithProgress(
      Duration d, String label, Counters c, Consumer<String> progress, Control ctl)
      throws InterruptedException {
    long end = System.nanoTime() + d.toNanos();
    long start = System.nanoTime();
    long lastStatements = c.statements.sum();
    long lastAt = start;
    while (true) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        break;
      }
      Thread.sleep(Math.min(left / 1_000_000 + 1, 5_000));
      long now = System.nanoTime();
      if (now - lastAt >= 4_900_000_000L || now >= end) {
        long s = c.statements.sum();
        progress.accept(
            String.format(
                "  %s %3.0f/%.0f s: %,8.0f statements/s, %,d errors",
                label, (now - start) / 1e9, d.toNanos() / 1e9, (s - lastStatements) / ((now - lastAt) / 1e9),
                c.errors.sum()));
        lastStatements = s;
        lastAt = now;
      }
    }
  }

  /** Coordination between the main thread and the workers. */
  private static final class Control {
    final CountDownLatch pause;
    final CountDownLatch resume = new CountDownLatch(1);
    /** Set after the warm-up: each worker pauses after its current transaction. */
    volatile boolean pauseRequested;
    volatile boolean measuring;
    volatile boolean stop;
    volatile Throwable failure;

    Control(int threads) {
      pause = new CountDownLatch(threads);
    }
  }

  private static final class Counters {
    final LongAdder transactions = new LongAdder();
    final LongAdder statements = new LongAdder();
    final LongAdder selects = new LongAdder();
    final LongAdder writes = new LongAdder();
    final LongAdder long256 = new LongAdder();
    final LongAdder errors = new LongAdder();
    final ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
    final ConcurrentHistogram stmtLatency = new ConcurrentHistogram(Histogram.COUNT_PRECISION);
    final ConcurrentHistogram txLatency = new ConcurrentHistogram(Histogram.COUNT_PRECISION);
    final Map<BusinessTransactions.Type, LongAdder> byType = new java.util.EnumMap<>(BusinessTransactions.Type.class);

    Counters() {
      for (BusinessTransactions.Type t : BusinessTransactions.Type.values()) {
        byType.put(t, new LongAdder());
      }
    }

    Result result(double seconds) {
      Map<String, Long> types = new java.util.LinkedHashMap<>();
      byType.forEach((k, v) -> types.put(k.name(), v.sum()));
      return new Result(
          seconds, transactions.sum(), statements.sum(), selects.sum(), writes.sum(), long256.sum(),
          errors.sum(), List.copyOf(samples), stmtLatency.snapshot(), txLatency.snapshot(), types);
    }
  }

  private void work(
      HikariDataSource ds, SplittableRandom r, double scale, Control ctl, Counters warm, Counters measured) {
    boolean paused = false;
    try {
      while (!ctl.stop) {
        if (!paused && ctl.pauseRequested) {
          ctl.pause.countDown();
          ctl.resume.await();
          paused = true;
          continue;
        }
        Counters c = ctl.measuring ? measured : warm;
        Plan plan = mix.next(r);
        runTransaction(ds, plan, r, scale, c);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      ctl.failure = e;
      ctl.pause.countDown();
    }
  }

  private void runTransaction(HikariDataSource ds, Plan plan, SplittableRandom r, double scale, Counters c) {
    long t0 = System.nanoTime();
    Map<String, Long> roles = new HashMap<>();
    int done = 0;
    int selects = 0;
    int long256 = 0;
    try (Connection con = ds.getConnection()) {
      // Spring's DataSourceTransactionManager.doBegin / DataSourceUtils.prepareConnectionForTransaction.
      int previous = con.getTransactionIsolation();
      if (previous != Connection.TRANSACTION_READ_COMMITTED) {
        con.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      }
      boolean autoCommit = con.getAutoCommit();
      if (autoCommit) {
        con.setAutoCommit(false);
      }
      try {
        for (Step step : plan.steps()) {
          long s0 = System.nanoTime();
          execute(con, step, roles, r, scale);
          c.stmtLatency.record(System.nanoTime() - s0);
          done++;
          if (step.statement().isSelect()) {
            selects++;
          }
          if (step.statement().length() >= 256) {
            long256++;
          }
        }
        con.commit();
      } catch (SQLException e) {
        try {
          con.rollback();
        } catch (SQLException ignored) {
          // The connection is broken; Hikari evicts it.
        }
        throw e;
      } finally {
        if (autoCommit) {
          con.setAutoCommit(true);
        }
        if (previous != Connection.TRANSACTION_READ_COMMITTED) {
          con.setTransactionIsolation(previous);
        }
      }
      c.transactions.increment();
      c.byType.get(plan.type()).increment();
      c.txLatency.record(System.nanoTime() - t0);
    } catch (SQLException e) {
      c.errors.increment();
      if (c.samples.size() < 5) {
        c.samples.add(plan.type().label() + ": " + e.getMessage());
      }
    } finally {
      c.statements.add(done);
      c.selects.add(selects);
      c.writes.add(done - selects);
      c.long256.add(long256);
    }
  }

  private void execute(Connection con, Step step, Map<String, Long> roles, SplittableRandom r, double scale)
      throws SQLException {
    SqlStatement st = step.statement();
    boolean insert = st.kind() == SqlStatement.Kind.INSERT;
    // Closed after each use, as an ORM does: with a statement cache that returns it to the cache.
    try (PreparedStatement ps =
        insert ? con.prepareStatement(st.sql(), Statement.RETURN_GENERATED_KEYS) : con.prepareStatement(st.sql())) {
      List<Param> params = st.params();
      for (int i = 0; i < params.size(); i++) {
        ps.setObject(i + 1, bind(params.get(i), step, roles, r, scale));
      }
      if (st.isSelect()) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      } else {
        ps.executeUpdate();
        if (insert) {
          try (ResultSet keys = ps.getGeneratedKeys()) {
            if (keys.next()) {
              // The new row plays its table's role for the rest of the transaction.
              roles.put(st.params().get(0).table(), keys.getLong(1));
            }
          }
        }
      }
    }
  }

  /** The value of one placeholder: the id of the entity in its role, or a fresh value. */
  Object bind(Param p, Step step, Map<String, Long> roles, SplittableRandom r, double scale) {
    Table t = schema.table(p.table());
    String role = step.role(p.role());
    if (role == null) {
      return Values.nonNull(t, t.column(p.column()), r);
    }
    long id = roleId(role, roles, r, scale);
    return p.column().equals("code") ? Values.code(p.table(), id) : id;
  }

  private long roleId(String role, Map<String, Long> roles, SplittableRandom r, double scale) {
    Long id = roles.get(role);
    if (id == null) {
      int hash = role.indexOf('#');
      long rows = schema.table(hash < 0 ? role : role.substring(0, hash)).rows(scale);
      id = 1 + r.nextLong(rows);
      roles.put(role, id);
    }
    return id;
  }
}
