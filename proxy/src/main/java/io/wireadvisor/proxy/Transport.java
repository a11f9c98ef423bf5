package io.wireadvisor.proxy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The Netty transport: Linux's native epoll where its library loads (it saves the JDK selector's
 * selected-key set and wake-up work on every event, which matters when client, proxy and server
 * share the cores), else NIO, which runs everywhere.
 */
final class Transport {
  /** What the user asked for: {@code auto} takes epoll when it is available. */
  enum Kind {
    AUTO,
    EPOLL,
    NIO;

    /**
     * Parses {@code auto}, {@code epoll} or {@code nio} (any case).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    static Kind parse(String s) {
      try {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "transport must be auto, epoll or nio, was '" + s + "'", e);
      }
    }
  }

  private final String name;
  private final Supplier<IoHandlerFactory> handlers;
  private final Class<? extends ServerSocketChannel> serverChannel;
  private final Class<? extends SocketChannel> channel;

  private Transport(
      String name,
      Supplier<IoHandlerFactory> handlers,
      Class<? extends ServerSocketChannel> serverChannel,
      Class<? extends SocketChannel> channel) {
    this.name = name;
    this.handlers = handlers;
    this.serverChannel = serverChannel;
    this.channel = channel;
  }

  /**
   * The transport for {@code kind}.
   *
   * @throws IllegalStateException when epoll is asked for and cannot be used here, with the
   *     reason the native library gave
   */
  static Transport of(Kind kind) {
    if (kind == Kind.NIO || (kind == Kind.AUTO && !Epoll.isAvailable())) {
      return new Transport(
          "nio", NioIoHandler::newFactory, NioServerSocketChannel.class, NioSocketChannel.class);
    }
    if (!Epoll.isAvailable()) {
      throw new IllegalStateException(
          "the epoll transport is not available here: " + Epoll.unavailabilityCause());
    }
    return new Transport(
        "epoll", EpollIoHandler::newFactory, EpollServerSocketChannel.class, EpollSocketChannel.class);
  }

  EventLoopGroup group(int threads) {
    io.netty.util.concurrent.DefaultThreadFactory named =
        new io.netty.util.concurrent.DefaultThreadFactory("wire-advisor-proxy");
    return new MultiThreadIoEventLoopGroup(
        threads,
        r -> {
          Thread t = named.newThread(r);
          t.setUncaughtExceptionHandler(Fatal.UNCAUGHT); // an Error ends the process
          return t;
        },
        handlers.get());
  }

  Class<? extends ServerSocketChannel> serverChannel() {
    return serverChannel;
  }

  Class<? extends SocketChannel> channel() {
    return channel;
  }

  String name() {
    return name;
  }
}
