package io.wireadvisor.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslHandler;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The client side of one proxied connection: opens the upstream connection on the same event
 * loop (no cross-thread hand-off), then forwards client bytes as the {@link SessionTracker}
 * scans them, with back-pressure from the upstream channel's writability (see {@link Channels}).
 */
final class FrontendHandler extends ChannelInboundHandlerAdapter {
  private final ProxyContext context;
  private final List<ByteBuf> out = new ArrayList<>(4);
  private SessionTracker tracker;
  /** Cancelled at close: a flood of short connections must not leave pending tasks behind. */
  private io.netty.util.concurrent.Future<?> handshakeTimer;
  private Channel backend;
  private boolean rejected;
  /**
   * Non-null while the upstream TLS handshake runs: client bytes read meanwhile (there should be
   * none, the client waits for the server's answer) wait here in order instead of going up.
   */
  private List<ByteBuf> backlog;

  /** This client's place among those not logged in yet; given back at login or close. */
  private final PreloginSlot prelogin;

  FrontendHandler(ProxyContext context, PreloginSlot prelogin) {
    this.context = context;
    this.prelogin = prelogin;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    Channel inbound = ctx.channel();
    context.stats.connectionsAccepted.increment();
    context.stats.clientConnections.incrementAndGet();
    int handshakeTimeout = context.config.limits().handshakeTimeoutMillis();
    if (handshakeTimeout > 0) {
      handshakeTimer =
          ctx.executor()
              .schedule(() -> handshakeDeadline(ctx), handshakeTimeout, TimeUnit.MILLISECONDS);
    }
    tracker =
        new SessionTracker(
            context.recorder,
            context.stats,
            context::serverVersion,
            Handshake.Policy.of(context.config));
    ProxyLimits limits = context.config.limits();
    tracker.statementLimits(limits.statementBytesPerConnection(), limits.statementBytesTotal());
    tracker.clientListener(context::client);
    if (context.capture.enabled()) {
      tracker.capture(new io.wireadvisor.capture.CaptureSession(context.capture));
    }
    Bootstrap b =
        new Bootstrap()
            .group(inbound.eventLoop())
            .channel(context.transport.channel())
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, Channels.WATER_MARK)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, context.config.connectTimeoutMillis())
            .handler(new BackendHandler(inbound, tracker, context.stats, prelogin));
    backend =
        b.connect(context.config.upstreamHost(), context.config.upstreamPort())
            .addListener(
                (ChannelFutureListener)
                    f -> {
                      if (f.isSuccess()) {
                        inbound.config().setAutoRead(true);
                      } else {
                        context.stats.upstreamConnectFailures.increment();
                        String message =
                            "wire-advisor proxy cannot reach upstream "
                                + context.config.upstreamAddress()
                                + ": "
                                + f.cause().getMessage();
                        inbound
                            .writeAndFlush(
                                Packets.preHandshakeErr(
                                    inbound.alloc(), Packets.ER_UNKNOWN_ERROR, message))
                            .addListener(ChannelFutureListener.CLOSE);
                      }
                    })
            .channel();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    if (rejected) {
      in.release(); // already answered with ERR and closing: nothing more goes upstream
      return;
    }
    countBytes(in.readableBytes());
    if (backlog != null) {
      backlog.add(in);
      return;
    }
    process(ctx, in);
  }

  /** Scans and forwards one buffer of client bytes; releases {@code in}. */
  private void process(ChannelHandlerContext ctx, ByteBuf in) {
    ByteBuf afterSslRequest = null;
    boolean startUpstreamTls = false;
    try {
      tracker.clientScanner().scan(in, out);
      if (tracker.takeStartTls()) {
        // What follows the SSLRequest is the client's TLS handshake: it goes through TLS first.
        afterSslRequest = in.isReadable() ? in.readRetainedSlice(in.readableBytes()) : null;
        ctx.pipeline().addFirst("tls", context.config.tls().newHandler(ctx.alloc()));
        context.stats.tlsConnections.increment();
      } else if (tracker.takeStartUpstreamTls()) {
        startUpstreamTls = true;
        backlog = new ArrayList<>(2);
        if (in.isReadable()) {
          backlog.add(in.readRetainedSlice(in.readableBytes()));
        }
      }
    } catch (ProtocolException e) {
      Channels.releaseAll(out);
      reject(ctx.channel(), e);
      return;
    } finally {
      in.release();
    }
    Channels.forward(out, backend, ctx.channel());
    if (afterSslRequest != null) {
      ctx.pipeline().fireChannelRead(afterSslRequest);
    }
    if (startUpstreamTls) {
      startUpstreamTls(ctx);
    }
  }

  /**
   * The client's HandshakeResponse is in and the upstream leg is TLS: sends the proxy's own
   * SSLRequest in plaintext, puts the TLS handler first in the upstream pipeline (its handshake
   * bytes follow the request on the wire), and sends the held HandshakeResponse once the
   * handshake completed. The client is not read meanwhile.
   */
  private void startUpstreamTls(ChannelHandlerContext ctx) {
    Channel inbound = ctx.channel();
    inbound.config().setAutoRead(false);
    // The client's next packet from the server answers its HandshakeResponse.
    int errSeq = (tracker.clientScanner().currentSeq() + 1) & 0xff;
    byte[] request = tracker.upstreamSslRequest();
    byte[] response = tracker.upstreamHandshakeResponse();
    if (backend == null || !backend.isActive()) {
      releaseBacklog(); // the upstream's close already ends this client
      return;
    }
    backend.writeAndFlush(Unpooled.wrappedBuffer(request), backend.voidPromise());
    SslHandler tls =
        context.config.upstreamTls().newHandler(
            backend.alloc(),
            context.config.upstreamHost(),
            context.config.upstreamPort(),
            context.config.connectTimeoutMillis());
    backend.pipeline().addFirst("upstream-tls", tls);
    tls.handshakeFuture()
        .addListener(
            f -> {
              if (f.isSuccess()) {
                context.stats.upstreamTlsConnections.increment();
                backend.writeAndFlush(Unpooled.wrappedBuffer(response), backend.voidPromise());
                resumeAfterUpstreamTls(ctx);
              } else {
                upstreamTlsFailed(inbound, errSeq, f.cause());
              }
            });
  }

  private void resumeAfterUpstreamTls(ChannelHandlerContext ctx) {
    List<ByteBuf> waiting = backlog;
    backlog = null;
    for (ByteBuf b : waiting) {
      if (rejected) {
        b.release();
      } else {
        process(ctx, b);
      }
    }
    if (!rejected && backend.isWritable()) {
      ctx.channel().config().setAutoRead(true);
    }
  }

  /** The upstream TLS handshake failed: this client gets an ERR saying why and is closed. */
  private void upstreamTlsFailed(Channel inbound, int seq, Throwable cause) {
    releaseBacklog();
    if (rejected || !inbound.isActive()) {
      backend.close();
      return; // the client left (its close ended the handshake): not a TLS failure
    }
    context.stats.upstreamTlsFailures.increment();
    rejected = true;
    String why;
    if (cause instanceof ClosedChannelException) {
      why = "the server closed the connection during the TLS handshake";
    } else if (cause == null || cause.getMessage() == null) {
      why = cause == null ? "unknown cause" : cause.getClass().getName();
    } else {
      why = cause.getMessage();
    }
    why = UpstreamTls.explainFailure(why, cause); // a refused certificate: names host and CA
    if (context.config.upstreamTls().ca() != null && causedByCertificate(cause)
        && !why.startsWith("the server's certificate")) {
      why = "the server's certificate does not verify against --upstream-ca "
          + context.config.upstreamTls().ca() + " (" + why + ")";
    }
    String message =
        "wire-advisor proxy: TLS to upstream " + context.config.upstreamAddress() + " failed: "
            + why;
    inbound
        .writeAndFlush(
            Packets.err(
                inbound.alloc(), seq, Packets.ER_UNKNOWN_ERROR, Packets.SQLSTATE_LINK_FAILURE,
                message))
        .addListener(ChannelFutureListener.CLOSE);
    backend.close();
  }

  private static boolean causedByCertificate(Throwable t) {
    for (int depth = 0; t != null && depth < 10; t = t.getCause(), depth++) {
      if (t instanceof java.security.cert.CertificateException) {
        return true;
      }
    }
    return false;
  }

  private void releaseBacklog() {
    if (backlog != null) {
      Channels.releaseAll(backlog);
      backlog = null;
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Channels.writabilityChanged(ctx.channel(), backend);
    ctx.fireChannelWritabilityChanged();
  }

  /** Ends this client's connection with an ERR packet; the proxy and other clients go on. */
  private void reject(Channel inbound, ProtocolException e) {
    reject(inbound, e, false);
  }

  /** @param timeout the client broke no rule, it was too slow (not a protocol error) */
  private void reject(Channel inbound, ProtocolException e, boolean timeout) {
    rejected = true;
    inbound.config().setAutoRead(false);
    if (!timeout) {
      context.stats.clientProtocolErrors.increment();
    }
    int seq = (tracker.clientScanner().currentSeq() + 1) & 0xff;
    String message = "wire-advisor proxy closed the connection: " + e.getMessage();
    ByteBuf err =
        tracker.inCommandPhase() || tracker.clientScanner().currentSeq() > 0
            ? Packets.err(inbound.alloc(), seq, e.code(), Packets.SQLSTATE_LINK_FAILURE, message)
            : Packets.preHandshakeErr(inbound.alloc(), e.code(), message);
    inbound.writeAndFlush(err).addListener(ChannelFutureListener.CLOSE);
    if (backend != null) {
      backend.close();
    }
  }

  /** Bytes read but not yet added to the shared counter (one add per MiB, not per read). */
  private long uncountedBytes;

  private void countBytes(int n) {
    uncountedBytes += n;
    if (uncountedBytes >= 1 << 20) {
      context.stats.bytesFromClients.add(uncountedBytes);
      uncountedBytes = 0;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (handshakeTimer != null) {
      handshakeTimer.cancel(false);
    }
    context.stats.bytesFromClients.add(uncountedBytes);
    uncountedBytes = 0;
    context.stats.clientConnections.decrementAndGet();
    releaseBacklog();
    if (tracker != null) {
      tracker.close();
    }
    // A client gone mid-result must not leave the server streaming to nobody.
    if (backend != null) {
      backend.close();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Connection resets and the like end this connection only; an Error ends the process.
    Fatal.exceptionCaught(ctx, cause);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof io.netty.handler.timeout.IdleStateEvent) {
      // Idle only between commands: a long query leaves the client silent, legitimately.
      if (!rejected && tracker != null && tracker.idleBetweenCommands()) {
        context.stats.idleTimeouts.increment();
        rejected = true;
        ctx.close();
      }
      return;
    }
    ctx.fireUserEventTriggered(evt);
  }

  /** Ends a client that is not logged in within --handshake-timeout. */
  private void handshakeDeadline(ChannelHandlerContext ctx) {
    Channel inbound = ctx.channel();
    if (rejected || !inbound.isActive() || tracker.inCommandPhase()) {
      return;
    }
    context.stats.handshakeTimeouts.increment();
    reject(
        inbound,
        new ProtocolException(
            Packets.ER_HANDSHAKE_ERROR,
            "no login within the handshake timeout of "
                + context.config.limits().handshakeTimeoutMillis() + " ms"),
        true);
  }
}
