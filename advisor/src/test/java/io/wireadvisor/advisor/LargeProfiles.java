package io.wireadvisor.advisor;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.StatementKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Profiles at the size the advisor must handle: many collectors, the default shape cap. */
final class LargeProfiles {
  static final int COLLECTORS = 10;
  static final int SHAPES = 5000;
  static final long STATEMENTS_PER_SHAPE = 20;

  private LargeProfiles() {}

  /**
   * Ten collectors' text-protocol profiles with the same 5,000 shapes, 100,000 statements each:
   * 1,000,000 statements once merged.
   */
  static List<TrafficProfile> tenCollectors() {
    List<TrafficProfile> parts = new ArrayList<>();
    for (int part = 0; part < COLLECTORS; part++) {
      TrafficProfile p = new TrafficProfile();
      p.addSource(new Source(Source.AGENT, null, "host:" + part, null, "9.5.0", null,
          "READ-COMMITTED", null, null, 0, 600_000));
      for (int i = 0; i < SHAPES; i++) {
        ShapeStats s = new ShapeStats(String.format("%032x", i), "select t" + (i % 300) + " " + i,
            i % 10 == 0 ? StatementKind.UPDATE : StatementKind.SELECT,
            Collections.singletonList("t" + (i % 300)), null, null, 300, 300 + i % 1000);
        s.add(Via.TEXT_EXECUTES, STATEMENTS_PER_SHAPE);
        p.addShape(s);
      }
      p.addCommand(CommandType.QUERY, new CommandStats(SHAPES * STATEMENTS_PER_SHAPE, null));
      parts.add(p);
    }
    return parts;
  }
}
