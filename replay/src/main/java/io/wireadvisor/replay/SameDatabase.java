package io.wireadvisor.replay;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat.Capture;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a replay would run against the database its capture came from. There the capture's
 * writes are already committed: replayed, its inserts meet their own rows (one duplicate-key error
 * per key) and its updates find other values, so the comparison measures errors, not the
 * configuration. Refused unless {@code --allow-same-database}.
 *
 * <p>"The same database" is: the same server (the capture header's {@code upstream} host and port
 * against the replay's; host names compared by their addresses, every loopback address alike)
 * and a schema the capture used (a connection's schema at login or by COM_INIT_DB), or any schema
 * when the capture names none. A capture without {@code upstream} (the agent's, or one written
 * before it was recorded) cannot be checked: replay says so and goes on.
 */
final class SameDatabase {
  private SameDatabase() {}

  /** The schemas the capture's connections used, lower-cased, at most 1,000. */
  static Set<String> schemas(Capture capture) {
    Set<String> s = new TreeSet<>();
    for (CaptureEvent e : capture.events()) {
      if ((e.kind() == CaptureEvent.Kind.CONNECT || e.kind() == CaptureEvent.Kind.INIT_DB) && e.ok()
          && e.sql() != null && !e.sql().isEmpty() && s.size() < 1_000) {
        s.add(e.sql().toLowerCase(Locale.ROOT));
      }
    }
    return s;
  }

  /**
   * Null when the replay may run; else why not (for the refusal's message).
   *
   * @param database the schema the replay runs in (the target's, or {@code --commit-to})
   */
  static String reason(Capture capture, ReplayTarget target, String database) {
    String upstream = capture.header().upstream();
    if (upstream == null) {
      return null;
    }
    int colon = upstream.lastIndexOf(':');
    if (colon < 0) {
      return null;
    }
    String host = upstream.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(upstream.substring(colon + 1));
    } catch (NumberFormatException e) {
      return null;
    }
    if (port != target.port() || !sameHost(host, target.host())) {
      return null;
    }
    Set<String> schemas = schemas(capture);
    String db = database == null ? "" : database.toLowerCase(Locale.ROOT);
    if (!schemas.isEmpty() && !db.isEmpty() && !schemas.contains(db)) {
      return null;
    }
    return "the capture came from " + upstream + (schemas.isEmpty() ? "" : " schema " + String.join(", ", schemas))
        + " and replay would run there" + (db.isEmpty() ? "" : " (in " + database + ")")
        + ": the captured writes are committed there already, so replayed inserts meet their own"
        + " rows as duplicate keys and updates find other values. Replay into a copy (--jdbc-url on"
        + " another server, or another database with --commit-to), or pass --allow-same-database";
  }

  static boolean sameHost(String a, String b) {
    if (a.equalsIgnoreCase(b)) {
      return true;
    }
    try {
      InetAddress[] as = InetAddress.getAllByName(a);
      InetAddress[] bs = InetAddress.getAllByName(b);
      for (InetAddress x : as) {
        for (InetAddress y : bs) {
          if (x.equals(y) || (x.isLoopbackAddress() && y.isLoopbackAddress())) {
            return true;
          }
        }
      }
      return false;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
