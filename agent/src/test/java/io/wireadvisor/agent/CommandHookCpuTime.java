package io.wireadvisor.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link CommandHookBenchmark}'s cases timed by the thread's CPU time rather than the wall clock:
 * on a machine other work keeps busy (the shared 2-core build machine at load 5 to 13), JMH's
 * wall-clock scores of two builds run one after the other differed by up to 2x for the same
 * code, while the CPU time a thread spent per command stayed within a few percent. Not a test; run
 * by hand, one JVM per case (as JMH forks), from the repository root after the classpath step of
 * {@link CommandHookBenchmark}:
 *
 * <pre>
 * java -cp agent/target/test-classes:agent/target/classes:$(cat agent/target/test.classpath) \
 *     io.wireadvisor.agent.CommandHookCpuTime 2000000 5 comQueryShort
 * </pre>
 *
 * (arguments: commands per batch, batches, the cases). Each case warms up for 3 s, then prints
 * per batch {@code cpu/wall} nanoseconds per command. Compare two builds by alternating them,
 * case by case, and taking the median of the per-round ratios.
 */
public final class CommandHookCpuTime {
  private static volatile long sink;

  private CommandHookCpuTime() {}

  public static void main(String[] args) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long n = Long.parseLong(args[0]);
    int batches = Integer.parseInt(args[1]);
    for (int k = 2; k < args.length; k++) {
      String name = args[k];
      CommandHookBenchmark b = new CommandHookBenchmark();
      b.setUp();
      long warm = System.nanoTime() + 3_000_000_000L; // C2 done with the hook
      while (System.nanoTime() < warm) {
        sink += run(name, b, n / 4);
      }
      StringBuilder line = new StringBuilder(name);
      for (int i = 0; i < batches; i++) {
        long cpu = threads.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        sink += run(name, b, n);
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        wall = System.nanoTime() - wall;
        line.append(String.format(" %.2f/%.2f", cpu / (double) n, wall / (double) n));
      }
      System.out.println(line);
    }
  }

  // One loop per case, as JMH generates one stub per benchmark: a shared call site would mix the
  // cases' profiles.
  private static long run(String name, CommandHookBenchmark b, long n) {
    switch (name) {
      case "nanoTimeOnly":
        return nanoTimeOnly(b, n);
      case "comQueryShort":
        return comQueryShort(b, n);
      case "comQueryOrmSized":
        return comQueryOrmSized(b, n);
      case "comQueryClientPreparedNewLiterals":
        return comQueryClientPreparedNewLiterals(b, n);
      case "comStmtExecute":
        return comStmtExecute(b, n);
      case "comStmtCloseUnknownId":
        return comStmtCloseUnknownId(b, n);
      case "comQueryDmlWithOk":
        return comQueryDmlWithOk(b, n);
      case "followingResultAfterOk":
        return followingResultAfterOk(b, n);
      default:
        throw new IllegalArgumentException("no such case: " + name);
    }
  }

  private static long nanoTimeOnly(CommandHookBenchmark b, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
      s += b.nanoTimeOnly();
    }
    return s;
  }

  private static long comQueryShort(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.comQueryShort();
    }
    return n;
  }

  private static long comQueryOrmSized(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.comQueryOrmSized();
    }
    return n;
  }

  private static long comQueryClientPreparedNewLiterals(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.comQueryClientPreparedNewLiterals();
    }
    return n;
  }

  private static long comStmtExecute(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.comStmtExecute();
    }
    return n;
  }

  private static long comStmtCloseUnknownId(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.comStmtCloseUnknownId();
    }
    return n;
  }

  private static long comQueryDmlWithOk(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.comQueryDmlWithOk();
    }
    return n;
  }

  private static long followingResultAfterOk(CommandHookBenchmark b, long n) {
    for (long i = 0; i < n; i++) {
      b.followingResultAfterOk();
    }
    return n;
  }
}
