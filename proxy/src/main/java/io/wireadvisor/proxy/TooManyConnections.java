package io.wireadvisor.proxy;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Answers a client past {@code --max-connections} as MySQL does: ERR 1040 "Too many connections"
 * with sequence id 0 in place of the greeting, then closes. No upstream connection is opened.
 */
@Sharable
final class TooManyConnections extends ChannelInboundHandlerAdapter {
  static final TooManyConnections INSTANCE = new TooManyConnections();

  private TooManyConnections() {}

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ctx.writeAndFlush(
            Packets.preHandshakeErr(ctx.alloc(), Packets.ER_CON_COUNT_ERROR, "Too many connections"))
        .addListener(ChannelFutureListener.CLOSE);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    io.netty.util.ReferenceCountUtil.release(msg);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Fatal.exceptionCaught(ctx, cause);
  }
}
