package io.wireadvisor.advisor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The result of {@link Advisor#analyze}: a profile summary and the recommendations, in rule order. */
public final class Analysis {
  private final ProfileSummary profile;
  private final String server;
  private final List<Recommendation> recommendations;

  public Analysis(ProfileSummary profile, String server, List<Recommendation> recommendations) {
    this.profile = profile;
    this.server = server;
    this.recommendations = Collections.unmodifiableList(new ArrayList<>(recommendations));
  }

  public ProfileSummary profile() {
    return profile;
  }

  /** One line describing the inspected server, or null when none was given. */
  public String server() {
    return server;
  }

  public List<Recommendation> recommendations() {
    return recommendations;
  }

  /** The recommendation of a rule, or null when it did not fire. */
  public Recommendation recommendation(String ruleId) {
    for (Recommendation r : recommendations) {
      if (r.id().equals(ruleId)) {
        return r;
      }
    }
    return null;
  }

  /** Ids of the rules that fired, in order. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (Recommendation r : recommendations) {
      ids.add(r.id());
    }
    return ids;
  }

  /** True when there is nothing to do. */
  public boolean isEmpty() {
    return recommendations.isEmpty();
  }
}
