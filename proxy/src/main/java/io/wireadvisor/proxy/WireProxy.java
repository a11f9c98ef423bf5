package io.wireadvisor.proxy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.TrafficProfile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A running wire-advisor proxy: accepts MySQL-protocol clients, forwards each to the upstream
 * server byte for byte, and records the traffic in a {@link ProfileRecorder}. Start one with
 * {@link #start(ProxyConfig)}; {@link #close()} stops it and every connection.
 */
public final class WireProxy implements AutoCloseable {
  /** The collector version written into profiles. */
  public static final String VERSION = versionOf();

  private final ProxyContext context;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final Channel server;
  private final AdminServer admin;

  private WireProxy(ProxyConfig config) throws IOException, InterruptedException {
    Transport transport = Transport.of(config.transport());
    this.boss = transport.group(1);
    // One event loop per core by default: forwarding never blocks, more threads only switch.
    this.workers =
        transport.group(
            config.workerThreads() > 0
                ? config.workerThreads()
                : Runtime.getRuntime().availableProcessors());
    ProfileRecorder recorder = new ProfileRecorder(config.recorderSettings());
    this.context = new ProxyContext(config, recorder, transport);
    AdminServer startedAdmin = null;
    Channel bound = null;
    try {
      ServerBootstrap b =
          new ServerBootstrap()
              .group(boss, workers)
              .channel(transport.serverChannel())
              // Reading starts once the upstream connection is up (FrontendHandler).
              .childOption(ChannelOption.AUTO_READ, false)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, Channels.WATER_MARK)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      channels.add(ch);
                      ProxyLimits limits = context.config.limits();
                      if (context.stats.admitted.incrementAndGet() > limits.maxConnections()) {
                        context.stats.admitted.decrementAndGet();
                        context.stats.connectionsRefused.increment();
                        ch.pipeline().addLast(TooManyConnections.INSTANCE);
                        return;
                      }
                      ch.closeFuture().addListener(f -> context.stats.admitted.decrementAndGet());
                      // Clients not logged in yet, in total and per source: each holds an
                      // upstream connection until it logs in (see PreloginLimiter).
                      InetSocketAddress remote = ch.remoteAddress();
                      if (remote == null) {
                        ch.close(); // reset before it was set up: nothing to serve
                        return;
                      }
                      java.net.InetAddress source = remote.getAddress();
                      PreloginLimiter.Refusal refusal = context.prelogin.tryAcquire(source);
                      if (refusal != null) {
                        (refusal == PreloginLimiter.Refusal.TOTAL
                                ? context.stats.preloginRefusedTotal
                                : context.stats.preloginRefusedSource)
                            .increment();
                        ch.pipeline().addLast(TooManyConnections.INSTANCE);
                        return;
                      }
                      PreloginSlot slot = new PreloginSlot(context.prelogin, source);
                      ch.closeFuture().addListener(f -> slot.release());
                      if (limits.idleTimeoutMillis() > 0) {
                        ch.pipeline()
                            .addLast(
                                new IdleStateHandler(
                                    0, 0, limits.idleTimeoutMillis(), TimeUnit.MILLISECONDS));
                      }
                      ch.pipeline().addLast(new FrontendHandler(context, slot));
                    }
                  });
      bound = b.bind(config.listenHost(), config.listenPort()).sync().channel();
      InetSocketAddress address = (InetSocketAddress) bound.localAddress();
      context.instance(config.listenHost() + ":" + address.getPort());
      if (config.capture().startFile() != null) {
        context.capture.startAtLaunch();
      }
      if (config.adminHost() != null) {
        startedAdmin =
            AdminServer.start(config.adminHost(), config.adminPort(), this, config.limits());
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      context.capture.close();
      if (bound != null) {
        bound.close();
      }
      shutdown(boss, workers);
      throw e;
    }
    this.server = bound;
    this.admin = startedAdmin;
  }

  /**
   * Binds the listen address and starts forwarding; returns once the proxy accepts connections.
   *
   * @throws IOException when the listen or admin address cannot be bound
   */
  public static WireProxy start(ProxyConfig config) throws IOException, InterruptedException {
    try {
      return new WireProxy(config);
    } catch (RuntimeException e) {
      if (e.getCause() instanceof IOException) {
        throw (IOException) e.getCause();
      }
      throw e;
    }
  }

  /** The bound listen address (with the chosen port when configured with 0). */
  public InetSocketAddress address() {
    return (InetSocketAddress) server.localAddress();
  }

  public int port() {
    return address().getPort();
  }

  /** The admin endpoint's port, or -1 when it is off. */
  public int adminPort() {
    return admin == null ? -1 : admin.port();
  }

  /** The admin endpoint, or null when it is off. */
  AdminServer admin() {
    return admin;
  }

  /** The metrics-only listener's port ({@code --metrics-listen}), or -1 when there is none. */
  public int metricsPort() {
    return admin == null ? -1 : admin.metricsPort();
  }

  public ProxyConfig config() {
    return context.config;
  }

  /** Where this proxy records; shared by every connection. */
  public ProfileRecorder recorder() {
    return context.recorder;
  }

  /** Everything recorded so far, as the profile {@code /profile} serves. */
  public TrafficProfile profile() {
    return context.recorder.snapshot();
  }

  /** The bound listen address, {@code host:port}: names this proxy in its profile and metrics. */
  String instance() {
    return context.instance();
  }

  /** The Netty transport in use: {@code epoll} or {@code nio}. */
  public String transport() {
    return context.transport.name();
  }

  /** Client connections open now. */
  public int clientConnections() {
    return context.stats.clientConnections.get();
  }

  /** Upstream connections open now (one per client once connected). */
  public int upstreamConnections() {
    return context.stats.upstreamConnections.get();
  }

  /** Client connections closed because they broke the protocol. */
  public long clientProtocolErrors() {
    return context.stats.clientProtocolErrors.sum();
  }

  /** Clients not logged in yet (--max-prelogin-connections, --max-prelogin-per-source). */
  PreloginLimiter prelogin() {
    return context.prelogin;
  }

  ProxyStats stats() {
    return context.stats;
  }

  /** Stops accepting, closes every connection and the admin endpoint. Idempotent. */
  @Override
  public void close() {
    if (admin != null) {
      admin.close();
    }
    server.close().syncUninterruptibly();
    channels.close().awaitUninterruptibly();
    shutdown(boss, workers);
    context.capture.close();
  }

  /** The traffic capture (started by --capture or the admin endpoint). */
  ProxyCapture capture() {
    return context.capture;
  }

  private static void shutdown(EventLoopGroup boss, EventLoopGroup workers) {
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    boss.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  private static String versionOf() {
    String v = WireProxy.class.getPackage().getImplementationVersion();
    return v == null ? "0.1.0-SNAPSHOT" : v;
  }
}
