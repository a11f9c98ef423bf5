package io.wireadvisor.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.WriteBufferWaterMark;
import java.util.List;

/**
 * Forwarding and back-pressure shared by both sides of a proxied connection.
 *
 * <p>Back-pressure: when the receiving channel holds more than {@link #WATER_MARK}'s high mark of
 * unflushed bytes it turns unwritable, and the sending side stops reading until it is writable
 * again. A fast sender therefore never has more than the high mark plus one read buffer in the
 * proxy per direction. (Netty's HexDumpProxy reads only after each flush instead; that re-arms the
 * read interest with a syscall on every read, which costs a measurable share of throughput on a
 * busy machine, for no tighter bound worth having.)
 */
final class Channels {
  /** 32 KiB low, 64 KiB high: about one read buffer; enough to keep both sockets busy. */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 64 * 1024);

  private Channels() {}

  /** Closes {@code ch} once everything written to it so far has been flushed. */
  static void closeOnFlush(Channel ch) {
    if (ch != null && ch.isActive()) {
      ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }

  static void releaseAll(List<ByteBuf> buffers) {
    for (ByteBuf b : buffers) {
      b.release();
    }
    buffers.clear();
  }

  /**
   * Writes {@code buffers} to {@code to}; if that leaves {@code to} unwritable, stops reading
   * {@code from} until {@link #writabilityChanged} says it drained.
   */
  static void forward(List<ByteBuf> buffers, Channel to, Channel from) {
    if (to == null || !to.isActive()) {
      releaseAll(buffers);
      return;
    }
    if (buffers.isEmpty()) {
      return; // a held handshake packet is still incomplete
    }
    // Void promises: a failed write reaches the handler's exceptionCaught, which closes the
    // channel (and channelInactive its peer); no promise object per write.
    int last = buffers.size() - 1;
    for (int i = 0; i < last; i++) {
      to.write(buffers.get(i), to.voidPromise());
    }
    to.writeAndFlush(buffers.get(last), to.voidPromise());
    buffers.clear();
    if (!to.isWritable()) {
      from.config().setAutoRead(false);
    }
  }

  /** {@code channel}'s writability changed: let {@code peer} read again once it drained. */
  static void writabilityChanged(Channel channel, Channel peer) {
    if (peer != null && channel.isWritable() && peer.isActive()) {
      peer.config().setAutoRead(true);
    }
  }
}
