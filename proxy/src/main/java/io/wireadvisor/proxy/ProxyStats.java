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

  void unparseableResponse() {
    unparseableResponses.increment();
  }
}
