package io.wireadvisor.agent.internal;

/**
 * Connection object to {@link ConnState}, by identity, without allocating on lookup: open
 * addressing over {@code System.identityHashCode}, weak references to the connections. Lookups
 * take no lock (the table array and its slots are volatile-published); inserts and removals,
 * once per connection, synchronize.
 *
 * <p>Bounded: past {@link #MAX} live connections, new ones are not tracked per connection (their
 * commands are still counted by type and shape).
 */
public final class ConnectionTable {
  static final int MAX = 1 << 16;

  private volatile ConnState[] table = new ConnState[256];
  /** Set when the agent was attached to a running JVM: connections may predate it. */
  private volatile boolean lateAttach;

  public void lateAttach() {
    lateAttach = true;
  }

  /** The state of {@code conn}, or null when it is not tracked. */
  public ConnState get(Object conn) {
    ConnState[] t = table;
    int mask = t.length - 1;
    int start = mix(System.identityHashCode(conn)) & mask;
    for (int n = 0, i = start; n < t.length; n++, i = (i + 1) & mask) {
      ConnState s = t[i];
      if (s == null) {
        return null;
      }
      if (s.get() == conn) {
        return s;
      }
    }
    return null;
  }

  /** The state of {@code conn}, created on first sight; null when the table is full. */
  public ConnState getOrCreate(Object conn) {
    ConnState s = get(conn);
    return s != null ? s : create(conn);
  }

  private synchronized ConnState create(Object conn) {
    ConnState existing = get(conn);
    if (existing != null) {
      return existing;
    }
    int live = purge(table);
    ConnState[] t = table;
    if (live >= MAX) {
      return null;
    }
    if ((live + 1) * 2 > t.length) {
      t = rehash(t, t.length * 2);
    }
    ConnState fresh = new ConnState(conn, lateAttach);
    insert(t, fresh);
    table = t;
    return fresh;
  }

  /** Calls {@code action} for every tracked connection that is still open (no lock taken). */
  public void forEach(java.util.function.Consumer<ConnState> action) {
    for (ConnState s : table) {
      if (s != null && !s.closed && s.get() != null) {
        action.accept(s);
      }
    }
  }

  /** Forgets {@code conn} (it sent COM_QUIT) and returns its state, or null. */
  public synchronized ConnState remove(Object conn) {
    ConnState s = get(conn);
    if (s == null) {
      return null;
    }
    ConnState[] t = table;
    ConnState[] copy = new ConnState[t.length];
    for (ConnState c : t) {
      if (c != null && c != s && c.get() != null) {
        insert(copy, c);
      }
    }
    table = copy;
    s.end();
    s.release();
    return s;
  }

  /**
   * Marks {@code conn} closed without COM_QUIT: its profile handle is closed now, and it stays in
   * the table (until collected, or {@link #reopen}) so that a late command does not recreate it.
   * Returns its state, or null when it was not tracked or already closed.
   */
  public synchronized ConnState markClosed(Object conn) {
    ConnState s = get(conn);
    if (s == null || s.closed) {
      return null;
    }
    s.closed = true;
    s.end();
    return s;
  }

  /**
   * A fresh state for {@code conn}, which the driver reconnected (it reuses the protocol object):
   * a new physical connection, carrying over the old one's description.
   */
  public synchronized ConnState reopen(Object conn) {
    ConnState old = remove(conn);
    ConnState fresh = create(conn);
    if (old != null && fresh != null) {
      fresh.description = old.description;
      fresh.described = old.described;
    }
    return fresh;
  }

  /** Every tracked connection whose object is still alive and that was not closed. */
  public synchronized int size() {
    purge(table);
    int[] open = {0};
    forEach(c -> open[0]++);
    return open[0];
  }

  /** Ends states whose connection was collected; returns the number of live ones. */
  private int purge(ConnState[] t) {
    int live = 0;
    boolean dead = false;
    for (ConnState c : t) {
      if (c != null) {
        if (c.get() == null) {
          dead = true;
        } else {
          live++;
        }
      }
    }
    if (dead) {
      for (ConnState c : t) {
        if (c != null && c.get() == null) {
          c.end();
          c.release();
        }
      }
      table = rehash(t, t.length);
    }
    return live;
  }

  private static ConnState[] rehash(ConnState[] t, int size) {
    ConnState[] copy = new ConnState[size];
    for (ConnState c : t) {
      if (c != null && c.get() != null) {
        insert(copy, c);
      }
    }
    return copy;
  }

  private static void insert(ConnState[] t, ConnState s) {
    Object conn = s.get();
    if (conn == null) {
      return;
    }
    int mask = t.length - 1;
    int i = mix(System.identityHashCode(conn)) & mask;
    while (t[i] != null) {
      i = (i + 1) & mask;
    }
    t[i] = s;
  }

  private static int mix(int h) {
    h *= 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
