package io.wireadvisor.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.List;

/** Small channel helpers shared by both sides of a proxied connection. */
final class Channels {
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
   * Writes {@code buffers} to {@code to} and, once they are flushed, reads the next message from
   * {@code from}: the sender is never read faster than the receiver takes the bytes.
   */
  static void forward(List<ByteBuf> buffers, Channel to, Channel from) {
    if (!to.isActive()) {
      releaseAll(buffers);
      return;
    }
    if (buffers.isEmpty()) {
      from.read(); // a held handshake packet is still incomplete
      return;
    }
    int last = buffers.size() - 1;
    for (int i = 0; i < last; i++) {
      to.write(buffers.get(i), to.voidPromise());
    }
    to.writeAndFlush(buffers.get(last))
        .addListener(
            (ChannelFutureListener)
                f -> {
                  if (f.isSuccess()) {
                    from.read();
                  } else {
                    f.channel().close();
                    from.close();
                  }
                });
    buffers.clear();
  }
}
