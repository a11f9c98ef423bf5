package io.wireadvisor.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayList;
import java.util.List;

/**
 * The upstream side of one proxied connection: forwards server bytes to the client as the
 * {@link SessionTracker} scans them, and turns an upstream that vanishes mid-command into a
 * MySQL ERR for the client instead of a hang.
 */
final class BackendHandler extends ChannelInboundHandlerAdapter {
  private final Channel inbound;
  private final SessionTracker tracker;
  private final ProxyStats stats;
  private final List<ByteBuf> out = new ArrayList<>(4);

  /** Given back once the server's OK logs the client in (null once given back, or in tests). */
  private PreloginSlot prelogin;

  BackendHandler(Channel inbound, SessionTracker tracker, ProxyStats stats, PreloginSlot prelogin) {
    this.prelogin = prelogin;
    this.inbound = inbound;
    this.tracker = tracker;
    this.stats = stats;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    stats.upstreamConnections.incrementAndGet();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Channels.writabilityChanged(ctx.channel(), inbound);
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    countBytes(in.readableBytes());
    try {
      tracker.serverScanner().scan(in, out);
    } catch (ProtocolException e) {
      // A greeting too large to hold (not a MySQL server), one without TLS when upstream TLS is
      // required, or a login the proxy refuses to relay.
      Channels.releaseAll(out);
      ByteBuf err =
          tracker.awaitingGreeting()
              ? Packets.preHandshakeErr(
                  inbound.alloc(), e.code(), "wire-advisor proxy: upstream " + e.getMessage())
              : Packets.err(
                  inbound.alloc(),
                  // In place of the refused packet, numbered as the client would have seen it.
                  tracker.clientSeqOfServerPacket(),
                  e.code(),
                  "28000",
                  "wire-advisor proxy: " + e.getMessage());
      inbound.writeAndFlush(err).addListener(ChannelFutureListener.CLOSE);
      ctx.close();
      return;
    } finally {
      in.release();
    }
    if (prelogin != null && tracker.inCommandPhase()) {
      prelogin.release(); // logged in: no longer counts against --max-prelogin-*
      prelogin = null;
    }
    Channels.forward(out, inbound, ctx.channel());
  }

  /** Bytes read but not yet added to the shared counter (one add per MiB, not per read). */
  private long uncountedBytes;

  private void countBytes(int n) {
    uncountedBytes += n;
    if (uncountedBytes >= 1 << 20) {
      stats.bytesFromServer.add(uncountedBytes);
      uncountedBytes = 0;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stats.bytesFromServer.add(uncountedBytes);
    uncountedBytes = 0;
    stats.upstreamConnections.decrementAndGet();
    if (!inbound.isActive()) {
      tracker.close();
      return;
    }
    int seq = tracker.errSequenceForClient();
    if (tracker.awaitingGreeting()) {
      inbound.writeAndFlush(
          Packets.preHandshakeErr(
              inbound.alloc(),
              Packets.ER_UNKNOWN_ERROR,
              "wire-advisor proxy: the upstream server closed the connection before its greeting"));
    } else if (seq >= 0) {
      stats.upstreamLostMidCommand.increment();
      inbound.writeAndFlush(
          Packets.err(
              inbound.alloc(),
              seq,
              Packets.ER_UNKNOWN_ERROR,
              Packets.SQLSTATE_LINK_FAILURE,
              "wire-advisor proxy: the upstream server closed the connection during the command"));
    }
    tracker.close();
    Channels.closeOnFlush(inbound);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Fatal.exceptionCaught(ctx, cause);
  }
}
