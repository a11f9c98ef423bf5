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
   * What the rule could not judge for lack of traffic or facts, with the minimum it needs ({@link
   * Evidence}); asked also when {@link #evaluate} fired, for what it left out below its minimums;
   * empty when there is nothing more to change.
   */
  default List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    return Collections.emptyList();
  }

  /**
   * Both answers at once, as {@link Advisor} asks for them. A rule whose recommendation and
   * withheld items come from one judgment of the profile overrides this, so that the judgment is
   * made once.
   */
  default Judgment judge(TrafficProfile profile, ServerView server) {
    return new Judgment(evaluate(profile, server), withheld(profile, server));
  }

  /** A rule's recommendation (null when it did not fire) and what it withheld. */
  final class Judgment {
    private final Recommendation recommendation;
    private final List<Withheld> withheld;

    public Judgment(Recommendation recommendation, List<Withheld> withheld) {
      this.recommendation = recommendation;
      this.withheld = Collections.unmodifiableList(new java.util.ArrayList<Withheld>(withheld));
    }

    /** The recommendation, or null. */
    public Recommendation recommendation() {
      return recommendation;
    }

    public List<Withheld> withheld() {
      return withheld;
    }
  }

  /**
   * What a recommendation {@code r} of this rule is estimated to save, for the report's ranking
   * and the first screen's outlook; null when nothing can be estimated. {@code estimates} holds
   * the profile's measurements and the shared ways to turn them into a {@link Saving}: the
   * session-state statements a change removes ({@link Estimates#stateSaving}), repeated text
   * statements ({@link Estimates#textProtocol}), TiDB's compile time ({@link
   * Estimates#compileTime}), and so on. The default, {@link Estimates#serverSide}, says the gain is
   * in server time the profile does not measure: right for a change on the server, wrong for one
   * that removes round trips, which overrides this.
   */
  default Saving saving(Recommendation r, Estimates estimates) {
    return estimates.serverSide(r);
  }
}
