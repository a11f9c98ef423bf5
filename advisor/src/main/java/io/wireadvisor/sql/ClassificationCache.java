package io.wireadvisor.sql;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded, thread-safe cache of {@link Classification}s keyed by the exact SQL text.
 *
 * <p>A hit is one {@link ConcurrentHashMap#get} and allocates nothing. Eviction is by
 * generations rather than LRU bookkeeping, so hits never write: entries go into the current
 * map; when it is full it becomes the previous map and a fresh one starts; a text found only in
 * the previous map is copied forward. Texts not seen for a whole generation are dropped with it.
 * At most {@code 2 * maxEntries} entries are held, which matters because applications that
 * inline literals send an unbounded number of distinct texts.
 */
public final class ClassificationCache {
  private static final class Generation {
    final ConcurrentHashMap<String, Classification> map;
    /** Slots handed out; reserved before the put so the map can never exceed the bound. */
    final AtomicInteger reserved = new AtomicInteger();

    Generation(int capacity) {
      map = new ConcurrentHashMap<>(Math.max(16, capacity * 4 / 3 + 1));
    }
  }

  private final int maxEntries;
  private final Object rotateLock = new Object();
  private volatile Generation current;
  private volatile Generation previous;

  /**
   * @param maxEntries entries per generation, at least 1; the cache holds at most twice this
   * @throws IllegalArgumentException if maxEntries is less than 1
   */
  public ClassificationCache(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be at least 1: " + maxEntries);
    }
    this.maxEntries = maxEntries;
    this.current = new Generation(maxEntries);
    this.previous = new Generation(1);
  }

  /**
   * The classification of {@code sql}, from the cache when this exact text was seen recently.
   *
   * @param sql the statement text; null is classified as empty and not cached
   * @return the classification, never null
   */
  public Classification classify(String sql) {
    if (sql == null) {
      return SqlClassifier.classify(null);
    }
    Classification c = current.map.get(sql);
    if (c != null) {
      return c;
    }
    c = previous.map.get(sql);
    if (c == null) {
      c = SqlClassifier.classify(sql);
    }
    return store(sql, c);
  }

  private Classification store(String sql, Classification c) {
    while (true) {
      Generation gen = current;
      if (gen.reserved.incrementAndGet() <= maxEntries) {
        Classification raced = gen.map.putIfAbsent(sql, c);
        // Another thread stored the same text first: return its instance so callers agree.
        return raced != null ? raced : c;
      }
      rotate(gen);
    }
  }

  private void rotate(Generation full) {
    synchronized (rotateLock) {
      if (current == full) {
        previous = full;
        current = new Generation(maxEntries);
      }
    }
  }

  /**
   * Entries held across both generations; a text copied forward counts twice until its old
   * generation is dropped. Never more than {@code 2 * maxEntries}.
   */
  public int size() {
    return current.map.size() + previous.map.size();
  }
}
