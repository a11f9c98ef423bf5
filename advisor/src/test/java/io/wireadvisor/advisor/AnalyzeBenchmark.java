package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.Histogram;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.StatementKind;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;
import java.util.Collections;
import java.util.Locale;

/**
 * Issue 14's size: {@code analyze} of a profile merged from 50 sources with 5,000 shapes and 10^8
 * counted commands (every shape and command with a latency histogram), target under 1 s and
 * 256 MiB. Not a test; run by hand from the repository root, with the heap capped so that the
 * memory bound is proven, not just measured:
 *
 * <pre>
 * mvn -q -pl advisor -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java -Xmx256m -cp advisor/target/test-classes:advisor/target/classes:$(cat advisor/target/test.classpath) \
 *     io.wireadvisor.advisor.AnalyzeBenchmark [rounds]
 * </pre>
 *
 * Prints the merge+analyze time of each round (after two warm-up rounds), the median and its
 * spread, and the peak heap used.
 */
public final class AnalyzeBenchmark {
  static final int SOURCES = 50;
  static final int SHAPES = 5000;
  /** 50 x 5,000 x 400 = 10^8 commands. */
  static final long PER_SHAPE = 400;

  private AnalyzeBenchmark() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    double[] ms = new double[rounds];
    for (int r = -2; r < rounds; r++) {
      // Each source's profile is made (as the CLI reads a file) and merged, one at a time; the
      // time is the merges and the analysis, not the making.
      TrafficProfile merged = new TrafficProfile();
      long took0 = 0;
      for (int part = 0; part < SOURCES; part++) {
        TrafficProfile p = profile(part);
        long t = System.nanoTime();
        merged.addAll(p);
        took0 += System.nanoTime() - t;
      }
      long t0 = System.nanoTime() - took0;
      if (r == -2) {
        System.out.printf(Locale.ROOT, "%d sources, %d shapes each, %,d commands merged%n", SOURCES, SHAPES,
            merged.totalCommands());
      }
      Analysis a = Advisor.analyze(merged, BankLikeProfiles.tidb(1));
      double took = (System.nanoTime() - t0) / 1e6;
      if (r >= 0) {
        ms[r] = took;
        System.out.printf(Locale.ROOT, "round %d: %.0f ms, %d recommendations, %d top statements%n",
            r + 1, took, a.recommendations().size(), a.topStatements().size());
      }
    }
    Arrays.sort(ms);
    long oldGenPeak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getName().toLowerCase(Locale.ROOT).contains("old")) {
        oldGenPeak = Math.max(oldGenPeak, pool.getPeakUsage().getUsed());
      }
    }
    System.out.printf(Locale.ROOT, "median %.0f ms (min %.0f, max %.0f); every round within a %d MiB heap"
            + " (no OutOfMemoryError), old generation peak %d MiB%n",
        ms[rounds / 2], ms[0], ms[rounds - 1], Runtime.getRuntime().maxMemory() >> 20, oldGenPeak >> 20);
  }

  static TrafficProfile profile(int part) {
    {
      TrafficProfile p = new TrafficProfile();
      p.addSource(new Source(Source.AGENT, null, "host:" + part, null, "9.5.0",
          BankLikeProfiles.TIDB_VERSION, "READ-COMMITTED", "jdbc:mysql://tidb:4000/bank", null, 0, 600_000));
      Histogram h = new Histogram(Histogram.LATENCY_PRECISION);
      for (int i = 0; i < 100; i++) {
        h.record(200_000 + 10_000L * i);
      }
      for (int i = 0; i < SHAPES; i++) {
        ShapeStats s = new ShapeStats(String.format("%032x", i), "select c from t" + (i % 300) + " where id = ? /* " + i + " */",
            i % 10 == 0 ? StatementKind.UPDATE : StatementKind.SELECT,
            Collections.singletonList("bank.t" + (i % 60)), null, null, 300, 300 + i % 1000);
        s.add(Via.TEXT_EXECUTES, PER_SHAPE);
        s.setLatency(h.copy());
        p.addShape(s);
      }
      p.addCommand(CommandType.QUERY, new CommandStats(SHAPES * PER_SHAPE, h.copy()));
      p.addStatementsUnder("READ-COMMITTED", SHAPES * PER_SHAPE);
      return p;
    }
  }
}
