package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;

/**
 * Rule 5: TiDB's prepared plan cache is off, or smaller than the distinct statements a connection
 * uses. Version-aware: {@code tidb_session_plan_cache_size} from v7.1, {@code
 * tidb_prepared_plan_cache_size} before; {@code tidb_enable_prepared_plan_cache} is a variable from
 * v6.1 (a config item before).
 */
public final class PlanCacheRule implements Rule {
  public static final String ID = "tidb-plan-cache";
  static final String ENABLE = "tidb_enable_prepared_plan_cache";
  static final long DEFAULT_SIZE = 100;

  @Override
  public String id() {
    return ID;
  }

  /** The size variable's name on this TiDB version. */
  static String sizeVariable(ServerView server) {
    return server.version().atLeast(7, 1)
        ? "tidb_session_plan_cache_size"
        : "tidb_prepared_plan_cache_size";
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDB()) {
      return null;
    }
    Workload w = Workload.of(profile);
    JdbcSettings jdbc = JdbcSettings.of(profile);
    if (!w.preparesNowOrPlanned(profile, jdbc)) {
      return null;
    }
    boolean disabled = server.globalOff(ENABLE);
    String sizeVar = sizeVariable(server);
    long size = server.globalLong(sizeVar, DEFAULT_SIZE);
    long perConnection = w.shapesPerConnectionP99(profile);
    boolean tooSmall = perConnection > size;
    if (!disabled && !tooSmall) {
      return null;
    }
    long newSize = Fmt.roundUp((long) Math.ceil(perConnection * 1.25));
    Recommendation.Builder r =
        Recommendation.builder(
            ID,
            disabled ? "Turn TiDB's prepared plan cache on" : "Make TiDB's session plan cache larger",
            disabled ? Severity.HIGH : Severity.MEDIUM);
    if (disabled) {
      r.evidence(ENABLE + " = " + server.global(ENABLE) + ": no EXECUTE can reuse a plan.");
    }
    if (tooSmall) {
      r.evidence(
          "99th percentile of distinct statements per connection: "
              + Fmt.count(perConnection)
              + " > "
              + sizeVar
              + " = "
              + size
              + ": plans are evicted before they are reused.");
    }
    String summary = SummaryMatch.of(profile, server).evidence();
    if (summary != null) {
      r.evidence(summary);
    }
    r.evidence("Server: " + server.describe() + ".");
    Change.Builder change = Change.builder();
    if (disabled) {
      if (server.version().atLeast(6, 1)) {
        change.sql("SET GLOBAL " + ENABLE + " = ON;");
      } else {
        change.note(
            "Before v6.1 the plan cache is a config item: set prepared-plan-cache.enabled = true in"
                + " each tidb-server's config file and restart.");
      }
    }
    if (tooSmall) {
      change.sql("SET GLOBAL " + sizeVar + " = " + newSize + ";");
    }
    change.note("New sessions pick up GLOBAL values; recycle the pool for existing connections.");
    return r.change(change.build())
        .expectedEffect(
            "EXECUTE skips optimization when the plan is cached: lower TiDB CPU and latency per"
                + " statement.")
        .risk(
            "Each session caches up to the size in plans: memory grows with sessions x size"
                + " (tidb_prepared_plan_cache_memory_guard_ratio evicts under memory pressure)."
                + " Some statements are never cached (see SHOW WARNINGS after EXECUTE).")
        .verify(
            "STATEMENTS_SUMMARY PLAN_CACHE_HITS grow with EXEC_COUNT;"
                + " tidb_server_plan_cache_miss_total grows slowly; SELECT @@last_plan_from_cache"
                + " after a repeated EXECUTE returns 1.")
        .expect(Expectation.serverSide("plan cache hit ratio rises (server-side)"))
        .build();
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.compileTime(r, false);
  }
}
