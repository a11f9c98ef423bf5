package io.wireadvisor.agent.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Describes a Connector/J connection string by what it addresses — scheme, hosts, ports, database
 * — and nothing else. The driver's {@code getURL()} returns the string as written, and a password
 * can sit in many places of Connector/J's grammar ({@code ConnectionUrlParser}):
 *
 * <pre>
 *   scheme://[user[:password]@]host[:port][,...]/db?key=value&amp;...
 *   scheme://address=(host=h)(port=p)(user=u)(password=pw)[,...]/db
 *   scheme://(host=h,port=p,user=u,password=pw)[,...]/db
 *   scheme://[user:pw@]h1,[user:pw@]h2/db           (and the list in [ ])
 *   scheme://user:pw@[h1,(host=h2,password=pw),address=(host=h3)(password=pw)]/db
 * </pre>
 *
 * <p>So nothing of the input is copied by cutting it: the description is rebuilt from parsed
 * parts, and every part must pass a strict character check ({@code [A-Za-z0-9._-]} for host
 * names, hex digits, {@code :} and {@code .} for bracketed IPv6, digits for ports, {@code
 * [A-Za-z0-9_$.-]} for the database) or it is left out. User info, every {@code key=value} other
 * than {@code host} and {@code port}, the query string and the fragment are always dropped.
 * The top-level split is Connector/J's own ({@code //authority} ends at the first {@code /},
 * {@code ?} or {@code #}), so the database is the one the driver uses.
 */
public final class JdbcUrls {
  /** Connector/J's connection string types ({@code ConnectionUrl.Type}), longest first. */
  private static final String[] SCHEMES = {
    "jdbc:mysql+srv:loadbalance:",
    "jdbc:mysql+srv:replication:",
    "jdbc:mysql:loadbalance:",
    "jdbc:mysql:replication:",
    "jdbc:mysql+srv:",
    "jdbc:mysql:",
    "mysqlx+srv:",
    "mysqlx:",
  };

  private JdbcUrls() {}

  /**
   * {@code scheme//host:port,host:port/db}, only with the parts that pass the character checks;
   * null when the input is null or not a Connector/J connection string.
   */
  public static String describe(String url) {
    if (url == null) {
      return null;
    }
    String u = url.trim();
    String scheme = null;
    for (String s : SCHEMES) {
      if (u.regionMatches(true, 0, s, 0, s.length())) {
        scheme = s;
        break;
      }
    }
    if (scheme == null) {
      return null;
    }
    String rest = u.substring(scheme.length()).trim();
    StringBuilder out = new StringBuilder(scheme).append("//");
    if (!rest.startsWith("//")) {
      return out.toString();
    }
    rest = rest.substring(2);
    int end = indexOfAny(rest, "/?#", 0);
    String authority = end < 0 ? rest : rest.substring(0, end);
    String db = null;
    if (end >= 0 && rest.charAt(end) == '/') {
      int pathEnd = indexOfAny(rest, "?#", end + 1);
      db = percentDecode(rest.substring(end + 1, pathEnd < 0 ? rest.length() : pathEnd)).trim();
    }
    List<String> hosts = new ArrayList<>();
    for (String segment : splitTopLevel(authority)) {
      hostsOf(segment.trim(), hosts, 0);
    }
    for (int i = 0; i < hosts.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(hosts.get(i));
    }
    out.append('/');
    if (db != null && isDatabaseName(db)) {
      out.append(db);
    }
    return out.toString();
  }

  /** Adds the {@code host[:port]} descriptions of one authority segment. */
  private static void hostsOf(String segment, List<String> out, int depth) {
    if (segment.isEmpty() || depth > 2) {
      return;
    }
    // User info: everything up to the last '@' outside brackets and parentheses.
    int at = lastTopLevel(segment, '@');
    String hostInfo = (at >= 0 ? segment.substring(at + 1) : segment).trim();
    if (hostInfo.isEmpty()) {
      return;
    }
    if (hostInfo.startsWith("[") && hostInfo.endsWith("]")) {
      String inner = hostInfo.substring(1, hostInfo.length() - 1);
      if (isIpv6(inner)) {
        add(out, "[" + inner + "]", null);
        return;
      }
      // A sub-list of hosts.
      for (String s : splitTopLevel(inner)) {
        hostsOf(s.trim(), out, depth + 1);
      }
      return;
    }
    if (hostInfo.regionMatches(true, 0, "address=", 0, 8)) {
      String host = null;
      String port = null;
      String pairs = hostInfo.substring(8);
      int i = 0;
      while ((i = pairs.indexOf('(', i)) >= 0) {
        int close = pairs.indexOf(')', i);
        if (close < 0) {
          break;
        }
        String[] kv = keyValue(pairs.substring(i + 1, close));
        if (kv != null && "host".equalsIgnoreCase(kv[0])) {
          host = kv[1];
        } else if (kv != null && "port".equalsIgnoreCase(kv[0])) {
          port = kv[1];
        }
        i = close + 1;
      }
      add(out, host, port);
      return;
    }
    if (hostInfo.startsWith("(") && hostInfo.endsWith(")")) {
      String host = null;
      String port = null;
      for (String pair : hostInfo.substring(1, hostInfo.length() - 1).split(",")) {
        String[] kv = keyValue(pair);
        if (kv != null && "host".equalsIgnoreCase(kv[0])) {
          host = kv[1];
        } else if (kv != null && "port".equalsIgnoreCase(kv[0])) {
          port = kv[1];
        }
      }
      add(out, host, port);
      return;
    }
    // host[:port] or [ipv6][:port]
    if (hostInfo.startsWith("[")) {
      int close = hostInfo.indexOf(']');
      if (close < 0) {
        return;
      }
      String inner = hostInfo.substring(1, close);
      String after = hostInfo.substring(close + 1).trim();
      String port = after.startsWith(":") ? after.substring(1) : null;
      add(out, isIpv6(inner) ? "[" + inner + "]" : null, port);
      return;
    }
    int colon = hostInfo.lastIndexOf(':');
    if (colon >= 0) {
      add(out, hostInfo.substring(0, colon), hostInfo.substring(colon + 1));
    } else {
      add(out, hostInfo, null);
    }
  }

  private static String[] keyValue(String pair) {
    int eq = pair.indexOf('=');
    if (eq < 0) {
      return null;
    }
    return new String[] {pair.substring(0, eq).trim(), pair.substring(eq + 1).trim()};
  }

  /** Adds {@code host[:port]} when the host passes the checks; a bad port is left out. */
  private static void add(List<String> out, String host, String port) {
    if (host == null) {
      return;
    }
    String h = host.startsWith("[") ? host : percentDecode(host).trim();
    if (!(h.startsWith("[") || isHostName(h))) {
      return;
    }
    String p = port == null ? null : port.trim();
    out.add(p != null && isPort(p) ? h + ":" + p : h);
  }

  static boolean isHostName(String h) {
    if (h.isEmpty() || h.length() > 253) {
      return false;
    }
    for (int i = 0; i < h.length(); i++) {
      char c = h.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.'
          || c == '-' || c == '_')) {
        return false;
      }
    }
    return true;
  }

  static boolean isIpv6(String h) {
    if (h.isEmpty() || h.length() > 45 || h.indexOf(':') < 0) {
      return false;
    }
    for (int i = 0; i < h.length(); i++) {
      char c = h.charAt(i);
      if (!(c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c >= '0' && c <= '9' || c == ':'
          || c == '.')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPort(String p) {
    if (p.isEmpty() || p.length() > 5) {
      return false;
    }
    for (int i = 0; i < p.length(); i++) {
      if (p.charAt(i) < '0' || p.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  static boolean isDatabaseName(String db) {
    if (db.isEmpty() || db.length() > 64) {
      return false;
    }
    for (int i = 0; i < db.length(); i++) {
      char c = db.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
          || c == '$' || c == '-' || c == '.')) {
        return false;
      }
    }
    return true;
  }

  /** Splits at commas outside brackets and parentheses. */
  private static List<String> splitTopLevel(String s) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '[' || c == '(') {
        depth++;
      } else if ((c == ']' || c == ')') && depth > 0) {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(s.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(s.substring(start));
    return parts;
  }

  private static int lastTopLevel(String s, char wanted) {
    int depth = 0;
    int found = -1;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '[' || c == '(') {
        depth++;
      } else if ((c == ']' || c == ')') && depth > 0) {
        depth--;
      } else if (c == wanted && depth == 0) {
        found = i;
      }
    }
    return found;
  }

  private static int indexOfAny(String s, String chars, int from) {
    for (int i = from; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  /** %xx decoding of ASCII escapes only (enough for host and database names); others stay. */
  private static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length()) {
        int hi = hex(s.charAt(i + 1));
        int lo = hex(s.charAt(i + 2));
        if (hi >= 0 && lo >= 0 && (hi << 4 | lo) >= 0x20 && (hi << 4 | lo) < 0x7f) {
          b.append((char) (hi << 4 | lo));
          i += 2;
          continue;
        }
      }
      b.append(c);
    }
    return b.toString();
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
