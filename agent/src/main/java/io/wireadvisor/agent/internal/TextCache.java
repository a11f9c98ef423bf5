package io.wireadvisor.agent.internal;

import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.ProfileRecorder.ShapeHandle;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * SQL bytes as they go on the wire to their shape, without decoding them: a direct-mapped,
 * lock-free cache keyed by a hash of the bytes and checked byte for byte. A hit allocates nothing;
 * a miss decodes the text once, asks the recorder for its shape and replaces the slot.
 *
 * <p>Entries are immutable and published by a plain array store; a racing reader sees either the
 * old or the new entry, both complete (final fields), so no lock is needed.
 */
public final class TextCache {
  /** Longer texts are decoded every time rather than kept. */
  static final int MAX_CACHED_BYTES = 16 * 1024;

  /**
   * {@code Arrays.equals(byte[], int, int, byte[], int, int)} (Java 9+), null on Java 8. The agent
   * is compiled for Java 8, so it is reached through a method handle; a {@code static final} one
   * is a constant to C2, which inlines {@code invokeExact} on it down to the vectorized mismatch
   * intrinsic (a plain loop with an early exit is not vectorized: ~130 ns for 330 bytes).
   */
  static final MethodHandle RANGE_EQUALS = rangeEquals();

  private final Entry[] slots;
  private final int mask;
  private final ProfileRecorder recorder;
  private final Window window;

  /** @param size slots, rounded up to a power of two */
  TextCache(Window window, ProfileRecorder recorder, int size) {
    this.window = window;
    int n = Integer.highestOneBit(Math.max(16, size - 1)) << 1;
    this.slots = new Entry[n];
    this.mask = n - 1;
    this.recorder = recorder;
  }

  /** The cached text and shape of {@code buf[from, to)}; decodes it on a miss. */
  public Entry lookup(byte[] buf, int from, int to) {
    int h = hash(buf, from, to);
    int i = h & mask;
    Entry e = slots[i];
    if (e != null && e.hash == h && e.matches(buf, from, to)) {
      return e;
    }
    // Connector/J encodes SQL in the connection's character set, which is UTF-8 (utf8mb4) in the
    // overwhelming majority of setups; a text in another charset decodes to the same digest as
    // long as its keywords and identifiers are ASCII.
    String sql = new String(buf, from, to - from, StandardCharsets.UTF_8);
    byte[] copy = new byte[to - from];
    System.arraycopy(buf, from, copy, 0, copy.length);
    Entry fresh = new Entry(copy, h, sql, recorder.shape(sql), window);
    if (copy.length <= MAX_CACHED_BYTES) {
      // Huge texts (multi-row INSERTs, generated IN lists) are rarely repeated byte for byte;
      // keeping them would let 4096 slots pin gigabytes.
      slots[i] = fresh;
    }
    return fresh;
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
      for (int i = from; i < to; i++) {
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

  /** One SQL text: its bytes, decoded text and shape. Immutable. */
  public static final class Entry {
    final byte[] bytes;
    final int hash;
    public final String sql;
    public final ShapeHandle shape;
    private final Window window;

    Entry(byte[] bytes, int hash, String sql, ShapeHandle shape, Window window) {
      this.window = window;
      this.bytes = bytes;
      this.hash = hash;
      this.sql = sql;
      this.shape = shape;
    }

    /** The window whose recorder {@link #shape} belongs to. */
    public Window window() {
      return window;
    }

    /** The SQL bytes as sent (do not modify). */
    public byte[] bytes() {
      return bytes;
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
