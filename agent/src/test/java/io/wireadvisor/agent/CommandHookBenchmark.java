package io.wireadvisor.agent;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * What the agent adds to one command on the wire: the enter advice's {@code System.nanoTime()}
 * and the exit advice's {@link Hooks#command} (type counter, latency histogram, connection lookup,
 * shape lookup from the payload bytes, shape counters), for a warm connection. Compare with the
 * {@code nanoTimeOnly} baseline. Not a test; run by hand from the repository root:
 *
 * <pre>
 * mvn -q -pl agent -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java -cp agent/target/test-classes:agent/target/classes:$(cat agent/target/test.classpath) \
 *     io.wireadvisor.agent.CommandHookBenchmark -prof gc
 * </pre>
 *
 * ({@code -prof gc} reports {@code gc.alloc.rate.norm}: bytes allocated per command.) On a busy
 * machine compare builds with {@link CommandHookCpuTime}, which runs these cases by CPU time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CommandHookBenchmark {
  /** Stands in for a connection's NativeProtocol: the agent only uses its identity. */
  private final Object connection = new Object();

  private byte[] shortQuery;
  private byte[] ormQuery;
  private byte[] execute;
  private final String template = "SELECT v FROM t WHERE id = ?";
  private final byte[][] literals = new byte[1024][];
  private int next;
  private byte[] close;
  private byte[] update;
  /** The OK of an UPDATE under autocommit: one row affected, status SERVER_STATUS_AUTOCOMMIT. */
  private final byte[] updateOk = {0, 1, 0, 2, 0, 0, 0};

  @Setup
  public void setUp() {
    Hooks.activate();
    shortQuery = packet(3, "SELECT v FROM t WHERE id = 42");
    // ~300 chars, the size of ORM SQL and of Connector/J's default prepStmtCacheSqlLimit.
    StringBuilder orm = new StringBuilder("SELECT t.id, t.v");
    for (int i = 0; orm.length() < 300; i++) {
      orm.append(", t.column_").append(i).append(" AS alias_").append(i);
    }
    orm.append(" FROM t WHERE t.id = ?");
    ormQuery = packet(3, orm.toString());
    // PREPARE it once (statement id 7), as the driver would, then EXECUTE by id.
    byte[] prepare = packet(22, orm.toString());
    byte[] prepareOk = {0, 7, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0};
    Hooks.command(connection, prepare, prepare.length, System.nanoTime(), prepareOk, false, false);
    execute = new byte[] {23, 7, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 0, 42, 0, 0, 0};
    close = new byte[] {25, 99, 0, 0, 0};
    update = packet(3, "UPDATE t SET v = v + 1 WHERE id = 42");
    for (int i = 0; i < literals.length; i++) {
      literals[i] = packet(3, "SELECT v FROM t WHERE id = " + (1_000_000 + i * 7919));
    }
  }

  private static byte[] packet(int command, String sql) {
    byte[] s = sql.getBytes(StandardCharsets.UTF_8);
    byte[] p = new byte[s.length + 1];
    p[0] = (byte) command;
    System.arraycopy(s, 0, p, 1, s.length);
    return p;
  }

  @Benchmark
  public long nanoTimeOnly() {
    return System.nanoTime();
  }

  @Benchmark
  public void comQueryShort() {
    Hooks.command(connection, shortQuery, shortQuery.length, System.nanoTime(), null, false, false);
  }

  @Benchmark
  public void comQueryOrmSized() {
    Hooks.command(connection, ormQuery, ormQuery.length, System.nanoTime(), null, false, false);
  }

  /** useServerPrepStmts=false: every execution is a new text; the template names its shape. */
  @Benchmark
  public void comQueryClientPreparedNewLiterals() {
    byte[] p = literals[next++ & (literals.length - 1)];
    String previous = Hooks.enterTemplate(template);
    Hooks.command(connection, p, p.length, System.nanoTime(), null, false, false);
    Hooks.exitTemplate(previous);
  }

  @Benchmark
  public void comStmtExecute() {
    Hooks.command(connection, execute, execute.length, System.nanoTime(), null, false, false);
  }

  @Benchmark
  public void comStmtCloseUnknownId() {
    Hooks.command(connection, close, close.length, System.nanoTime(), null, false, false);
  }

  /**
   * A DML statement as the driver runs it: {@code sendCommand} returns its OK (the exit advice's
   * {@link Hooks#command} with that packet), then {@code TextResultsetReader.read} turns the OK into
   * a result without rows, whose exit advice calls {@link Hooks#followingResult} with the status
   * the OK left in the driver's server session.
   */
  @Benchmark
  public void comQueryDmlWithOk() {
    Hooks.command(connection, update, update.length, System.nanoTime(), updateOk, false, false);
    Hooks.followingResult(connection, 2);
  }

  /** {@link Hooks#followingResult} alone, for an OK that was its reply's first packet. */
  @Benchmark
  public void followingResultAfterOk() {
    Hooks.followingResult(connection, 2);
  }

  public static void main(String[] args) throws Exception {
    CommandLineOptions cli = new CommandLineOptions(args);
    org.openjdk.jmh.runner.options.ChainedOptionsBuilder options =
        new org.openjdk.jmh.runner.options.OptionsBuilder().parent(cli);
    // JMH ORs includes: adding the class's name would run every case despite a regex argument.
    if (cli.getIncludes().isEmpty()) {
      options.include(CommandHookBenchmark.class.getName());
    }
    new Runner(options.build()).run();
  }
}
