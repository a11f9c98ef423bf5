package io.wireadvisor.proxy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** The proxy's own counters (bytes, connections, faults), shared by every connection. */
final class ProxyStats {
  final LongAdder bytesFromClients = new LongAdder();
  final LongAdder bytesFromServer = new LongAdder();
  final LongAdder connectionsAccepted = new LongAdder();
  final AtomicInteger clientConnections = new AtomicInteger();
  final AtomicInteger upstreamConnections = new AtomicInteger();
  final LongAdder upstreamConnectFailures = new LongAdder();
  final LongAdder upstreamLostMidCommand = new LongAdder();
  final LongAdder clientProtocolErrors = new LongAdder();
  final LongAdder unparseableResponses = new LongAdder();
  /** COM_STMT_CLOSE of an id no PREPARE on that connection returned (servers ignore these). */
  final LongAdder closesOfUnknownStatements = new LongAdder();
  /** Client connections that switched to TLS (terminated by the proxy). */
  final LongAdder tlsConnections = new LongAdder();
  /** Upstream connections that completed a TLS handshake (--upstream-tls). */
  final LongAdder upstreamTlsConnections = new LongAdder();
  /** Upstream TLS handshakes that failed (bad certificate, protocol mismatch, timeout...). */
  final LongAdder upstreamTlsFailures = new LongAdder();
  /** COM_STMT_PREPARE answered with ERR. */
  final LongAdder preparesFailed = new LongAdder();

  /** Clients closed for not logging in within --handshake-timeout. */
  final LongAdder handshakeTimeouts = new LongAdder();
  /** Clients closed after --idle-timeout without a command. */
  final LongAdder idleTimeouts = new LongAdder();
  /** Clients refused with ERR 1040 because --max-connections were open. */
  final LongAdder connectionsRefused = new LongAdder();
  /** Clients refused with ERR 1040 because --max-prelogin-connections were not logged in yet. */
  final LongAdder preloginRefusedTotal = new LongAdder();
  /** Clients refused with ERR 1040 because --max-prelogin-per-source from theirs were not logged in yet. */
  final LongAdder preloginRefusedSource = new LongAdder();
  /** Clients admitted and not yet closed (the --max-connections gate). */
  final AtomicInteger admitted = new AtomicInteger();
  /**
   * Bytes of statement-id bookkeeping held by every connection (--max-statement-bytes-total), and
   * prepared statements not remembered because a statement byte limit was reached.
   */
  final io.wireadvisor.profile.WireSession.Budget statements =
      new io.wireadvisor.profile.WireSession.Budget();

  void unparseableResponse() {
    unparseableResponses.increment();
  }
}
