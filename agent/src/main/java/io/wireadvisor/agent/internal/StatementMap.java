package io.wireadvisor.agent.internal;

/**
 * Server statement id to the text prepared under it, for one connection: open addressing with
 * linear probing and backward-shift deletion, primitive keys, so a lookup neither boxes nor
 * allocates. Not thread-safe: a connection sends one command at a time (Connector/J holds the
 * connection's lock around {@code sendCommand}), and pools hand connections over through
 * synchronizing structures.
 */
public final class StatementMap {
  private int[] keys;
  private TextCache.Entry[] values;
  private int size;

  public StatementMap() {
    keys = new int[16];
    values = new TextCache.Entry[16];
  }

  public int size() {
    return size;
  }

  public TextCache.Entry get(int id) {
    int mask = keys.length - 1;
    for (int i = mix(id) & mask; ; i = (i + 1) & mask) {
      TextCache.Entry v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == id) {
        return v;
      }
    }
  }

  public void put(int id, TextCache.Entry value) {
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = mix(id) & mask; ; i = (i + 1) & mask) {
      if (values[i] == null) {
        keys[i] = id;
        values[i] = value;
        size++;
        return;
      }
      if (keys[i] == id) {
        values[i] = value;
        return;
      }
    }
  }

  public TextCache.Entry remove(int id) {
    int mask = keys.length - 1;
    int i = mix(id) & mask;
    while (true) {
      TextCache.Entry v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == id) {
        break;
      }
      i = (i + 1) & mask;
    }
    TextCache.Entry removed = values[i];
    values[i] = null;
    size--;
    // Shift later members of the probe run back so lookups never stop at the hole.
    int hole = i;
    for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
      int home = mix(keys[j]) & mask;
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        values[j] = null;
        hole = j;
      }
    }
    return removed;
  }

  private void grow() {
    int[] oldKeys = keys;
    TextCache.Entry[] oldValues = values;
    keys = new int[oldKeys.length * 2];
    values = new TextCache.Entry[oldKeys.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != null) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int mix(int id) {
    int h = id * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
