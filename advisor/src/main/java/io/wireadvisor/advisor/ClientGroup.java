package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One client kind's part of a profile whose traffic came from more than one ({@link
 * TrafficProfile#attributed()}: a proxy's): its shapes and commands ({@link TrafficProfile#part}),
 * judged on their own, so each group's recommendations speak only that client's language and its
 * estimate is the saving of its own shapes.
 */
public final class ClientGroup {
  private final ClientKind kind;
  private final String label;
  private final long wireCommands;
  private final long totalWireCommands;
  private final TrafficProfile part;
  private final Analysis analysis;

  private ClientGroup(
      ClientKind kind, String label, long wireCommands, long totalWireCommands,
      TrafficProfile part, Analysis analysis) {
    this.kind = kind;
    this.label = label;
    this.wireCommands = wireCommands;
    this.totalWireCommands = totalWireCommands;
    this.part = part;
    this.analysis = analysis;
  }

  /**
   * The groups of {@code profile}, one per client kind that sent commands, in the order of the
   * profile's sources; empty when the profile names fewer than two kinds or does not tell their
   * traffic apart (then the whole profile is judged as one, as before).
   */
  public static List<ClientGroup> of(TrafficProfile profile, ServerView server) {
    Clients clients = Clients.of(profile);
    if (clients.kinds().size() < 2 || !profile.attributed()) {
      return Collections.emptyList();
    }
    List<ClientGroup> groups = new ArrayList<>();
    long total = profile.totalCommands();
    for (java.util.Map.Entry<ClientKind, TrafficProfile> e : parts(profile).entrySet()) {
      TrafficProfile part = e.getValue();
      groups.add(
          new ClientGroup(e.getKey(), clients.label(e.getKey()), part.totalCommands(), total, part,
              Advisor.analyzeOne(part, server)));
    }
    return groups.size() < 2 ? Collections.<ClientGroup>emptyList() : groups;
  }

  /**
   * Each client kind's part of {@code profile}, in the order of its sources: the whole profile for
   * its one kind, the parts ({@link TrafficProfile#part}) when it tells more than one apart; empty
   * when it names more than one kind but does not tell them apart.
   */
  public static java.util.Map<ClientKind, TrafficProfile> parts(TrafficProfile profile) {
    java.util.Map<ClientKind, TrafficProfile> out = new java.util.LinkedHashMap<>();
    Clients clients = Clients.of(profile);
    if (clients.kinds().size() <= 1) {
      out.put(clients.kinds().isEmpty() ? ClientKind.CONNECTOR_J : clients.kinds().get(0), profile);
      return out;
    }
    if (!profile.attributed()) {
      return out;
    }
    for (ClientKind kind : clients.kinds()) {
      List<Source> sources = new ArrayList<>();
      Set<String> keys = new LinkedHashSet<>();
      for (Source s : profile.sources()) {
        if (ClientKind.of(s) == kind) {
          sources.add(s);
          keys.add(s.clientKey());
        }
      }
      if (kind == ClientKind.UNKNOWN) {
        for (String key : profile.commandsByClient().keySet()) {
          if (!named(profile, key)) {
            keys.add(key);
          }
        }
      }
      TrafficProfile part = profile.part(sources, keys);
      if (part.totalCommands() > 0) {
        out.put(kind, part);
      }
    }
    return out;
  }

  private static boolean named(TrafficProfile profile, String key) {
    for (Source s : profile.sources()) {
      if (s.clientKey().equals(key)) {
        return true;
      }
    }
    return false;
  }

  public ClientKind kind() {
    return kind;
  }

  /** {@code PyMySQL (pymysql 1.1.1)}: how reports name the group. */
  public String label() {
    return label;
  }

  /** Wire commands this client sent. */
  public long wireCommands() {
    return wireCommands;
  }

  /** This client's share of the profile's wire commands. */
  public double share() {
    return totalWireCommands == 0 ? 0 : (double) wireCommands / totalWireCommands;
  }

  /** The client's part of the profile. */
  public TrafficProfile profile() {
    return part;
  }

  /** The part judged on its own: recommendations in the client's terms, estimates of its shapes. */
  public Analysis analysis() {
    return analysis;
  }
}
