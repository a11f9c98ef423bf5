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
  private List<ClientDiff> clients = Collections.emptyList();
  /** Why commands per statement rose without a regression ({@link Regression#perTransactionNote}), or null. */
  private String wholeNote;

  private List<String> kindsGrown = Collections.emptyList();

  private Comparison(Analysis before, ProfileSummary after, List<Item> items, List<Regression> regressions) {
    this.before = before;
    this.after = after;
    this.items = Collections.unmodifiableList(items);
    this.regressions = Collections.unmodifiableList(new ArrayList<>(regressions));
  }

  /**
   * Analyzes {@code before} and checks every expectation on {@code after}. When the traffic came
   * from more than one client kind and both profiles tell their clients apart ({@link
   * ClientGroup#parts}), like is compared with like: each client's part of {@code before} with
   * its part of {@code after} ({@link #clients()}); {@link #items()} and {@link #regressions()}
   * are then theirs together, and a client in one profile only is named, not compared.
   */
  public static Comparison of(TrafficProfile before, TrafficProfile after, ServerView server) {
    java.util.Map<ClientKind, TrafficProfile> b = ClientGroup.parts(before);
    java.util.Map<ClientKind, TrafficProfile> f = ClientGroup.parts(after);
    java.util.Set<ClientKind> kinds = new java.util.LinkedHashSet<>(b.keySet());
    kinds.addAll(f.keySet());
    if (b.isEmpty() || f.isEmpty() || kinds.size() < 2) {
      return whole(before, after, server);
    }
    List<ClientDiff> diffs = new ArrayList<>();
    List<Item> items = new ArrayList<>();
    List<Regression> regressions = new ArrayList<>();
    for (ClientKind k : kinds) {
      TrafficProfile pb = b.get(k);
      TrafficProfile pf = f.get(k);
      String label = Clients.of(pb != null ? pb : pf).label(k);
      if (pb == null || pf == null) {
        diffs.add(new ClientDiff(k, label, null, pb == null ? "after" : "before"));
        continue;
      }
      Comparison c = whole(pb, pf, server);
      diffs.add(new ClientDiff(k, label, c, null));
      items.addAll(c.items);
      regressions.addAll(c.regressions);
    }
    Comparison c =
        new Comparison(Advisor.analyze(before, server), ProfileSummary.of(after), items, regressions);
    c.clients = Collections.unmodifiableList(diffs);
    return c;
  }

  private static Comparison whole(TrafficProfile before, TrafficProfile after, ServerView server) {
    Analysis a = Advisor.analyze(before, server);
    List<Item> items = new ArrayList<>();
    for (Recommendation r : a.recommendations()) {
      for (Expectation e : r.expectations()) {
        items.add(new Item(r, e.check(after)));
      }
    }
    Comparison c = new Comparison(a, ProfileSummary.of(after), items, Regression.between(before, after));
    c.wholeNote = Regression.perTransactionNote(before, after);
    c.kindsGrown = kindsGrown(before, after);
    return c;
  }

  /** A statement kind counts as grown from this many more executions (and a tenth more). */
  static final long KIND_GROWTH_MIN = 10;

  /**
   * Statement kinds (probes apart) that appear in AFTER, or whose executions grew by at least
   * {@link #KIND_GROWTH_MIN} and a tenth more than the traffic did: BEFORE's count is scaled by
   * the ratio of all statements (AFTER's to BEFORE's) first, so a window that ran more business
   * names only what grew per statement, e.g. {@code ROLLBACK 0 -> 282} (the pool's
   * autoCommit=false rolling back borrows that ran statements outside transactions), not every
   * kind of a faster run. In the order of {@link StatementKind}; a grown kind is written with its
   * executions per 1,000 statements before and after.
   */
  static List<String> kindsGrown(TrafficProfile before, TrafficProfile after) {
    long[] b = executionsByKind(before);
    long[] a = executionsByKind(after);
    long totalBefore = 0;
    long totalAfter = 0;
    for (int i = 0; i < b.length; i++) {
      totalBefore += b[i];
      totalAfter += a[i];
    }
    double scale = totalBefore == 0 ? 1 : (double) totalAfter / totalBefore;
    List<String> out = new ArrayList<>();
    for (io.wireadvisor.sql.StatementKind k : io.wireadvisor.sql.StatementKind.values()) {
      long was = b[k.ordinal()];
      long now = a[k.ordinal()];
      double expected = was * scale;
      if (now > 0 && (was == 0 || now - expected >= KIND_GROWTH_MIN && now >= 1.1 * expected)) {
        String line = k.name() + " " + Fmt.count(was) + " -> " + Fmt.count(now);
        if (was > 0 && totalBefore > 0 && totalAfter > 0) {
          line += String.format(java.util.Locale.ROOT, " (%.1f -> %.1f per 1,000 statements)",
              1000.0 * was / totalBefore, 1000.0 * now / totalAfter);
        }
        out.add(line);
      }
    }
    return out;
  }

  private static long[] executionsByKind(TrafficProfile p) {
    long[] n = new long[io.wireadvisor.sql.StatementKind.values().length];
    for (io.wireadvisor.profile.ShapeStats s : p.shapes().values()) {
      if (s.probe() == null && s.kind() != null) {
        n[s.kind().ordinal()] += s.executions();
      }
    }
    return n;
  }

  /** Statement kinds that appeared or grew from BEFORE to AFTER ({@link #kindsGrown}); may be empty. */
  public List<String> kindsGrown() {
    return kindsGrown;
  }

  /**
   * Why wire commands per business statement rose without failing {@code diff}: AFTER runs fewer
   * statements per transaction with no more commands per transaction (figures in the text); null
   * when that did not happen.
   */
  public String wholeNote() {
    return wholeNote;
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

  /**
   * Each client kind's own comparison, when the profiles were compared client by client (see
   * {@link #of}); empty when compared whole.
   */
  public List<ClientDiff> clients() {
    return clients;
  }

  /** One client kind's before and after: its comparison, or the one profile it is in. */
  public static final class ClientDiff {
    private final ClientKind kind;
    private final String label;
    private final Comparison comparison;
    private final String onlyIn;

    ClientDiff(ClientKind kind, String label, Comparison comparison, String onlyIn) {
      this.kind = kind;
      this.label = label;
      this.comparison = comparison;
      this.onlyIn = onlyIn;
    }

    public ClientKind kind() {
      return kind;
    }

    public String label() {
      return label;
    }

    /** The client's before compared with its after; null when it is in one profile only. */
    public Comparison comparison() {
      return comparison;
    }

    /** {@code "before"} or {@code "after"}: the only profile the client is in; null when both. */
    public String onlyIn() {
      return onlyIn;
    }
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
