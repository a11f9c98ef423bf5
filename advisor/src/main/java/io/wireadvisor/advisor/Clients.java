package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The clients a profile's sources name, by kind, each with a label for reports ({@code PyMySQL
 * (pymysql 1.2.4)}). A profile without sources (hand-made, or from before sources were recorded)
 * is taken as JDBC, as the advisor always took it.
 */
public final class Clients {
  private final Map<ClientKind, Set<String>> kinds = new LinkedHashMap<>();
  /** Each source's client key ({@link Source#clientKey()}) and its kind. */
  private final Map<String, ClientKind> byKey = new LinkedHashMap<>();

  private Clients(TrafficProfile profile) {
    for (Source s : profile.sources()) {
      ClientKind kind = ClientKind.of(s);
      byKey.put(s.clientKey(), kind);
      Set<String> names = kinds.get(kind);
      if (names == null) {
        names = new LinkedHashSet<>();
        kinds.put(kind, names);
      }
      StringBuilder name = new StringBuilder();
      if (s.driverName() != null) {
        name.append(s.driverName());
        if (s.driverVersion() != null) {
          name.append(' ').append(s.driverVersion());
        }
      }
      String program = s.property("program_name");
      if (program != null && !Source.AGENT.equals(s.collector())) {
        name.append(name.length() == 0 ? "" : ", ").append("program ").append(program);
      }
      if (name.length() > 0) {
        names.add(Redaction.text(name.toString(), null));
      }
    }
  }

  /** The clients of a profile's sources. */
  public static Clients of(TrafficProfile profile) {
    return new Clients(profile);
  }

  /** The kinds seen, in the order of the profile's sources. */
  public List<ClientKind> kinds() {
    return Collections.unmodifiableList(new ArrayList<>(kinds.keySet()));
  }

  /** True when JDBC advice applies to some of the traffic (or no source says otherwise). */
  public boolean speaksJdbc() {
    if (kinds.isEmpty()) {
      return true;
    }
    for (ClientKind k : kinds.keySet()) {
      if (k.jdbc()) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when a JDBC client sent (some of) {@code shape}: by its clients where the profile
   * attributed it ({@link io.wireadvisor.profile.ShapeStats#clients()}), else by the profile's
   * clients ({@link #speaksJdbc()}).
   */
  public boolean sentByJdbc(io.wireadvisor.profile.ShapeStats shape) {
    if (shape.clients().isEmpty()) {
      return speaksJdbc();
    }
    for (String key : shape.clients().keySet()) {
      ClientKind k = byKey.get(key);
      if (k != null && k.jdbc()) {
        return true;
      }
    }
    return false;
  }

  /** The kinds JDBC advice does not apply to, in order. */
  public List<ClientKind> others() {
    List<ClientKind> out = new ArrayList<>();
    for (ClientKind k : kinds.keySet()) {
      if (!k.jdbc()) {
        out.add(k);
      }
    }
    return out;
  }

  /** The JDBC kinds, in order. */
  public List<ClientKind> jdbcKinds() {
    List<ClientKind> out = new ArrayList<>();
    for (ClientKind k : kinds.keySet()) {
      if (k.jdbc()) {
        out.add(k);
      }
    }
    return out;
  }

  /** {@code PyMySQL (pymysql 1.2.4)}: the kind and the names and versions its sources gave. */
  public String label(ClientKind kind) {
    Set<String> names = kinds.get(kind);
    if (names == null || names.isEmpty()) {
      return kind.label();
    }
    StringBuilder sb = new StringBuilder(kind.label()).append(" (");
    int i = 0;
    for (String n : names) {
      if (i == 3) {
        sb.append(", …");
        break;
      }
      sb.append(i++ == 0 ? "" : "; ").append(n);
    }
    return sb.append(')').toString();
  }
}
