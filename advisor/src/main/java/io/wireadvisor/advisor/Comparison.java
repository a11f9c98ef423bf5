package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code diff before after}: the recommendations computed on {@code before}, each expectation
 * checked against {@code after}, and the whole checked for regressions ({@link Regression}: wire
 * commands per statement rising, errors appearing). {@link #passed()} needs both.
 */
public final class Comparison {
  private final Analysis before;
  private final ProfileSummary after;
  private final List<Item> items;
  private final List<Regression> regressions;

  private Comparison(Analysis before, ProfileSummary after, List<Item> items, List<Regression> regressions) {
    this.before = before;
    this.after = after;
    this.items = Collections.unmodifiableList(items);
    this.regressions = Collections.unmodifiableList(new ArrayList<>(regressions));
  }

  /** Analyzes {@code before} and checks every expectation on {@code after}. */
  public static Comparison of(TrafficProfile before, TrafficProfile after, ServerView server) {
    Analysis a = Advisor.analyze(before, server);
    List<Item> items = new ArrayList<>();
    for (Recommendation r : a.recommendations()) {
      for (Expectation e : r.expectations()) {
        items.add(new Item(r, e.check(after)));
      }
    }
    return new Comparison(a, ProfileSummary.of(after), items, Regression.between(before, after));
  }

  public Analysis before() {
    return before;
  }

  public ProfileSummary after() {
    return after;
  }

  /** One per expectation of every recommendation on {@code before}. */
  public List<Item> items() {
    return items;
  }

  /** True when no measurable expectation was missed. */
  public boolean allMet() {
    for (Item i : items) {
      if (i.outcome().status() == Expectation.Outcome.Status.NOT_MET) {
        return false;
      }
    }
    return true;
  }

  /** What got worse on the whole between the profiles; empty when nothing did. */
  public List<Regression> regressions() {
    return regressions;
  }

  /** True when every measurable expectation was met and nothing regressed: {@code diff} exits 0. */
  public boolean passed() {
    return allMet() && regressions.isEmpty();
  }

  /** One checked expectation. */
  public static final class Item {
    private final Recommendation recommendation;
    private final Expectation.Outcome outcome;

    Item(Recommendation recommendation, Expectation.Outcome outcome) {
      this.recommendation = recommendation;
      this.outcome = outcome;
    }

    public Recommendation recommendation() {
      return recommendation;
    }

    public Expectation.Outcome outcome() {
      return outcome;
    }
  }
}
