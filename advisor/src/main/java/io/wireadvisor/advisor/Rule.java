package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.Collections;
import java.util.List;

/** One advisor rule: judges a profile (and, when known, the server) and recommends at most one change. */
public interface Rule {
  /** Stable id, e.g. {@code prepared-statements}; appears in reports and JSON. */
  String id();

  /**
   * @param profile the merged traffic profile
   * @param server what is known about the server, or null when it was not inspected
   * @return the recommendation, or null when the rule does not fire
   */
  Recommendation evaluate(TrafficProfile profile, ServerView server);

  /**
   * Called when {@link #evaluate} did not fire: what the rule could not judge for lack of traffic
   * or facts, with the minimum it needs ({@link Evidence}); empty when it did not fire because
   * there is nothing to change.
   */
  default List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    return Collections.emptyList();
  }
}
