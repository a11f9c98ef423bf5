package io.wireadvisor.proxy;

/** A {@code host:port} (or {@code [v6]:port}, or a bare port meaning loopback) from the CLI. */
record HostPort(String host, int port) {
  static HostPort parse(String text, String defaultHost) {
    String s = text.trim();
    String host;
    String port;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0 || close + 1 >= s.length() || s.charAt(close + 1) != ':') {
        throw new IllegalArgumentException("expected [ipv6]:port, got '" + text + "'");
      }
      host = s.substring(1, close);
      port = s.substring(close + 2);
    } else {
      int colon = s.lastIndexOf(':');
      if (colon < 0) {
        host = defaultHost;
        port = s;
      } else {
        host = s.substring(0, colon);
        port = s.substring(colon + 1);
      }
    }
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("missing host in '" + text + "'");
    }
    int p;
    try {
      p = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port '" + port + "' in '" + text + "' is not a number");
    }
    if (p < 0 || p > 65535) {
      throw new IllegalArgumentException("port " + p + " in '" + text + "' is not in 0..65535");
    }
    return new HostPort(host, p);
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
