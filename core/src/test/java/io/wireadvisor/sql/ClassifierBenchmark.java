package io.wireadvisor.sql;

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
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Cost of classifying one ORM-sized statement (~300 chars, the size that matters for
 * Connector/J's {@code prepStmtCacheSqlLimit}): a full classification and normalization alone.
 * (The collectors classify a text once per shape: repeated texts are found in the recorder's
 * byte-bounded text and shape maps, not classified again.) Not a test; run by hand from the repository root:
 *
 * <pre>
 * mvn -q -pl advisor -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java -cp advisor/target/test-classes:advisor/target/classes:$(cat advisor/target/test.classpath) \
 *     io.wireadvisor.sql.ClassifierBenchmark [JMH options, e.g. -prof gc]
 * </pre>
 *
 * (Plain {@code java}, not {@code exec:java}: JMH forks a JVM from the launching JVM's class path.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ClassifierBenchmark {
  /** Hibernate 6 style, 324 characters. */
  static final String ORM_SQL = "select a1_0.id,a1_0.balance,a1_0.branch_id,a1_0.customer_id,"
      + "a1_0.currency,a1_0.status,a1_0.opened_at,a1_0.version,b1_0.id,b1_0.code,b1_0.name,"
      + "b1_0.region from accounts a1_0 join branches b1_0 on b1_0.id=a1_0.branch_id "
      + "where a1_0.customer_id=? and a1_0.status in (?,?,?) and b1_0.region=? "
      + "order by a1_0.opened_at desc limit ?";

  private String sql;

  @Setup
  public void setup() {
    // A distinct String instance, as a driver would hand over.
    sql = new String(ORM_SQL.toCharArray());
  }

  @Benchmark
  public Classification classify() {
    return SqlClassifier.classify(sql);
  }

  @Benchmark
  public String normalizeOnly() {
    return SqlClassifier.normalize(sql);
  }

  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    new Runner(new OptionsBuilder()
        .parent(new CommandLineOptions(args))
        .include(ClassifierBenchmark.class.getName())
        .build()).run();
  }
}
