package io.wireadvisor.proxy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the clients connected but not logged in yet ({@code --max-prelogin-connections}), in
 * total and per source address ({@code --max-prelogin-per-source}). A source is an IPv4 address
 * or an IPv6 /64 (one host commonly holds a whole /64). The map holds a source only while it has a
 * client not logged in, so it never has more entries than {@link #maxTotal}.
 *
 * <p>Why the clients are counted until their login and not until their HandshakeResponse: the
 * greeting carries the server's scramble, which the client's HandshakeResponse answers, so the
 * upstream connection must be open before the client says anything; a greeting made up by the
 * proxy would need the proxy to log in upstream itself, with a password it never has. So the
 * stalled clients are bounded instead, and with them the upstream connections they hold.
 */
final class PreloginLimiter {
  /** Why a client was refused, or {@code null}. */
  enum Refusal {
    TOTAL,
    SOURCE
  }

  final int maxTotal;
  final int maxPerSource;
  private final AtomicInteger total = new AtomicInteger();
  private final ConcurrentHashMap<InetAddress, Integer> perSource = new ConcurrentHashMap<>();

  PreloginLimiter(int maxTotal, int maxPerSource) {
    this.maxTotal = maxTotal;
    this.maxPerSource = maxPerSource;
  }

  /** The source {@code address} counts as: itself (IPv4), its /64 (IPv6). */
  static InetAddress source(InetAddress address) {
    byte[] b = address.getAddress();
    if (b.length != 16) {
      return address;
    }
    byte[] prefix = Arrays.copyOf(b, 16);
    Arrays.fill(prefix, 8, 16, (byte) 0);
    try {
      return InetAddress.getByAddress(prefix);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // 16 bytes is a valid length
    }
  }

  /**
   * Counts a new client from {@code address} unless a limit is reached.
   *
   * @return null when admitted (then {@link #release} once, at login or close), else the limit
   */
  Refusal tryAcquire(InetAddress address) {
    if (total.incrementAndGet() > maxTotal) {
      total.decrementAndGet();
      return Refusal.TOTAL;
    }
    boolean[] full = new boolean[1];
    perSource.compute(
        source(address),
        (k, n) -> {
          if (n == null) {
            return 1;
          }
          if (n >= maxPerSource) {
            full[0] = true;
            return n;
          }
          return n + 1;
        });
    if (full[0]) {
      total.decrementAndGet();
      return Refusal.SOURCE;
    }
    return null;
  }

  /** The client from {@code address} logged in or left. */
  void release(InetAddress address) {
    perSource.computeIfPresent(source(address), (k, n) -> n <= 1 ? null : n - 1);
    total.decrementAndGet();
  }

  /** Clients not logged in yet, now. */
  int total() {
    return total.get();
  }

  /** Sources with a client not logged in, now (the map's entries). */
  int sources() {
    return perSource.size();
  }

  /** Clients not logged in yet from {@code address}'s source, now. */
  int fromSource(InetAddress address) {
    return perSource.getOrDefault(source(address), 0);
  }
}
