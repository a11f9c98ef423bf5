package io.wireadvisor.agent.internal;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import io.wireadvisor.sql.Escaping;
import io.wireadvisor.sql.SqlClassifier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * SQL bytes as they go on the wire to their shape, without decoding them: a direct-mapped,
 * lock-free cache keyed by a hash of the bytes and checked byte for byte. A hit allocates nothing;
 * a miss decodes the text once, asks the recorder for its shape and replaces the slot.
 *
 * <p>Bounded in bytes: a text up to {@link #MAX_CACHED_BYTES} is kept byte for byte while the
 * accounted bytes of all kept entries stay under {@link #DEFAULT_MAX_BYTES}; a longer text is
 * never copied or decoded as a whole: only its first {@link #PREFIX_BYTES} are decoded and
 * classified (its shape is decided by its head), and it is remembered by a 64-bit hash of that
 * head and its length, in a table of its own under the same byte bound.
 *
 * <p>A text the server reads differently with and without backslash escapes ({@link
 * Escaping}) is kept with the mode it was classified in and found only in that mode: one
 * connection's reading never answers for another's.
 *
 * <p>Entries are immutable and published by an atomic array store; a racing reader sees either
 * the old or the new entry, both complete (final fields), so no lock is needed.
 */
public final class TextCache {
  /** Longer texts are not kept byte for byte. */
  static final int MAX_CACHED_BYTES = 16 * 1024;
  /** Bytes of a longer text that are decoded and classified (about {@code PREFIX_CHARS}). */
  public static final int PREFIX_BYTES = SqlClassifier.PREFIX_CHARS;
  /** Default bound of the accounted bytes of one window's cache: 4 MiB. */
  public static final long DEFAULT_MAX_BYTES = 4L << 20;
  /** Accounted fixed cost of an entry besides its bytes and its shape handle. */
  static final int ENTRY_FIXED_BYTES = 96;

  /**
   * {@code Arrays.equals(byte[], int, int, byte[], int, int)} (Java 9+), null on Java 8. The agent
   * is compiled for Java 8, so it is reached through a method handle; a {@code static final} one
   * is a constant to C2, which inlines {@code invokeExact} on it down to the vectorized mismatch
   * intrinsic (a plain loop with an early exit is not vectorized: ~130 ns for 330 bytes).
   */
  static final MethodHandle RANGE_EQUALS = rangeEquals();

  private final AtomicReferenceArray<Entry> slots;
  private final int mask;
  private final AtomicReferenceArray<Entry> longSlots;
  private final int longMask;
  private final AtomicLong bytes = new AtomicLong();
  private final long maxBytes;
  private final AtomicInteger mostBytesDecoded = new AtomicInteger();
  private final ProfileRecorder recorder;
  private final Window window;

  /** @param size slots, rounded up to a power of two */
  TextCache(Window window, ProfileRecorder recorder, int size) {
    this(window, recorder, size, DEFAULT_MAX_BYTES);
  }

  TextCache(Window window, ProfileRecorder recorder, int size, long maxBytes) {
    this.window = window;
    int n = Integer.highestOneBit(Math.max(16, size - 1)) << 1;
    this.slots = new AtomicReferenceArray<>(n);
    this.mask = n - 1;
    this.longSlots = new AtomicReferenceArray<>(Math.max(16, n / 4));
    this.longMask = longSlots.length() - 1;
    this.maxBytes = maxBytes;
    this.recorder = recorder;
  }

  /** {@link #lookup(byte[], int, int, Escaping)} when the mode is not known. */
  public Entry lookup(byte[] buf, int from, int to) {
    return lookup(buf, from, to, Escaping.UNKNOWN);
  }

  /**
   * The cached text and shape of {@code buf[from, to)} as read in {@code escaping}; decodes it (at
   * most its head) on a miss.
   */
  public Entry lookup(byte[] buf, int from, int to, Escaping escaping) {
    if (to - from > MAX_CACHED_BYTES) {
      return lookupLong(buf, from, to, escaping);
    }
    int h = hash(buf, from, to);
    int i = h & mask;
    Entry e = slots.get(i);
    if (e != null && e.hash == h && e.readsAlike(escaping) && e.matches(buf, from, to)) {
      return e;
    }
    // Connector/J encodes SQL in the connection's character set, which is UTF-8 (utf8mb4) in the
    // overwhelming majority of setups; a text in another charset decodes to the same digest as
    // long as its keywords and identifiers are ASCII.
    String sql = decode(buf, from, to);
    byte[] copy = new byte[to - from];
    System.arraycopy(buf, from, copy, 0, copy.length);
    ShapeHandle shape = recorder.shape(sql, escaping);
    Entry fresh = new Entry(copy, h, 0L, copy.length, shape, window, cost(copy.length, shape), escaping);
    store(slots, i, e, fresh);
    return fresh;
  }

  /**
   * A text longer than {@link #MAX_CACHED_BYTES}: known by a 64-bit hash of its first {@link
   * #PREFIX_BYTES} bytes and its length. Two texts with the same head and length have the same
   * shape by construction, so the hash stands for everything the entry needs.
   */
  private Entry lookupLong(byte[] buf, int from, int to, Escaping escaping) {
    int n = to - from;
    int headEnd = from + Math.min(n, PREFIX_BYTES);
    if (headEnd < to) {
      // Do not split a UTF-8 sequence: back off continuation bytes (at most 3).
      for (int k = 0; k < 3 && headEnd > from && (buf[headEnd] & 0xC0) == 0x80; k++) {
        headEnd--;
      }
    }
    long h = hash64(buf, from, headEnd) ^ (n * 0x9E3779B97F4A7C15L);
    int i = (int) (h ^ (h >>> 32)) & longMask;
    Entry e = longSlots.get(i);
    if (e != null && e.longHash == h && e.length == n && e.readsAlike(escaping)) {
      return e;
    }
    String head = decode(buf, from, headEnd);
    ShapeHandle shape = recorder.shape(head, n, headEnd < to, escaping);
    Entry fresh = new Entry(null, 0, h, n, shape, window, cost(0, shape), escaping);
    store(longSlots, i, e, fresh);
    return fresh;
  }

  private String decode(byte[] buf, int from, int to) {
    mostBytesDecoded.accumulateAndGet(to - from, Math::max);
    return new String(buf, from, to - from, StandardCharsets.UTF_8);
  }

  private static int cost(int bytes, ShapeHandle shape) {
    return (int) Math.min(Integer.MAX_VALUE, ENTRY_FIXED_BYTES + bytes + shape.retainedBytes());
  }

  /** Replaces {@code old} in slot {@code i} by {@code fresh} if the byte bound allows it. */
  private void store(AtomicReferenceArray<Entry> table, int i, Entry old, Entry fresh) {
    long delta = fresh.cost - (old == null ? 0 : old.cost);
    if (bytes.addAndGet(delta) > maxBytes) {
      bytes.addAndGet(-delta);
      return;
    }
    if (!table.compareAndSet(i, old, fresh)) {
      bytes.addAndGet(-delta); // another thread replaced it first
    }
  }

  /** Accounted bytes of the kept entries (never more than the bound). */
  public long accountedBytes() {
    return bytes.get();
  }

  /** The most bytes of one text this cache ever decoded (never more than {@link #PREFIX_BYTES}
   * or {@link #MAX_CACHED_BYTES}, whichever is larger). */
  public int mostBytesDecoded() {
    return mostBytesDecoded.get();
  }

  /** 64-bit FNV-1a-style hash over every byte, for long texts' heads. */
  static long hash64(byte[] buf, int from, int to) {
    long h = 0xcbf29ce484222325L;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long w = (buf[i] & 0xffL) | (buf[i + 1] & 0xffL) << 8 | (buf[i + 2] & 0xffL) << 16
          | (buf[i + 3] & 0xffL) << 24 | (buf[i + 4] & 0xffL) << 32 | (buf[i + 5] & 0xffL) << 40
          | (buf[i + 6] & 0xffL) << 48 | (buf[i + 7] & 0xffL) << 56;
      h = (h ^ w) * 0x100000001b3L;
      h ^= h >>> 29;
    }
    for (; i < to; i++) {
      h = (h ^ (buf[i] & 0xff)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
  }

  /**
   * Picks the slot: the length, the first and last 16 bytes and 16 bytes spread over the middle.
   * Only a slot choice (every hit is checked byte for byte), so sampling is safe, and it keeps the
   * cost flat for ORM-sized SQL, where a hash over every byte would dominate the hook.
   */
  static int hash(byte[] buf, int from, int to) {
    int n = to - from;
    int h = 0x9747b28c ^ n;
    if (n <= 48) {
      // h * 31 + b four bytes at a time: the same value (31^4 h + 31^3 b0 + 31^2 b1 + 31 b2 + b3,
      // mod 2^32), with one multiply on the dependency chain per four bytes instead of four.
      int i = from;
      for (; i + 3 < to; i += 4) {
        h = h * 923521 + buf[i] * 29791 + buf[i + 1] * 961 + buf[i + 2] * 31 + buf[i + 3];
      }
      for (; i < to; i++) {
        h = h * 31 + buf[i];
      }
    } else {
      int h2 = 0;
      int h3 = 0;
      for (int i = 0; i < 16; i++) {
        h = h * 31 + buf[from + i];
        h2 = h2 * 31 + buf[to - 1 - i];
        h3 = h3 * 31 + buf[from + 16 + (int) ((long) (n - 32) * i >>> 4)];
      }
      h = h * 0x01000193 ^ h2 * 0x85ebca6b ^ h3;
    }
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    return h;
  }

  /**
   * One SQL text: its bytes (null for a long text, known by hash) and shape. Immutable.
   */
  public static final class Entry {
    final byte[] bytes;
    final int hash;
    final long longHash;
    final int length;
    final int cost;
    public final ShapeHandle shape;
    /** The window's id, not the window: a prepared statement must not keep a reset window alive. */
    private final long windowId;
    /** The mode the shape was read in when it depends on one, else null (any mode). */
    private final Escaping escaping;

    Entry(byte[] bytes, int hash, long longHash, int length, ShapeHandle shape, Window window, int cost,
        Escaping escaping) {
      this.escaping = shape.classification().dependsOnEscaping() ? escaping : null;
      this.windowId = window.id;
      this.bytes = bytes;
      this.hash = hash;
      this.longHash = longHash;
      this.length = length;
      this.shape = shape;
      this.cost = cost;
    }

    /** Whether {@link #shape} holds for a text read in {@code mode}. */
    boolean readsAlike(Escaping mode) {
      return escaping == null || escaping == mode;
    }

    /** Whether {@link #shape} counts in {@code w}'s recorder. */
    public boolean in(Window w) {
      return windowId == w.id;
    }

    /** The SQL bytes as sent (do not modify); null for a text longer than MAX_CACHED_BYTES. */
    public byte[] bytes() {
      return bytes;
    }

    /** The text, decoded (for tests and diagnostics; allocates); null for a long text. */
    public String text() {
      return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    boolean matches(byte[] buf, int from, int to) {
      return sameBytes(bytes, buf, from, to);
    }
  }

  /**
   * Whether {@code b} equals {@code buf[from, to)}: lengths first, then every byte (with the JDK's
   * vectorized comparison when it has one).
   */
  static boolean sameBytes(byte[] b, byte[] buf, int from, int to) {
    int n = b.length;
    if (n != to - from) {
      return false;
    }
    MethodHandle equals = RANGE_EQUALS;
    if (equals != null) {
      try {
        return (boolean) equals.invokeExact(b, 0, n, buf, from, to);
      } catch (Throwable e) {
        // Only an out-of-range index could get here, and the loop reports it the same way.
      }
    }
    return sameBytesByLoop(b, buf, from, to);
  }

  /** {@link #sameBytes} without the JDK's help (Java 8). */
  static boolean sameBytesByLoop(byte[] b, byte[] buf, int from, int to) {
    int n = b.length;
    if (n != to - from) {
      return false;
    }
    // Literals usually differ near the end (WHERE ... = 42): compare from the back.
    for (int i = n - 1; i >= 0; i--) {
      if (b[i] != buf[from + i]) {
        return false;
      }
    }
    return true;
  }

  private static MethodHandle rangeEquals() {
    try {
      return MethodHandles.publicLookup()
          .findStatic(
              Arrays.class,
              "equals",
              MethodType.methodType(
                  boolean.class, byte[].class, int.class, int.class, byte[].class, int.class,
                  int.class));
    } catch (NoSuchMethodException | IllegalAccessException | RuntimeException e) {
      return null; // Java 8
    }
  }
}
