package io.wireadvisor.proxy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.WriteTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.capture.CaptureRun;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.report.Reports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The proxy's admin HTTP endpoint (loopback by default): {@code /metrics} (Prometheus), {@code
 * /profile} (the traffic profile JSON), {@code /report} (the advisor's report; {@code
 * ?format=text|markdown|json|html}), {@code /health}. Optionally a second listener serving only
 * {@code /metrics} and {@code /health} ({@code --metrics-listen}).
 *
 * <p>Netty on one event-loop thread of its own, off the forwarding path. Safe to reach by
 * untrusted peers in the sense that a peer costs only its own connection: a request must arrive
 * whole within {@code --admin-timeout} (a client sending {@code GET /hea} and stopping is closed
 * then, and blocks nobody meanwhile), requests are at most 8 KiB of headers and no body, one
 * request per connection. Per listener, at most {@code --admin-max-connections} connections whose
 * request line is in, and at most {@link #waitingCapacity} more still waiting for theirs, the
 * oldest of which a newcomer closes (see {@link Slots}): a connection flood cannot keep a probe
 * that sends its request from being answered. The
 * {@code Host} header must name the bound address, a loopback name, an IP literal or an allowed
 * host (DNS rebinding: a web page whose name resolves to 127.0.0.1 cannot read the report), else
 * 421. With a token, every path but {@code /health} and {@code /metrics} needs {@code
 * Authorization: Bearer <token>} (compared in constant time), else 401. {@code /profile} and
 * {@code /report} are built on a separate thread so a slow report does not hold up {@code
 * /health}.
 */
final class AdminServer implements AutoCloseable {
  private static final int MAX_REQUEST_BYTES = 8 * 1024;
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final Set<String> OPEN_PATHS = Set.of("/health", "/metrics");

  private final EventLoopGroup group;
  private final ExecutorService reports;
  private final PrometheusMeterRegistry registry;
  private final Channel admin;
  private final Channel metrics;
  private final Slots adminSlots;
  private final Slots metricsSlots;
  /** Every open admin connection, closed before the loop stops (their buffers released). */
  private final io.netty.channel.group.ChannelGroup children;

  private AdminServer(
      EventLoopGroup group,
      ExecutorService reports,
      PrometheusMeterRegistry registry,
      Channel admin,
      Channel metrics,
      io.netty.channel.group.ChannelGroup children,
      Slots adminSlots,
      Slots metricsSlots) {
    this.children = children;
    this.adminSlots = adminSlots;
    this.metricsSlots = metricsSlots;
    this.group = group;
    this.reports = reports;
    this.registry = registry;
    this.admin = admin;
    this.metrics = metrics;
  }

  /** Profiles and reports waiting for the one builder thread; past it, 503. */
  static final int MAX_QUEUED_REPORTS = 4;

  /**
   * Binds the admin listener on {@code host:port} (and the metrics-only one when {@code limits}
   * names it).
   */
  static AdminServer start(String host, int port, WireProxy proxy, ProxyLimits limits)
      throws IOException {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ProxyMetrics.bind(proxy, registry);
    EventLoopGroup group =
        new MultiThreadIoEventLoopGroup(
            1,
            new DefaultThreadFactory("wire-advisor-proxy-admin", true),
            EPOLL ? io.netty.channel.epoll.EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    // One builder, a few waiting: more is refused with 503 rather than queued without bound
    // (a client may ask and leave, freeing its admin slot for the next ask).
    ExecutorService reports =
        new java.util.concurrent.ThreadPoolExecutor(
            1, 1, 0, TimeUnit.MILLISECONDS,
            new java.util.concurrent.ArrayBlockingQueue<>(MAX_QUEUED_REPORTS),
            r -> {
              Thread t = new Thread(r, "wire-advisor-proxy-report");
              t.setDaemon(true);
              t.setUncaughtExceptionHandler(Fatal.UNCAUGHT);
              return t;
            });
    Channel admin = null;
    Channel metrics = null;
    Slots adminSlots = new Slots(limits.adminMaxConnections());
    Slots metricsSlots = new Slots(limits.adminMaxConnections());
    io.netty.channel.group.ChannelGroup children =
        new io.netty.channel.group.DefaultChannelGroup("wire-advisor-admin", group.next());
    try {
      Endpoints endpoints = new Endpoints(proxy, registry, reports);
      admin = bind(group, host, port, limits, endpoints, false, children, adminSlots);
      if (limits.metricsHost() != null) {
        metrics = bind(group, limits.metricsHost(), limits.metricsPort(), limits, endpoints, true,
            children, metricsSlots);
      }
    } catch (IOException | RuntimeException e) {
      if (admin != null) {
        admin.close();
      }
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      reports.shutdownNow();
      registry.close();
      throw e;
    }
    return new AdminServer(group, reports, registry, admin, metrics, children, adminSlots,
        limits.metricsHost() == null ? null : metricsSlots);
  }

  private static Channel bind(
      EventLoopGroup group,
      String host,
      int port,
      ProxyLimits limits,
      Endpoints endpoints,
      boolean metricsOnly,
      io.netty.channel.group.ChannelGroup children,
      Slots slots)
      throws IOException {
    Set<String> hosts = allowedHosts(host, limits.adminHosts());
    byte[] token = limits.adminToken() == null ? null : sha256(limits.adminToken());
    int timeout = limits.adminTimeoutMillis();
    ServerBootstrap b =
        new ServerBootstrap()
            .group(group)
            .channel(EPOLL ? io.netty.channel.epoll.EpollServerSocketChannel.class
                : NioServerSocketChannel.class)
            // A short accept queue: a probe waits behind at most BACKLOG connections the loop has
            // not accepted yet (the default, the kernel's somaxconn, is often 4096: under a flood
            // a probe then waited close to a second before the loop even saw it).
            .option(io.netty.channel.ChannelOption.SO_BACKLOG, BACKLOG)
            // At most ACCEPTS_PER_PASS connections accepted per pass of the loop (see Slots).
            .option(
                io.netty.channel.ChannelOption.RCVBUF_ALLOCATOR,
                new io.netty.channel.ServerChannelRecvByteBufAllocator()
                    .maxMessagesPerRead(ACCEPTS_PER_PASS))
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    slots.accepted(ch);
                    children.add(ch);
                    ch.pipeline()
                        .addLast(new RequestLineWatch(slots))
                        .addLast(new HttpServerCodec(4096, MAX_REQUEST_BYTES, MAX_REQUEST_BYTES))
                        .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                        .addLast(new WriteTimeoutHandler(timeout, TimeUnit.MILLISECONDS))
                        .addLast(new Request(endpoints, hosts, token, metricsOnly, timeout, slots));
                  }
                });
    if (EPOLL) {
      // Linux: a connection enters the accept queue only once it has sent a byte (or after this
      // many seconds), as nginx's "deferred": a flood of connections that say nothing never
      // reaches the loop, nor the queue a probe waits in.
      b.option(io.netty.channel.epoll.EpollChannelOption.TCP_DEFER_ACCEPT,
          Math.max(1, (timeout + 999) / 1000));
    }
    try {
      return b.bind(host, port).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while binding the admin endpoint", e);
    } catch (Exception e) {
      throw new IOException(
          "cannot bind the admin endpoint " + new HostPort(host, port) + ": " + e.getMessage(), e);
    }
  }

  /** Host header names accepted besides IP literals (which a rebinding attack cannot use). */
  static Set<String> allowedHosts(String bound, List<String> extra) {
    Set<String> hosts = new HashSet<>();
    hosts.add("localhost");
    hosts.add(normalizeHost(bound));
    for (String h : extra) {
      hosts.add(normalizeHost(h));
    }
    return hosts;
  }

  private static String normalizeHost(String h) {
    String s = h.trim().toLowerCase(Locale.ROOT);
    if (s.endsWith(".")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  /**
   * Whether a {@code Host} header value may reach the endpoints: an IP literal (v4 or bracketed
   * v6), or one of {@code allowed} (names compared without case and port).
   */
  static boolean hostAllowed(String header, Set<String> allowed) {
    if (header == null || header.isEmpty()) {
      return false;
    }
    String h = header.trim().toLowerCase(Locale.ROOT);
    String name;
    if (h.startsWith("[")) {
      int close = h.indexOf(']');
      if (close < 0) {
        return false;
      }
      String rest = h.substring(close + 1);
      if (!rest.isEmpty() && !rest.matches(":[0-9]{1,5}")) {
        return false;
      }
      return h.substring(1, close).matches("[0-9a-f:.]+"); // an IPv6 literal
    }
    int colon = h.indexOf(':');
    if (colon >= 0) {
      if (!h.substring(colon + 1).matches("[0-9]{1,5}")) {
        return false;
      }
      name = h.substring(0, colon);
    } else {
      name = h;
    }
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
      return true;
    }
    return allowed.contains(name);
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Whether an {@code Authorization} header carries the token. Both sides are hashed first, so
   * the comparison ({@link MessageDigest#isEqual}, constant time) takes as long whatever the
   * length or content of what was sent.
   */
  static boolean tokenMatches(String authorization, byte[] tokenHash) {
    String presented = "";
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      presented = authorization.substring(7).trim();
    }
    return MessageDigest.isEqual(sha256(presented), tokenHash) & !presented.isEmpty();
  }

  int port() {
    return ((InetSocketAddress) admin.localAddress()).getPort();
  }

  /** The metrics-only listener's port, or -1 when there is none. */
  int metricsPort() {
    return metrics == null ? -1 : ((InetSocketAddress) metrics.localAddress()).getPort();
  }

  @Override
  public void close() {
    admin.close().syncUninterruptibly();
    children.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    if (metrics != null) {
      metrics.close().syncUninterruptibly();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    reports.shutdownNow();
    registry.close();
  }

  /** The admin listener's connections now (for tests and the docs' figures). */
  Slots adminSlots() {
    return adminSlots;
  }

  /** The metrics listener's connections now, or null when there is no such listener. */
  Slots metricsSlots() {
    return metricsSlots;
  }

  /**
   * Connections that have not sent a complete request line yet, besides the {@code
   * --admin-max-connections} that have: {@code max(64, 4 x N)}. The loop accepts at most {@link
   * #ACCEPTS_PER_PASS} connections per pass, and a connection accepted in one pass is read in the
   * next, so a probe whose request is already on the wire is read before the 64 newer
   * connections it would take to push it out have arrived.
   */
  static int waitingCapacity(int maxConnections) {
    return Math.max(4 * ACCEPTS_PER_PASS, 4 * maxConnections);
  }

  /** Linux's native transport, for TCP_DEFER_ACCEPT; NIO elsewhere. */
  private static final boolean EPOLL = io.netty.channel.epoll.Epoll.isAvailable();

  /** The admin listeners' accept queue (the kernel's, of connections not accepted yet). */
  static final int BACKLOG = 512;

  /** Connections accepted per pass of the admin event loop at most. */
  static final int ACCEPTS_PER_PASS = 16;

  /**
   * One listener's connections, touched on the admin event loop only. A connection is
   * <em>waiting</em> until its request line is in (every byte up to the first LF), then
   * <em>busy</em> until it closes. At most {@link #maxWaiting} wait: a newcomer past it closes
   * the oldest waiting one (a flood of connections that send nothing, or a partial line, costs
   * only each other their slots). A busy connection is never closed for a newcomer; at most
   * {@link #maxBusy} are busy, and a connection whose request line comes in past that stays
   * waiting (evictable) until its request is answered. Its request is answered all the same if
   * it arrives whole before then: a probe sends its request in one segment.
   */
  static final class Slots {
    final int maxBusy;
    final int maxWaiting;
    private final java.util.LinkedHashSet<Channel> waiting = new java.util.LinkedHashSet<>();
    private final Set<Channel> busy = new HashSet<>();
    private volatile int peakOpen;
    private volatile int peakWaiting;
    private volatile int peakBusy;
    private volatile long evicted;
    private volatile int open;

    Slots(int maxBusy) {
      this.maxBusy = maxBusy;
      this.maxWaiting = waitingCapacity(maxBusy);
    }

    void accepted(Channel ch) {
      if (waiting.size() >= maxWaiting) {
        java.util.Iterator<Channel> oldest = waiting.iterator();
        Channel victim = oldest.next();
        oldest.remove();
        evicted++;
        victim.close();
      }
      waiting.add(ch);
      ch.closeFuture().addListener(f -> closed(ch));
      update();
    }

    /** The request line (or, at the latest, the whole request) is in. */
    void requestLineIn(Channel ch) {
      if (busy.size() < maxBusy && waiting.remove(ch)) {
        busy.add(ch);
        update();
      }
    }

    private void closed(Channel ch) {
      if (!waiting.remove(ch)) {
        busy.remove(ch);
      }
      update();
    }

    private void update() {
      open = waiting.size() + busy.size();
      peakOpen = Math.max(peakOpen, open);
      peakWaiting = Math.max(peakWaiting, waiting.size());
      peakBusy = Math.max(peakBusy, busy.size());
    }

    /** Connections open now. */
    int open() {
      return open;
    }

    int peakOpen() {
      return peakOpen;
    }

    int peakWaiting() {
      return peakWaiting;
    }

    int peakBusy() {
      return peakBusy;
    }

    /** Waiting connections closed for newcomers. */
    long evicted() {
      return evicted;
    }
  }

  /**
   * Marks its connection busy once the request line is in (the first LF), then leaves the
   * pipeline. Sees every byte before the HTTP decoder, which reports nothing until the headers
   * end.
   */
  private static final class RequestLineWatch extends io.netty.channel.ChannelInboundHandlerAdapter {
    private final Slots slots;

    RequestLineWatch(Slots slots) {
      this.slots = slots;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      boolean lineIn =
          msg instanceof ByteBuf buf
              && buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) '\n') >= 0;
      if (lineIn) {
        slots.requestLineIn(ctx.channel());
      }
      ctx.fireChannelRead(msg);
      if (lineIn && !ctx.isRemoved()) {
        ctx.pipeline().remove(this);
      }
    }
  }

  /** What each path answers. */
  private static final class Endpoints {
    final WireProxy proxy;
    final PrometheusMeterRegistry registry;
    final ExecutorService reports;

    Endpoints(WireProxy proxy, PrometheusMeterRegistry registry, ExecutorService reports) {
      this.proxy = proxy;
      this.registry = registry;
      this.reports = reports;
    }

    String health() {
      return AdminJson.health(proxy.clientConnections(), proxy.upstreamConnections());
    }
  }

  /** One connection: one request, one response, then close. */
  private static final class Request extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final Endpoints endpoints;
    private final Set<String> hosts;
    private final byte[] token;
    private final boolean metricsOnly;
    private final int timeoutMillis;
    private ScheduledFuture<?> deadline;
    private boolean answered;
    private final Slots slots;

    Request(Endpoints endpoints, Set<String> hosts, byte[] token, boolean metricsOnly, int timeout,
        Slots slots) {
      this.slots = slots;
      this.endpoints = endpoints;
      this.hosts = hosts;
      this.token = token;
      this.metricsOnly = metricsOnly;
      this.timeoutMillis = timeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      // The whole request must be in within the timeout: a stalled partial request is closed.
      deadline =
          ctx.executor().schedule(() -> ctx.close(), timeoutMillis, TimeUnit.MILLISECONDS);
      ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (deadline != null) {
        deadline.cancel(false);
      }
      ctx.fireChannelInactive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      if (answered) {
        return; // one request per connection; pipelined extras are ignored
      }
      answered = true;
      slots.requestLineIn(ctx.channel()); // its request is in: no longer evictable, if room
      deadline.cancel(false); // the request is in; a slow reader is the WriteTimeoutHandler's
      ctx.channel().config().setAutoRead(false);
      if (!req.decoderResult().isSuccess()) {
        respond(ctx, req, HttpResponseStatus.BAD_REQUEST, TEXT, "bad request\n");
        return;
      }
      if (!hostAllowed(req.headers().get(HttpHeaderNames.HOST), hosts)) {
        respond(ctx, req, HttpResponseStatus.MISDIRECTED_REQUEST, TEXT,
            "Host header not accepted; use the proxy's address or add it with --admin-allow-host\n");
        return;
      }
      QueryStringDecoder uri = new QueryStringDecoder(req.uri());
      String path = uri.path();
      if (token != null
          && !OPEN_PATHS.contains(path)
          && !tokenMatches(req.headers().get(HttpHeaderNames.AUTHORIZATION), token)) {
        FullHttpResponse r = response(req, HttpResponseStatus.UNAUTHORIZED, TEXT,
            "an admin token is required: Authorization: Bearer <token>\n");
        r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
        send(ctx, r);
        return;
      }
      boolean known =
          metricsOnly
              ? OPEN_PATHS.contains(path)
              : Set.of("/health", "/metrics", "/profile", "/report", "/capture", "/capture/start",
                  "/capture/stop").contains(path);
      if (!known) {
        respond(ctx, req, HttpResponseStatus.NOT_FOUND, TEXT,
            metricsOnly
                ? "not found; this listener serves /metrics and /health\n"
                : "not found; try /metrics, /profile, /report, /health\n");
        return;
      }
      if (path.startsWith("/capture/")) {
        capture(ctx, req, uri, path);
        return;
      }
      if (!HttpMethod.GET.equals(req.method()) && !HttpMethod.HEAD.equals(req.method())) {
        FullHttpResponse r = response(req, HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, "");
        r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        send(ctx, r);
        return;
      }
      switch (path) {
        case "/capture":
          respond(ctx, req, HttpResponseStatus.OK, "application/json",
              endpoints.proxy.capture().statusJson() + "\n");
          return;
        case "/health":
          respond(ctx, req, HttpResponseStatus.OK, "application/json", endpoints.health());
          return;
        case "/metrics":
          respond(ctx, req, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
              endpoints.registry.scrape());
          return;
        default:
          // Snapshots and reports can take a while: not on the loop that serves /health.
          HttpMethod method = req.method();
          List<String> formats = uri.parameters().get("format");
          String format = formats == null || formats.isEmpty() ? "text" : formats.get(0);
          try {
            endpoints.reports.execute(
                () -> {
                  if (!ctx.channel().isActive()) {
                    return; // asked and left: nothing to build for
                  }
                  try {
                    slow(ctx, method, path, format);
                  } catch (RuntimeException e) {
                    // Answered, so the connection (and its admin slot) is released.
                    send(ctx, response(method, HttpResponseStatus.INTERNAL_SERVER_ERROR, TEXT,
                        "could not build " + path + ": " + e + "\n"));
                  }
                });
          } catch (java.util.concurrent.RejectedExecutionException busy) {
            respond(ctx, req, HttpResponseStatus.SERVICE_UNAVAILABLE, TEXT,
                "busy: " + MAX_QUEUED_REPORTS + " profiles or reports are already being built; try again\n");
          }
      }
    }

    /**
     * {@code POST /capture/start?name=FILE[&maxBytes=N][&maxSeconds=N][&mask=true]} and {@code POST
     * /capture/stop}. A capture writes the application's statements and values to disk, so these
     * need a POST (no link or image can trigger them) and {@code --admin-token}, whatever the
     * listener's address; the file lands in {@code --capture-dir}, nowhere else.
     */
    private void capture(ChannelHandlerContext ctx, FullHttpRequest req, QueryStringDecoder uri, String path) {
      if (!HttpMethod.POST.equals(req.method())) {
        FullHttpResponse r = response(req, HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, "use POST\n");
        r.headers().set(HttpHeaderNames.ALLOW, "POST");
        send(ctx, r);
        return;
      }
      if (token == null) {
        respond(ctx, req, HttpResponseStatus.FORBIDDEN, TEXT,
            "starting or stopping a capture needs --admin-token (a capture writes the"
                + " application's data to disk)\n");
        return;
      }
      ProxyCapture capture = endpoints.proxy.capture();
      try {
        if (path.equals("/capture/stop")) {
          io.wireadvisor.capture.CaptureSlot.Summary s = capture.stop();
          respond(ctx, req, s == null ? HttpResponseStatus.CONFLICT : HttpResponseStatus.OK,
              "application/json", (s == null ? AdminJson.error("no capture is running") : ProxyCapture.json(s)) + "\n");
          return;
        }
        Map<String, List<String>> q = uri.parameters();
        CaptureRun a =
            capture.startInDirectory(
                first(q, "name"), longParam(q, "maxBytes"), longParam(q, "maxSeconds"),
                q.containsKey("mask") ? Boolean.valueOf("true".equalsIgnoreCase(first(q, "mask"))) : null);
        respond(ctx, req, HttpResponseStatus.OK, "application/json",
            AdminJson.started(a.file().toString(), a.masked()) + "\n");
      } catch (IllegalStateException e) {
        respond(ctx, req, HttpResponseStatus.CONFLICT, "application/json",
            AdminJson.error(e.getMessage()) + "\n");
      } catch (IllegalArgumentException e) {
        respond(ctx, req, HttpResponseStatus.BAD_REQUEST, "application/json",
            AdminJson.error(e.getMessage()) + "\n");
      } catch (java.io.IOException e) {
        // e.g. the file exists: never overwritten, never through a link.
        respond(ctx, req, HttpResponseStatus.CONFLICT, "application/json",
            AdminJson.error("could not create the capture file: " + e.getMessage()) + "\n");
      }
    }

    private static String first(Map<String, List<String>> q, String name) {
      List<String> v = q.get(name);
      return v == null || v.isEmpty() ? null : v.get(0);
    }

    private static Long longParam(Map<String, List<String>> q, String name) {
      String v = first(q, name);
      if (v == null) {
        return null;
      }
      try {
        return Long.valueOf(v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a whole number, was '" + v + "'");
      }
    }

    private void slow(ChannelHandlerContext ctx, HttpMethod method, String path, String format) {
      HttpResponseStatus status = HttpResponseStatus.OK;
      String type;
      String body;
      if (path.equals("/profile")) {
        type = "application/json";
        body = ProfileJson.toJson(endpoints.proxy.profile());
      } else {
        // The proxy holds no database credentials, so the report judges the traffic alone.
        Analysis analysis = Advisor.analyze(endpoints.proxy.profile(), null);
        switch (format) {
          case "text":
            type = TEXT;
            body = Reports.text(analysis);
            break;
          case "markdown":
            type = "text/markdown; charset=utf-8";
            body = Reports.markdown(analysis);
            break;
          case "json":
            type = "application/json";
            body = Reports.json(analysis);
            break;
          case "html":
            type = "text/html; charset=utf-8";
            body = Reports.html(analysis);
            break;
          default:
            status = HttpResponseStatus.BAD_REQUEST;
            type = TEXT;
            body = "unknown format '" + format + "'; use text, markdown, json or html\n";
        }
      }
      send(ctx, response(method, status, type, body));
    }

    private static void respond(
        ChannelHandlerContext ctx,
        FullHttpRequest req,
        HttpResponseStatus status,
        String type,
        String body) {
      send(ctx, response(req, status, type, body));
    }

    private static FullHttpResponse response(
        FullHttpRequest req, HttpResponseStatus status, String type, String body) {
      return response(req.method(), status, type, body);
    }

    private static FullHttpResponse response(
        HttpMethod method, HttpResponseStatus status, String type, String body) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ByteBuf content =
          HttpMethod.HEAD.equals(method) ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
      FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
      r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
      r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      return r;
    }

    private static void send(ChannelHandlerContext ctx, FullHttpResponse r) {
      ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Fatal.exceptionCaught(ctx, cause);
    }
  }
}
