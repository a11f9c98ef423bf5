package io.wireadvisor.proxy;

import java.util.function.IntConsumer;

/**
 * What happens when an {@link Error} (OutOfMemoryError, StackOverflowError, a linkage error)
 * reaches a handler or an event-loop thread: the process ends. After an OutOfMemoryError an event
 * loop may have stopped serving its connections while the process stays up, which load balancers
 * cannot see; a process that exits is restarted by its supervisor. The launcher also runs the
 * JVM with {@code -XX:+ExitOnOutOfMemoryError}, which catches the errors no handler sees.
 */
final class Fatal {
  /** Exit status after a fatal error (EX_SOFTWARE). */
  static final int EXIT_CODE = 70;

  /** Replaced by tests; {@link Runtime#halt} otherwise (no shutdown hooks: the heap may be gone). */
  static volatile IntConsumer halt = code -> Runtime.getRuntime().halt(code);

  private Fatal() {}

  /** True for throwables that end the process rather than one connection. */
  static boolean isFatal(Throwable t) {
    return t instanceof Error;
  }

  /** Logs what it can and ends the process. */
  static void die(String where, Throwable t) {
    try {
      System.err.println(
          "wire-advisor-proxy: fatal " + t.getClass().getName() + " in " + where + ": "
              + t.getMessage() + "; exiting with status " + EXIT_CODE);
      System.err.flush();
    } catch (Throwable ignored) {
      // Out of memory even for the message: exit anyway.
    }
    halt.accept(EXIT_CODE);
  }

  /** For handlers' {@code exceptionCaught}: an Error ends the process, anything else the channel. */
  static void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable cause) {
    if (isFatal(cause)) {
      die("event loop " + Thread.currentThread().getName(), cause);
    }
    ctx.close();
  }

  /** Installed on every proxy thread: an Error that escaped Netty ends the process too. */
  static final Thread.UncaughtExceptionHandler UNCAUGHT =
      (thread, t) -> {
        if (isFatal(t)) {
          die("thread " + thread.getName(), t);
        } else {
          System.err.println("wire-advisor-proxy: uncaught " + t + " in thread " + thread.getName());
        }
      };
}
