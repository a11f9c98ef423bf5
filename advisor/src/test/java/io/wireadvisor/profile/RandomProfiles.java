package io.wireadvisor.profile;

import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Builds random but internally consistent profiles for property tests. */
final class RandomProfiles {
  private static final String[] INSTANCES = {"app-1:101", "app-2:202", "proxy:4001"};
  private static final String[] URL_PROPS = {"", "useServerPrepStmts=true", "cachePrepStmts=true"};
  private static final String[] CAUSES = {"getTransactionIsolation", "isReadOnly", "hikari.reset"};

  private RandomProfiles() {}

  static TrafficProfile profile(long seed) {
    Random r = new Random(seed);
    TrafficProfile p = new TrafficProfile();
    int sources = r.nextInt(3);
    for (int i = 0; i < sources; i++) {
      String props = URL_PROPS[r.nextInt(URL_PROPS.length)];
      long start = 1_700_000_000_000L + r.nextInt(100_000);
      p.addSource(
          new Source(
              r.nextBoolean() ? Source.AGENT : Source.PROXY,
              "0.1.0",
              INSTANCES[r.nextInt(INSTANCES.length)],
              "MySQL Connector/J",
              "9.5.0",
              "8.0.11-TiDB-v8.5.3",
              "READ-COMMITTED",
              "jdbc:mysql://db:4000/bank?" + props,
              props.isEmpty() ? Map.<String, String>of() : Map.of(props.split("=")[0], "true"),
              start,
              start + r.nextInt(60_000)));
    }
    CommandType[] types = CommandType.values();
    for (int i = r.nextInt(5); i > 0; i--) {
      p.addCommand(
          types[r.nextInt(types.length)],
          new CommandStats(r.nextInt(1_000_000), r.nextBoolean() ? latencies(r) : null));
    }
    for (int i = r.nextInt(6); i > 0; i--) {
      p.addShape(shape(r));
    }
    ProbeKind[] kinds = ProbeKind.values();
    for (int i = r.nextInt(3); i > 0; i--) {
      ProbeStats probe = new ProbeStats();
      long count = r.nextInt(1000);
      probe.add(count);
      probe.addCause(CAUSES[r.nextInt(CAUSES.length)], count);
      p.addProbe(kinds[r.nextInt(kinds.length)], probe);
    }
    for (int i = r.nextInt(4); i > 0; i--) {
      long[] values = new long[ConnectionMetric.values().length];
      for (int j = 0; j < values.length; j++) {
        values[j] = (long) Math.abs(r.nextGaussian() * 200);
      }
      p.connections().recordConnection(values);
    }
    return p;
  }

  private static Histogram latencies(Random r) {
    Histogram h = new Histogram(Histogram.LATENCY_PRECISION);
    for (int i = r.nextInt(50) + 1; i > 0; i--) {
      h.record((long) Math.abs(r.nextGaussian() * 500_000));
    }
    return h;
  }

  /** Shapes come from a small pool of digests, each with fixed text, kind and tables. */
  private static ShapeStats shape(Random r) {
    int id = r.nextInt(8);
    ShapeStats s =
        new ShapeStats(
            "digest" + id,
            "select * from t" + id + " where id = ?",
            id % 2 == 0 ? StatementKind.SELECT : StatementKind.UPDATE,
            List.of("t" + id),
            id % 2 == 0 ? List.of() : List.of("t" + id),
            id == 7 ? ProbeKind.ISOLATION_READ : null,
            0,
            0);
    s.observeSqlLength(20 + r.nextInt(3000));
    for (Via via : Via.values()) {
      if (r.nextInt(3) == 0) {
        s.add(via, r.nextInt(10_000));
      }
    }
    if (r.nextBoolean()) {
      s.setLatency(latencies(r));
    }
    if (r.nextInt(4) == 0) {
      s.setSample("select * from t" + id + " where id = " + r.nextInt(100));
    }
    return s;
  }
}
