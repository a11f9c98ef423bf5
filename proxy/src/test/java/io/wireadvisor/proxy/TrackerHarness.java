package io.wireadvisor.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.TrafficProfile;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** A {@link SessionTracker} driven by hand: bytes in from either side, forwarded bytes out. */
final class TrackerHarness {
  static final int BASE_CAPS =
      Capabilities.CLIENT_LONG_PASSWORD
          | Capabilities.CLIENT_CONNECT_WITH_DB
          | Capabilities.CLIENT_PROTOCOL_41
          | 1 << 13 // CLIENT_TRANSACTIONS
          | 1 << 15 // CLIENT_SECURE_CONNECTION
          | 1 << 16 // CLIENT_MULTI_STATEMENTS
          | Capabilities.CLIENT_MULTI_RESULTS
          | Capabilities.CLIENT_PLUGIN_AUTH;

  final ProfileRecorder recorder;
  final ProxyStats stats;
  final List<String> versions = new ArrayList<>();
  final SessionTracker tracker;

  TrackerHarness() {
    this(false);
  }

  /** @param tls the proxy terminates client TLS */
  TrackerHarness(boolean tls) {
    this(tls, UpstreamTls.Mode.OFF);
  }

  /**
   * @param tls the proxy terminates client TLS
   * @param upstream when the proxy talks TLS to the upstream
   */
  TrackerHarness(boolean tls, UpstreamTls.Mode upstream) {
    this(tls, upstream, false);
  }

  /**
   * @param tls the proxy terminates client TLS
   * @param upstream when the proxy talks TLS to the upstream
   * @param plaintextPasswordsAllowed {@code --allow-plaintext-upstream-passwords}
   */
  TrackerHarness(boolean tls, UpstreamTls.Mode upstream, boolean plaintextPasswordsAllowed) {
    this(new ProfileRecorder(RecorderSettings.defaults()), new ProxyStats(), tls, upstream, plaintextPasswordsAllowed, false, true);
  }

  /**
   * @param tls the proxy terminates client TLS
   * @param upstream when the proxy talks TLS to the upstream
   * @param plaintextPasswordsAllowed {@code --allow-plaintext-upstream-passwords}
   * @param cleartextAllowed {@code --allow-cleartext-passwords}
   */
  TrackerHarness(boolean tls, UpstreamTls.Mode upstream, boolean plaintextPasswordsAllowed,
      boolean cleartextAllowed) {
    this(new ProfileRecorder(RecorderSettings.defaults()), new ProxyStats(), tls, upstream,
        plaintextPasswordsAllowed, cleartextAllowed, true);
  }

  /**
   * A connection of a proxy whose recorder and counters other harnesses share. It keeps no copy
   * of what it forwards ({@link #upstream}, {@link #downstream} stay empty): heap measurements
   * see only what the proxy itself holds.
   */
  TrackerHarness(ProfileRecorder recorder, ProxyStats stats) {
    this(recorder, stats, false, UpstreamTls.Mode.OFF, false, false, false);
  }

  private TrackerHarness(
      ProfileRecorder recorder, ProxyStats stats, boolean tls, UpstreamTls.Mode upstream,
      boolean plaintextPasswordsAllowed, boolean cleartextAllowed, boolean keepForwarded) {
    this.recorder = recorder;
    this.stats = stats;
    this.keepForwarded = keepForwarded;
    // The one place a test builds a tracker: every test goes through this harness.
    tracker =
        new SessionTracker(recorder, stats, versions::add,
            new Handshake.Policy(tls, upstream, plaintextPasswordsAllowed, cleartextAllowed));
  }

  private final boolean keepForwarded;

  /** Everything forwarded upstream so far (what a refused scan held back is not in it). */
  final ByteArrayOutputStream upstream = new ByteArrayOutputStream();
  /** Everything forwarded to the client so far. */
  final ByteArrayOutputStream downstream = new ByteArrayOutputStream();

  /** Bytes from the server; returns what the proxy forwards to the client. */
  byte[] server(byte[]... packets) throws ProtocolException {
    byte[] out = scan(tracker.serverScanner(), Wire.concat(packets));
    if (keepForwarded) {
      downstream.writeBytes(out);
    }
    return out;
  }

  /** Bytes from the client; returns what the proxy forwards upstream. */
  byte[] client(byte[]... packets) throws ProtocolException {
    byte[] out = scan(tracker.clientScanner(), Wire.concat(packets));
    if (keepForwarded) {
      upstream.writeBytes(out);
    }
    return out;
  }

  /** Greeting, response, OK with the given capabilities (both sides offer {@code caps}). */
  TrackerHarness loggedIn(int caps) throws ProtocolException {
    server(Wire.packet(0, Wire.greeting("8.0.11-TiDB-v8.5.3", caps, "mysql_native_password")));
    client(Wire.packet(1, Wire.handshakeResponse(caps, "app", new byte[20], "mysql_native_password")));
    server(Wire.packet(2, Wire.ok(2)));
    return this;
  }

  TrafficProfile profile() {
    return recorder.snapshot();
  }

  private static byte[] scan(PacketScanner scanner, byte[] wire) throws ProtocolException {
    ByteBuf in = Unpooled.wrappedBuffer(wire);
    List<ByteBuf> out = new ArrayList<>();
    try {
      scanner.scan(in, out);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (ByteBuf b : out) {
        byte[] a = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), a);
        bytes.writeBytes(a);
      }
      return bytes.toByteArray();
    } finally {
      in.release();
      out.forEach(ByteBuf::release);
    }
  }
}
