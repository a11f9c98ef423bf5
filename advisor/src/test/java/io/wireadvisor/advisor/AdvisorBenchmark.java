package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.List;
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
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Time to merge ten collectors' profiles (1,000,000 statements, 5,000 shapes) and analyze the
 * result against a TiDB server view; the target is under one second. Not a test; run by hand
 * from the repository root:
 *
 * <pre>
 * mvn -q -pl advisor -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java -cp advisor/target/test-classes:advisor/target/classes:$(cat advisor/target/test.classpath) \
 *     io.wireadvisor.advisor.AdvisorBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AdvisorBenchmark {
  private List<TrafficProfile> parts;
  private ServerView server;

  @Setup
  public void setup() {
    parts = LargeProfiles.tenCollectors();
    server = BankLikeProfiles.tidb(1);
  }

  @Benchmark
  public Analysis mergeAndAnalyze() {
    return Advisor.analyze(parts, server);
  }

  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    new Runner(new OptionsBuilder()
        .parent(new CommandLineOptions(args))
        .include(AdvisorBenchmark.class.getName())
        .build()).run();
  }
}
