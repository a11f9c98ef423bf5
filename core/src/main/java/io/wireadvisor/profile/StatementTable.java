package io.wireadvisor.profile;

/**
 * Server statement id to the shape prepared under it, for one connection: open addressing with
 * linear probing and backward-shift deletion, primitive keys, so a lookup neither boxes nor
 * allocates. Not thread-safe: a connection sends one command at a time (Connector/J holds the
 * connection's lock around {@code sendCommand}), and pools hand connections over through
 * synchronizing structures.
 */
final class StatementTable {
  private int[] keys;
  private ProfileRecorder.ShapeHandle[] values;
  private int size;

  StatementTable() {
    keys = new int[16];
    values = new ProfileRecorder.ShapeHandle[16];
  }

  int size() {
    return size;
  }

  ProfileRecorder.ShapeHandle get(int id) {
    int mask = keys.length - 1;
    for (int i = mix(id) & mask; ; i = (i + 1) & mask) {
      ProfileRecorder.ShapeHandle v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == id) {
        return v;
      }
    }
  }

  void put(int id, ProfileRecorder.ShapeHandle value) {
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

  ProfileRecorder.ShapeHandle remove(int id) {
    int mask = keys.length - 1;
    int i = mix(id) & mask;
    while (true) {
      ProfileRecorder.ShapeHandle v = values[i];
      if (v == null) {
        return null;
      }
      if (keys[i] == id) {
        break;
      }
      i = (i + 1) & mask;
    }
    ProfileRecorder.ShapeHandle removed = values[i];
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

  void clear() {
    keys = new int[16];
    values = new ProfileRecorder.ShapeHandle[16];
    size = 0;
  }

  private void grow() {
    int[] oldKeys = keys;
    ProfileRecorder.ShapeHandle[] oldValues = values;
    keys = new int[oldKeys.length * 2];
    values = new ProfileRecorder.ShapeHandle[oldKeys.length * 2];
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
