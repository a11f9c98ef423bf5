package io.wireadvisor.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.sql.ProbeKind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProfileRecorderTest {

  @Test
  void theTrafficSpanRunsFromTheFirstToTheLastNonDdlExecution() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    r.shape("CREATE TABLE t (id INT)").record(Via.TEXT_EXECUTES, 1_000);
    r.shape("SELECT 1 FROM t").record(Via.PREPARES);
    assertThat(r.snapshot().firstStatementMillis()).as("DDL and PREPARE are not traffic").isZero();
    assertThat(r.snapshot().trafficSeconds()).isEqualTo(r.snapshot().windowSeconds());
    long before = System.currentTimeMillis();
    r.shape("SELECT 1 FROM t").record(Via.EXECUTES, 1_000);
    r.shape("UPDATE t SET id = 2").record(Via.TEXT_EXECUTES);
    long after = System.currentTimeMillis();
    TrafficProfile p = r.snapshot();
    // Monotonic times made wall-clock ones from the recorder's origin: within a millisecond.
    assertThat(p.firstStatementMillis()).isBetween(before, after + 1);
    assertThat(p.lastStatementMillis()).isBetween(p.firstStatementMillis(), after + 1);
    TrafficProfile merged = new TrafficProfile();
    merged.observeTraffic(before - 5_000, before - 4_000);
    merged.addAll(p);
    assertThat(merged.firstStatementMillis()).isEqualTo(before - 5_000);
    assertThat(merged.lastStatementMillis()).isEqualTo(p.lastStatementMillis());
  }

  @Test
  void textsOfOneShapeShareOneDigestAndItsCounters() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    r.shape("SELECT * FROM accounts WHERE id = 1").record(Via.TEXT_EXECUTES, 1000);
    r.shape("select * from accounts where id = 22").record(Via.TEXT_EXECUTES, 3000);
    TrafficProfile p = r.snapshot();
    assertThat(p.shapes()).hasSize(1);
    ShapeStats s = p.shapes().values().iterator().next();
    assertThat(s.count(Via.TEXT_EXECUTES)).isEqualTo(2);
    assertThat(s.latency().count()).isEqualTo(2);
    assertThat(s.minSqlLength()).isEqualTo(35);
    assertThat(s.maxSqlLength()).isEqualTo(36);
  }

  @Test
  void lockingReadsAreMarkedOnTheirShapeAndSurviveJsonAndMerges() throws Exception {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    r.shape("SELECT qty FROM stock WHERE id = 7 FOR UPDATE").record(Via.TEXT_EXECUTES, 1000);
    r.shape("SELECT qty FROM stock WHERE id = 8").record(Via.TEXT_EXECUTES, 1000);
    TrafficProfile p = r.snapshot();
    ShapeStats locking = null;
    ShapeStats plain = null;
    for (ShapeStats s : p.shapes().values()) {
      if (s.digestText().toUpperCase(java.util.Locale.ROOT).contains("FOR UPDATE")) {
        locking = s;
      } else {
        plain = s;
      }
    }
    assertThat(locking.lockingRead()).isTrue();
    assertThat(plain.lockingRead()).isFalse();

    String json = ProfileJson.toJson(p);
    assertThat(json).containsOnlyOnce("\"lockingRead\" : true");
    TrafficProfile back = ProfileJson.fromJson(json);
    assertThat(back.shapes().get(locking.digest()).lockingRead()).isTrue();
    assertThat(back.shapes().get(plain.digest()).lockingRead()).isFalse();
    assertThat(back.shapes()).isEqualTo(p.shapes());
    assertThat(TrafficProfile.mergeAll(java.util.Arrays.asList(new TrafficProfile(), back))
        .shapes().get(locking.digest()).lockingRead()).isTrue();
    assertThat(ProfileJson.toJson(back).replace("\"lockingRead\" : true", "\"lockingRead\" : 1"))
        .satisfies(bad -> org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProfileJson.fromJson(bad))
            .isInstanceOf(ProfileFormatException.class).hasMessageContaining("lockingRead"));
  }

  @Test
  void repeatedTextReturnsTheSameHandle() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    assertThat(r.shape("select 1 from t")).isSameAs(r.shape("select 1 from t"));
  }

  @Test
  void shapesBeyondTheCapGoToTheOverflowBucket() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults().withMaxShapes(10));
    for (int i = 0; i < 100; i++) {
      r.shape("select c" + i + " from t" + i).record(Via.TEXT_EXECUTES);
    }
    TrafficProfile p = r.snapshot();
    assertThat(p.shapes()).hasSize(10);
    assertThat(p.shape(ShapeStats.OVERFLOW_DIGEST).count(Via.TEXT_EXECUTES)).isEqualTo(91);
    assertThat(p.total(Via.TEXT_EXECUTES)).isEqualTo(100);
  }

  @Test
  void textMemoryIsBoundedWithoutLosingCounts() {
    ProfileRecorder r = new ProfileRecorder(new RecorderSettings(5000, 16, false));
    for (int i = 0; i < 1000; i++) {
      r.shape("select * from t where id = " + i).record(Via.TEXT_EXECUTES);
    }
    assertThat(r.snapshot().total(Via.TEXT_EXECUTES)).isEqualTo(1000);
  }

  @Test
  void noSqlSampleUnlessEnabled() {
    ProfileRecorder off = new ProfileRecorder(RecorderSettings.defaults());
    off.shape("select * from t where ssn = '123-45-6789'").record(Via.TEXT_EXECUTES);
    assertThat(ProfileJson.toJson(off.snapshot())).doesNotContain("123-45-6789");

    ProfileRecorder on = new ProfileRecorder(RecorderSettings.defaults().withSampleSql(true));
    on.shape("select * from t where ssn = '123-45-6789'").record(Via.TEXT_EXECUTES);
    assertThat(on.snapshot().shapes().values().iterator().next().sample()).contains("123-45-6789");
  }

  @Test
  void sampleSqlKeepsNoTextOfStatementsWhoseLiteralsAreCredentials() {
    ProfileRecorder on = new ProfileRecorder(RecorderSettings.defaults().withSampleSql(true));
    String[] credentials = {
      "CREATE USER 'app'@'%' IDENTIFIED BY 'Pa55-create'",
      "ALTER USER app IDENTIFIED WITH mysql_native_password BY 'Pa55-alter'",
      "SET PASSWORD FOR 'app'@'%' = 'Pa55-set'",
      "GRANT SELECT ON db.* TO 'app'@'%' IDENTIFIED BY 'Pa55-grant'",
      "CHANGE MASTER TO MASTER_HOST='h', MASTER_PASSWORD='Pa55-master'",
      "create user x identified by 'Pa55-lower'"
    };
    for (String sql : credentials) {
      on.shape(sql).record(Via.TEXT_EXECUTES);
    }
    on.shape("select * from t where id = 'kept-sample'").record(Via.TEXT_EXECUTES);
    String json = ProfileJson.toJson(on.snapshot());
    assertThat(json).doesNotContain("Pa55").contains("kept-sample");
  }

  @Test
  void sampleSqlKeepsNoKeysOfEncryptionFunctionsUserVariablesOrUrls() {
    // Issue 28 point 5: the digest had the key as ?, the sample (the text as sent) had it verbatim.
    ProfileRecorder on = new ProfileRecorder(RecorderSettings.defaults().withSampleSql(true));
    String[] keyed = {
      "SELECT AES_ENCRYPT('card', 'Key-s1')",
      "SELECT AES_DECRYPT(c, 'Key-s2') FROM t",
      "SET @k = 'Key-s3'",
      "SELECT @k := 'Key-s4'",
      "BACKUP DATABASE * TO 'azure://c/p?account-key=Key-s5'",
      "BACKUP DATABASE * TO 's3://b/p?access-key=Key-s6'",
      "RESTORE DATABASE * FROM 'azure://c/p?sv=1&sig=Key-s7'",
    };
    for (String sql : keyed) {
      on.shape(sql).record(Via.TEXT_EXECUTES);
    }
    on.shape("select * from t where id = 'kept-sample'").record(Via.TEXT_EXECUTES);
    String json = ProfileJson.toJson(on.snapshot());
    assertThat(json).doesNotContain("Key-s").contains("kept-sample");
    assertThat(json).contains("set @k = ?").contains("backup database * to ?");
  }

  @Test
  void connectionsReportDistinctPreparedShapes() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    for (int c = 1; c <= 3; c++) {
      ProfileRecorder.ConnectionHandle conn = r.openConnection();
      for (int i = 0; i < c * 10; i++) {
        ProfileRecorder.ShapeHandle shape = r.shape("select c from t" + i + " where id = ?");
        conn.prepared(shape);
        conn.prepared(shape);
        conn.command();
      }
      if (c < 3) {
        conn.close();
      }
    }
    TrafficProfile p = r.snapshot();
    Histogram distinct = p.connections().distribution(ConnectionMetric.DISTINCT_PREPARED_SHAPES);
    assertThat(p.connections().connections()).isEqualTo(3); // two closed, one still open
    assertThat(distinct.max()).isEqualTo(30);
    assertThat(distinct.min()).isEqualTo(10);
    assertThat(p.connections().distribution(ConnectionMetric.PREPARED_STATEMENTS).max()).isEqualTo(60);
  }

  @Test
  void probesKeepTheirCauses() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    r.probe(ProbeKind.ISOLATION_READ, "getTransactionIsolation");
    r.probe(ProbeKind.ISOLATION_READ, "getTransactionIsolation");
    r.probe(ProbeKind.ISOLATION_READ, ProbeStats.UNKNOWN_CAUSE);
    ProbeStats s = r.snapshot().probes().get(ProbeKind.ISOLATION_READ);
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.causes()).containsEntry("getTransactionIsolation", 2L).containsEntry("unknown", 1L);
  }

  @Test
  void aCollectorThatCannotSeeCallersCountsProbesWithoutCauses() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    r.probe(ProbeKind.AUTOCOMMIT_SET, null);
    r.probe(ProbeKind.AUTOCOMMIT_SET, null);
    ProbeStats s = r.snapshot().probes().get(ProbeKind.AUTOCOMMIT_SET);
    assertThat(s.count()).isEqualTo(2);
    assertThat(s.causes()).isEmpty();
  }

  @Test
  void concurrentRecordingLosesNothing() throws Exception {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    int threads = 8;
    int perThread = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < threads; t++) {
      final int id = t;
      pool.execute(
          () -> {
            try {
              start.await();
            } catch (InterruptedException e) {
              return;
            }
            for (int i = 0; i < perThread; i++) {
              r.command(CommandType.STMT_EXECUTE, i);
              r.shape("select * from t" + (i % 50) + " where id = " + id).record(Via.EXECUTES, i);
            }
          });
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    TrafficProfile p = r.snapshot();
    assertThat(p.count(CommandType.STMT_EXECUTE)).isEqualTo((long) threads * perThread);
    assertThat(p.total(Via.EXECUTES)).isEqualTo((long) threads * perThread);
    assertThat(p.shapes()).hasSize(50);
    assertThat(p.commands().get(CommandType.STMT_EXECUTE).latency().count())
        .isEqualTo((long) threads * perThread);
  }

  @Test
  void snapshotSourcesEndAtTheSnapshot() {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    long start = System.currentTimeMillis() - 5000;
    r.source(new Source(Source.AGENT, "0.1", "h:1", "MySQL Connector/J", "9.5.0", "11.4.5-MariaDB",
        "READ-COMMITTED", "jdbc:mysql://h/db", java.util.Map.of("cachePrepStmts", "true"), start, start));
    TrafficProfile p = r.snapshot();
    assertThat(p.sources()).hasSize(1);
    assertThat(p.sources().get(0).endMillis()).isGreaterThanOrEqualTo(start + 5000);
    assertThat(p.windowSeconds()).isGreaterThanOrEqualTo(5.0);
  }
}
