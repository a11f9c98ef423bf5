package io.wireadvisor.proxy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The Netty transport: NIO, which runs everywhere. (Linux's native epoll would save a few
 * syscalls per packet; its native jars were not obtainable for this build, see docs/proxy.md.)
 */
final class Transport {
  private Transport() {}

  static EventLoopGroup group(int threads) {
    return new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
  }

  static Class<? extends ServerSocketChannel> serverChannel() {
    return NioServerSocketChannel.class;
  }

  static Class<? extends SocketChannel> channel() {
    return NioSocketChannel.class;
  }

  static String name() {
    return "nio";
  }
}
