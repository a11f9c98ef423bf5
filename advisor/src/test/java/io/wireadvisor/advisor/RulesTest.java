package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.TableInfo;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RulesTest {
  static final ServerView TIDB_1 = BankLikeProfiles.tidb(1);

  static Map<String, String> props(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  /** The bank baseline with other JDBC properties recorded (traffic unchanged). */
  static TrafficProfile withProps(TrafficProfile base, Map<String, String> props) {
    TrafficProfile p = new TrafficProfile();
    TrafficProfile copy = new TrafficProfile();
    copy.addAll(base);
    Source s = base.sources().get(0);
    p.addSource(new Source(s.collector(), s.collectorVersion(), s.instance(), s.driverName(),
        s.driverVersion(), s.serverVersion(), s.isolation(), s.jdbcUrl(), props, s.startMillis(),
        s.endMillis()));
    for (ShapeStats sh : copy.shapes().values()) {
      p.addShape(sh);
    }
    for (Map.Entry<CommandType, CommandStats> e : copy.commands().entrySet()) {
      p.addCommand(e.getKey(), e.getValue());
    }
    for (Map.Entry<ProbeKind, ProbeStats> e : copy.probes().entrySet()) {
      p.addProbe(e.getKey(), e.getValue());
    }
    p.connections().add(copy.connections());
    return p;
  }

  @Nested
  class TextProtocol {
    final Rule rule = new TextProtocolRule();

    @Test
    void firesOnRepeatedTextStatementsWithPlanCacheEvidenceOnTiDB() {
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(1), TIDB_1);
      assertThat(r.severity()).isEqualTo(Severity.HIGH);
      assertThat(r.evidence().get(0)).startsWith("200 of 200 statement shapes");
      assertThat(r.change().notes()).anyMatch(n -> n.contains("tidb_enable_non_prepared_plan_cache"));
      assertThat(r.expectations().get(0).description())
          .isEqualTo("COM_QUERY text share of statements goes from 1.00 to at most 0.10");
    }

    @Test
    void doesNotFireWhenUseServerPrepStmtsIsAlreadyOn() {
      TrafficProfile p = withProps(BankLikeProfiles.scenario(1), props("useServerPrepStmts", "true"));
      assertThat(rule.evaluate(p, TIDB_1)).isNull();
    }

    @Test
    void nonPreparedPlanCacheIsOnlyMentionedFromTiDB70() {
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(1), ServerView.builder("5.7.25-TiDB-v6.5.0").build());
      assertThat(r.change().notes()).noneMatch(n -> n.contains("non_prepared"));
    }

    @Test
    void doesNotFireOnAFewOneOffTextStatements() {
      TrafficProfile p = new TrafficProfile();
      p.addShape(shape("a", StatementKind.SELECT, 300, Via.TEXT_EXECUTES, 5));
      assertThat(rule.evaluate(p, null)).isNull();
    }
  }

  @Nested
  class SessionProbes {
    final Rule rule = new SessionProbeRule();

    @Test
    void firesAndNamesTheCausingCalls() {
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(1), null);
      assertThat(r.change().jdbcProperties()).containsOnlyKeys("useConfigs");
      assertThat(r.evidence()).anyMatch(e -> e.contains("getTransactionIsolation"));
      assertThat(r.expectations().get(0).metric()).isEqualTo(Metric.STATE_READS_PER_STATEMENT);
    }

    /** Reads and SETs of one transaction shape: per statement, 1 isolation read and 2 autocommit SETs. */
    TrafficProfile probing(long isolationReads, long autocommitSets) {
      TrafficProfile p = new TrafficProfile();
      p.addShape(shape("a", StatementKind.SELECT, 300, Via.EXECUTES, 1000));
      if (isolationReads > 0) {
        ProbeStats reads = new ProbeStats();
        reads.add(isolationReads);
        reads.addCause("getTransactionIsolation", isolationReads);
        p.addProbe(ProbeKind.ISOLATION_READ, reads);
      }
      ProbeStats sets = new ProbeStats();
      sets.add(autocommitSets);
      sets.addCause("setAutoCommit", autocommitSets);
      p.addProbe(ProbeKind.AUTOCOMMIT_SET, sets);
      return p;
    }

    @Test
    void promisesOnlyTheReadsBecauseSetsThatChangeStateStay() {
      Recommendation r = rule.evaluate(probing(1000, 2000), null);
      assertThat(r.expectations()).hasSize(1);
      // maxPerformance answered the reads locally; the transaction's SET autocommit pair remains.
      assertThat(r.expectations().get(0).check(probing(0, 2000)).status())
          .isEqualTo(Expectation.Outcome.Status.MET);
      assertThat(r.expectations().get(0).check(probing(500, 2000)).status())
          .isEqualTo(Expectation.Outcome.Status.NOT_MET);
      assertThat(r.expectedEffect()).contains("1,000 round trips fewer", "still sent");
    }

    @Test
    void firesOnSetsAloneWithoutPromisingAMeasurableDrop() {
      Recommendation r = rule.evaluate(probing(0, 2000), null);
      assertThat(r).isNotNull();
      assertThat(r.expectations()).isEmpty();
    }

    @Test
    void doesNotFireWithMaxPerformanceOrLocalSessionState() {
      assertThat(rule.evaluate(withProps(BankLikeProfiles.scenario(1), props("useConfigs", "maxPerformance")), null)).isNull();
      assertThat(rule.evaluate(withProps(BankLikeProfiles.scenario(1), props("useLocalSessionState", "true")), null)).isNull();
    }

    @Test
    void olderDriversGetTheIndividualProperties() {
      TrafficProfile base = BankLikeProfiles.scenario(1);
      TrafficProfile p = new TrafficProfile();
      p.addAll(withProps(base, props("useServerPrepStmts", "false")));
      TrafficProfile old = new TrafficProfile();
      old.addSource(new Source(Source.AGENT, null, "x", "MySQL Connector/J", "8.0.28", null, null, null,
          props("useServerPrepStmts", "false"), 0, 600_000));
      for (ShapeStats s : p.shapes().values()) {
        old.addShape(s);
      }
      for (Map.Entry<ProbeKind, ProbeStats> e : p.probes().entrySet()) {
        old.addProbe(e.getKey(), e.getValue());
      }
      Recommendation r = rule.evaluate(old, null);
      assertThat(r.change().jdbcProperties()).containsEntry("useLocalSessionState", "true")
          .doesNotContainKey("useConfigs");
    }
  }

  @Nested
  class StatementCache {
    final Rule rule = new StatementCacheRule();

    @Test
    void firesWhenCacheIsOnButTooSmallAndLimitTooLow() {
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(4), null);
      assertThat(r.change().jdbcProperties()).containsEntry("prepStmtCacheSize", "125")
          .containsEntry("prepStmtCacheSqlLimit", "2048");
    }

    @Test
    void firesOnlyForTheLimitWhenTheSizeIsEnough() {
      TrafficProfile p = withProps(BankLikeProfiles.scenario(3),
          props("useServerPrepStmts", "true", "cachePrepStmts", "true", "prepStmtCacheSize", "500"));
      assertThat(rule.evaluate(p, null).change().jdbcProperties())
          .containsOnlyKeys("prepStmtCacheSqlLimit");
    }

    @Test
    void doesNotFireWhenTheCacheFitsTheWorkload() {
      TrafficProfile p = withProps(BankLikeProfiles.scenario(3), props("useServerPrepStmts", "true",
          "cachePrepStmts", "true", "prepStmtCacheSize", "85", "prepStmtCacheSqlLimit", "1801"));
      assertThat(rule.evaluate(p, null)).isNull();
    }

    @Test
    void withoutPropertiesJudgesByTrafficAlone() {
      TrafficProfile proxyLike = withProps(BankLikeProfiles.scenario(3), props());
      assertThat(rule.evaluate(proxyLike, null)).isNotNull();
      assertThat(rule.evaluate(withProps(BankLikeProfiles.scenario(5), props()), null)).isNull();
    }

    @Test
    void aProxysProfileOfTextTrafficGetsTheCacheWithTheServerSidePrepares() {
      // Scenario 1: text protocol, no JDBC properties known (as the proxy sees it).
      TrafficProfile proxyLike = withProps(BankLikeProfiles.scenario(1), props());
      assertThat(new TextProtocolRule().evaluate(proxyLike, null)).isNotNull();
      Recommendation r = rule.evaluate(proxyLike, null);
      assertThat(r).as("without the cache the prepares alone cost more round trips").isNotNull();
      assertThat(r.change().jdbcProperties()).containsEntry("cachePrepStmts", "true")
          .containsKeys("prepStmtCacheSize", "prepStmtCacheSqlLimit");
    }

    @Test
    void doesNotFireForTextTrafficThatStaysText() {
      TrafficProfile p = new TrafficProfile();
      p.addShape(shape("a", StatementKind.SELECT, 300, Via.TEXT_EXECUTES, 5));
      assertThat(rule.evaluate(p, null)).isNull();
    }
  }

  @Nested
  class CloseStmt {
    final Rule rule = new CloseStmtRule();

    @Test
    void firesOnCloseAfterExecuteOnTiDB6() {
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(3), ServerView.builder("5.7.25-TiDB-v6.0.0").build());
      assertThat(r.severity()).isEqualTo(Severity.HIGH);
      assertThat(r.change().sql()).containsExactly("SET GLOBAL tidb_ignore_prepared_cache_close_stmt = ON;");
    }

    @Test
    void doesNotFireWhenAlreadyOnBeforeV6OrOffTiDB() {
      assertThat(rule.evaluate(BankLikeProfiles.scenario(3), BankLikeProfiles.tidb(4))).isNull();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(3), ServerView.builder("5.7.25-TiDB-v5.4.3").build())).isNull();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(3), BankLikeProfiles.mariadb())).isNull();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(3), null)).isNull();
    }

    @Test
    void doesNotFireWhenNothingIsClosed() {
      assertThat(rule.evaluate(BankLikeProfiles.scenario(5), TIDB_1)).isNull();
    }
  }

  @Nested
  class PlanCache {
    final Rule rule = new PlanCacheRule();

    @Test
    void firesWhenDisabled() {
      ServerView off = TIDB_1.toBuilder().global("tidb_enable_prepared_plan_cache", "OFF").build();
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(5), off);
      assertThat(r.change().sql()).containsExactly("SET GLOBAL tidb_enable_prepared_plan_cache = ON;");
    }

    @Test
    void firesWhenTooSmallUsingTheVersionsVariable() {
      ServerView v8 = TIDB_1.toBuilder().global("tidb_session_plan_cache_size", "50").build();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(5), v8).change().sql())
          .containsExactly("SET GLOBAL tidb_session_plan_cache_size = 125;");
      ServerView v65 = ServerView.builder("5.7.25-TiDB-v6.5.0").global("tidb_enable_prepared_plan_cache", "ON")
          .global("tidb_prepared_plan_cache_size", "50").build();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(5), v65).change().sql())
          .containsExactly("SET GLOBAL tidb_prepared_plan_cache_size = 125;");
    }

    @Test
    void doesNotFireWhenOnAndLargeEnoughOrNotTiDB() {
      assertThat(rule.evaluate(BankLikeProfiles.scenario(5), TIDB_1)).isNull();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(5), BankLikeProfiles.mariadb())).isNull();
    }
  }

  @Nested
  class RcReadCheck {
    final Rule rule = new RcReadCheckRule();

    @Test
    void firesForReadHeavyReadCommitted() {
      Recommendation r = rule.evaluate(BankLikeProfiles.scenario(1), TIDB_1);
      assertThat(r.evidence().get(0)).contains("90.0%");
      assertThat(r.change().notes().get(0)).contains("Instance-scoped");
    }

    @Test
    void doesNotFireWhenOnOrRepeatableReadOrReplicaRead() {
      assertThat(rule.evaluate(BankLikeProfiles.scenario(1), BankLikeProfiles.tidb(6))).isNull();
      TrafficProfile rr = new TrafficProfile();
      rr.addShape(shape("a", StatementKind.SELECT, 30, Via.EXECUTES, 1000));
      ServerView rrServer = TIDB_1.toBuilder().isolation("REPEATABLE-READ").build();
      assertThat(rule.evaluate(rr, rrServer)).isNull();
      ServerView follower = TIDB_1.toBuilder().global("tidb_replica_read", "follower").build();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(1), follower)).isNull();
    }

    @Test
    void doesNotFireUnderWriteConflictOrWithCursors() {
      TrafficProfile p = new TrafficProfile();
      p.addShape(shape("a", StatementKind.SELECT, 30, Via.EXECUTES, 9000));
      ShapeStats w = shape("b", StatementKind.UPDATE, 30, Via.EXECUTES, 1000);
      w.add(Via.ERRORS, 50);
      p.addShape(w);
      assertThat(rule.evaluate(p, TIDB_1)).isNull();
      TrafficProfile cursor = new TrafficProfile();
      ShapeStats c = shape("c", StatementKind.SELECT, 30, Via.EXECUTES, 9000);
      c.add(Via.FETCHES, 10);
      cursor.addShape(c);
      assertThat(rule.evaluate(cursor, TIDB_1)).isNull();
    }

    /** A SELECT (locking or not) of one table, or a write of it. */
    ShapeStats on(String digest, StatementKind kind, String table, boolean locking, long n) {
      boolean read = kind == StatementKind.SELECT;
      ShapeStats s = new ShapeStats(digest, kind + " " + table + (locking ? " for update" : ""), kind,
          read ? Collections.singletonList(table) : null, read ? null : Collections.singletonList(table),
          null, 40, 40);
      if (locking) {
        s.markLockingRead();
      }
      s.add(Via.EXECUTES, n);
      return s;
    }

    @Test
    void selectForUpdateIsNotARead() {
      // Issue 25's TPC-C: 72% SELECTs, 44% without the locking ones.
      TrafficProfile p = new TrafficProfile();
      p.addShape(on("r", StatementKind.SELECT, "item", false, 4_400));
      p.addShape(on("l", StatementKind.SELECT, "district", true, 2_800));
      p.addShape(on("u", StatementKind.UPDATE, "district", false, 2_800));
      assertThat(Workload.of(p).selectShare()).isEqualTo(0.72);
      assertThat(Workload.of(p).nonLockingReadShare()).isEqualTo(0.44);
      assertThat(rule.evaluate(p, TIDB_1)).isNull();
      assertThat(rule.withheld(p, TIDB_1)).isEmpty();
    }

    @Test
    void readsOfRowsTheApplicationLocksAreHotRowsAndWithheld() {
      TrafficProfile p = new TrafficProfile();
      p.addShape(on("r", StatementKind.SELECT, "district", false, 8_000));
      p.addShape(on("l", StatementKind.SELECT, "district", true, 500));
      p.addShape(on("u", StatementKind.UPDATE, "district", false, 1_500));
      assertThat(rule.evaluate(p, TIDB_1)).isNull();
      assertThat(rule.withheld(p, TIDB_1)).extracting(Withheld::message).containsExactly(
          "withheld tidb_rc_read_check_ts = ON: hot rows: 8,000 of 8,000 non-locking reads (100.0%) read"
              + " tables written or locked in the window, 8,000 (100.0%) tables locked by SELECT ... FOR"
              + " UPDATE: district (1,500 writes, 500 locking reads, 8,000 reads); TiDB advises the check"
              + " only where reads rarely meet newer writes (each read that does is retried with a new"
              + " TSO) (need under 50.0% of non-locking reads on locked tables; have 100.0%)");
    }

    @Test
    void firesBesideAFewLockedRowsAndNamesThemAsTheRisk() {
      TrafficProfile p = new TrafficProfile();
      p.addShape(on("r", StatementKind.SELECT, "item", false, 7_000));
      p.addShape(on("d", StatementKind.SELECT, "district", false, 1_000));
      p.addShape(on("l", StatementKind.SELECT, "district", true, 500));
      p.addShape(on("u", StatementKind.UPDATE, "district", false, 1_500));
      Recommendation r = rule.evaluate(p, TIDB_1);
      assertThat(r).isNotNull();
      assertThat(r.evidence().get(0)).contains("80.0% of 10,000 statements are non-locking reads (500 locking reads");
      assertThat(r.evidence().get(1)).isEqualTo("Reads that may meet newer writes: 1,000 of 8,000 non-locking"
          + " reads (12.5%) read tables written or locked in the window, 1,000 (12.5%) tables locked by"
          + " SELECT ... FOR UPDATE: district (1,500 writes, 500 locking reads, 1,000 reads).");
      assertThat(r.risk()).contains("hot rows").contains("Watch [district]");
    }
  }

  @Nested
  class TableCache {
    final Rule rule = new TableCacheRule();

    @Test
    void neverPartitionedTemporaryViewsBigOrAlreadyCached() {
      ServerView.Builder b = ServerView.builder(BankLikeProfiles.TIDB_VERSION).defaultSchema("bank");
      b.table(new TableInfo("bank", "part", 1 << 20, 0, true, false, false, false));
      b.table(new TableInfo("bank", "tmp", 1 << 20, 0, false, true, false, false));
      b.table(new TableInfo("bank", "v", 0, 0, false, false, true, false));
      b.table(TableInfo.table("bank", "big", 60L << 20, 8L << 20));
      b.table(new TableInfo("bank", "done", 1 << 20, 0, false, false, false, true));
      b.table(TableInfo.table("bank", "ok", 1 << 20, 0));
      TrafficProfile p = new TrafficProfile();
      p.addSource(new Source(Source.AGENT, null, "x", null, null, null, null, null, null, 0, 60_000));
      int i = 0;
      for (String t : new String[] {"part", "tmp", "v", "big", "done", "ok"}) {
        ShapeStats s = new ShapeStats("d" + i++, "select from " + t, StatementKind.SELECT,
            Collections.singletonList(t), null, null, 30, 30);
        s.add(Via.EXECUTES, 1000);
        p.addShape(s);
      }
      Recommendation r = rule.evaluate(p, b.build());
      assertThat(r.change().sql()).containsExactly("ALTER TABLE `bank`.`ok` CACHE;");
      assertThat(rule.evaluate(p, ServerView.builder("5.7.25-TiDB-v5.4.0").table(TableInfo.table("bank", "ok", 1, 0))
          .defaultSchema("bank").build())).isNull();
    }

    @Test
    void doesNotFireWhenEveryCandidateIsCached() {
      assertThat(rule.evaluate(BankLikeProfiles.scenario(1), BankLikeProfiles.tidb(7))).isNull();
      assertThat(rule.evaluate(BankLikeProfiles.scenario(1), BankLikeProfiles.mariadb())).isNull();
    }
  }

  @Nested
  class BatchRewrite {
    final Rule rule = new BatchRewriteRule();

    TrafficProfile batched(String rewrite, long wire) {
      TrafficProfile p = new TrafficProfile();
      p.addSource(new Source(Source.AGENT, null, "x", null, null, null, null, null,
          props("rewriteBatchedStatements", rewrite), 0, 60_000));
      ShapeStats s = shape("ins", StatementKind.INSERT, 60, Via.TEXT_EXECUTES, wire);
      s.add(Via.BATCHES, 100);
      s.add(Via.BATCHED_STATEMENTS, 5000);
      p.addShape(s);
      return p;
    }

    @Test
    void firesOnBatchesSentRowByRow() {
      Recommendation r = rule.evaluate(batched("false", 5000), null);
      assertThat(r.change().jdbcProperties()).containsEntry("rewriteBatchedStatements", "true");
      assertThat(r.expectations().get(0).check(batched("true", 100)).status())
          .isEqualTo(Expectation.Outcome.Status.MET);
    }

    @Test
    void theTargetLeavesRoomForTheSameShapesExecutionsOutsideBatches() {
      // 5,000 batched rows plus 2,000 single executions of the same INSERT.
      Recommendation r = rule.evaluate(batched("false", 7000), null);
      assertThat(r.evidence()).anyMatch(e -> e.contains("2,000 of them executions outside executeBatch()"));
      Expectation e = r.expectations().get(0);
      // Rewritten: 100 batch commands + the 2,000 singles, per batched row = 0.42.
      assertThat(e.check(batched("true", 2100)).status()).isEqualTo(Expectation.Outcome.Status.MET);
      // Not rewritten after all: still one command per row.
      assertThat(e.check(batched("true", 7000)).status()).isEqualTo(Expectation.Outcome.Status.NOT_MET);
    }

    @Test
    void doesNotFireWhenRewriteIsOnOrAlreadyRewritten() {
      assertThat(rule.evaluate(batched("true", 5000), null)).isNull();
      assertThat(rule.evaluate(batched("false", 100), null)).isNull();
    }
  }

  @Nested
  class PoolValidation {
    final Rule rule = new PoolValidationRule();

    TrafficProfile pinging(long pings, long validations) {
      TrafficProfile p = new TrafficProfile();
      p.addShape(shape("a", StatementKind.SELECT, 30, Via.EXECUTES, 1000));
      p.addCommand(CommandType.PING, new CommandStats(pings, null));
      if (validations > 0) {
        ProbeStats v = new ProbeStats();
        v.add(validations);
        v.addCause("hikari.validate", validations);
        p.addProbe(ProbeKind.VALIDATION_QUERY, v);
      }
      return p;
    }

    @Test
    void firesOnValidationPerBorrow() {
      Recommendation r = rule.evaluate(pinging(0, 900), null);
      assertThat(r.change().poolSettings()).containsKeys("connectionTestQuery", "keepaliveTime");
      assertThat(rule.evaluate(pinging(900, 0), null).change().poolSettings())
          .doesNotContainKey("connectionTestQuery");
    }

    @Test
    void doesNotFireOnOccasionalValidation() {
      assertThat(rule.evaluate(pinging(20, 0), null)).isNull();
    }
  }

  static ShapeStats shape(String digest, StatementKind kind, int len, Via via, long n) {
    ShapeStats s = new ShapeStats(digest, kind + " " + digest, kind, null, null, null, len, len);
    s.add(via, n);
    return s;
  }
}
