package io.wireadvisor.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClassificationCacheTest {

  @Test
  void hitReturnsTheIdenticalInstance() {
    ClassificationCache cache = new ClassificationCache(100);
    String sql = "SELECT c FROM sbtest1 WHERE id = ?";

    Classification first = cache.classify(sql);

    assertThat(cache.classify(new String(sql))).isSameAs(first);
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void cachedResultEqualsUncachedClassification() {
    ClassificationCache cache = new ClassificationCache(10);
    String sql = "UPDATE accounts SET balance = balance - 5 WHERE id = 7";

    assertThat(cache.classify(sql)).isEqualTo(SqlClassifier.classify(sql));
  }

  @Test
  void sizeStaysBoundedUnderManyDistinctTexts() {
    int max = 50;
    ClassificationCache cache = new ClassificationCache(max);

    for (int i = 0; i < 10_000; i++) {
      cache.classify("SELECT * FROM t WHERE id = " + i);
      assertThat(cache.size()).isLessThanOrEqualTo(2 * max);
    }
  }

  @Test
  void recentlyUsedTextSurvivesGenerationTurnover() {
    ClassificationCache cache = new ClassificationCache(10);
    String hot = "SELECT 1";
    Classification hotResult = cache.classify(hot);

    for (int i = 0; i < 1_000; i++) {
      cache.classify("SELECT * FROM t WHERE id = " + i);
      // Touched once per generation, so it keeps being copied forward.
      assertThat(cache.classify(hot)).isSameAs(hotResult);
    }
  }

  @Test
  void textNotSeenForTwoGenerationsIsDropped() {
    ClassificationCache cache = new ClassificationCache(10);
    Classification old = cache.classify("SELECT 1");

    for (int i = 0; i < 25; i++) {
      cache.classify("SELECT * FROM t WHERE id = " + i);
    }

    assertThat(cache.classify("SELECT 1")).isNotSameAs(old).isEqualTo(old);
  }

  @Test
  void nullIsClassifiedAsEmptyAndNotCached() {
    ClassificationCache cache = new ClassificationCache(10);

    assertThat(cache.classify(null).kind()).isEqualTo(StatementKind.EMPTY);
    assertThat(cache.size()).isZero();
  }

  @Test
  void nonPositiveCapacityIsRejected() {
    assertThatThrownBy(() -> new ClassificationCache(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrentUseGivesConsistentResults() throws Exception {
    int max = 64;
    ClassificationCache cache = new ClassificationCache(max);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      texts.add(i % 3 == 0 ? "SELECT c FROM sbtest" + (i % 7) + " WHERE id = " + i
          : i % 3 == 1 ? "UPDATE accounts SET balance = balance + " + i + " WHERE id = ?"
          : "INSERT INTO t" + (i % 5) + " (a, b) VALUES (" + i + ", 'x')");
    }
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentHashMap<String, Classification> seen = new ConcurrentHashMap<>();
    List<Future<Integer>> results = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        int offset = t * 37;
        results.add(pool.submit(() -> {
          start.await();
          int mismatches = 0;
          for (int round = 0; round < 20_000; round++) {
            String sql = texts.get((round * 7 + offset) % texts.size());
            Classification c = cache.classify(sql);
            Classification before = seen.putIfAbsent(sql, c);
            if (before != null && !before.equals(c)) {
              mismatches++;
            }
            if (cache.size() > 2 * max) {
              mismatches++;
            }
          }
          return mismatches;
        }));
      }
      start.countDown();
      for (Future<Integer> f : results) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isZero();
      }
    } finally {
      pool.shutdownNow();
    }
    for (String sql : texts) {
      assertThat(cache.classify(sql)).isEqualTo(SqlClassifier.classify(sql));
    }
  }
}
