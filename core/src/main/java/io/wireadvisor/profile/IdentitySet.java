package io.wireadvisor.profile;

/**
 * A set of object identities (open addressing, linear probing): answers "first time on this
 * connection?" for a shape without allocating once it has seen the shape. Not thread-safe, like
 * {@link StatementTable}.
 */
final class IdentitySet {
  private Object[] table = new Object[32];
  private int size;

  /** Adds {@code o}; true when it was not there before. */
  boolean add(Object o) {
    Object[] t = table;
    int mask = t.length - 1;
    for (int i = System.identityHashCode(o) & mask; ; i = (i + 1) & mask) {
      Object v = t[i];
      if (v == null) {
        t[i] = o;
        if (++size * 2 > t.length) {
          grow();
        }
        return true;
      }
      if (v == o) {
        return false;
      }
    }
  }

  boolean contains(Object o) {
    Object[] t = table;
    int mask = t.length - 1;
    for (int i = System.identityHashCode(o) & mask; ; i = (i + 1) & mask) {
      Object v = t[i];
      if (v == null) {
        return false;
      }
      if (v == o) {
        return true;
      }
    }
  }

  void clear() {
    table = new Object[32];
    size = 0;
  }

  private void grow() {
    Object[] old = table;
    table = new Object[old.length * 2];
    size = 0;
    for (Object o : old) {
      if (o != null) {
        add(o);
      }
    }
  }
}
