package io.wireadvisor.advisor;

import io.wireadvisor.profile.PatternStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.WireSession;
import io.wireadvisor.server.ServerView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Rule 12: statement patterns an ORM puts on the wire, judged per transaction by the collectors
 * ({@link PatternStats}): N+1 loading (one SELECT shape run again and again in a transaction, one
 * row each: Hibernate's lazy loading of a collection or a to-one association per parent row) and
 * an UPDATE after an INSERT of the same table (the foreign-key UPDATE a unidirectional {@code
 * @OneToMany @JoinColumn} sends for every child row it inserted). No driver setting removes them;
 * the change is in the mapping or the query, so the recommendation names the statements, their
 * partners and what they cost, and gives the ORM-level fixes.
 */
public final class StatementPatternRule implements Rule {
  public static final String ID = "statement-patterns";
  /** Hibernate's global batch fetching (Spring Boot: {@code spring.jpa.properties.hibernate.*}). */
  static final String BATCH_FETCH_SIZE = "hibernate.default_batch_fetch_size";
  /** The batch size advised: Hibernate pads IN lists to it, so few shapes reach the server. */
  static final int ADVISED_BATCH_SIZE = 16;
  /** Patterns shown in the evidence at most (the rest are counted). */
  static final int MAX_LINES = 6;

  @Override
  public String id() {
    return ID;
  }

  /** One pattern of one shape, with the shape it is kept on. */
  static final class Found {
    final ShapeStats shape;
    final PatternStats pattern;
    final ShapeStats partner;

    Found(ShapeStats shape, PatternStats pattern, ShapeStats partner) {
      this.shape = shape;
      this.pattern = pattern;
      this.partner = partner;
    }

    /** Nanoseconds all the pattern's executions took, the untimed ones at the timed ones' mean. */
    double nanos() {
      PatternStats p = pattern;
      return p.timed() == 0 ? 0 : (double) p.nanos() / p.timed() * p.executions();
    }

    /** Executions the fix leaves: one batch per transaction for N+1, none for the UPDATE. */
    long executionsAfter() {
      return StatementPatternRule.executionsAfter(pattern);
    }
  }

  /**
   * Executions a pattern leaves after its fix: for N+1, a transaction's K loads become ceil(K /
   * {@value #ADVISED_BATCH_SIZE}) with batch fetching (K the pattern's executions per
   * transaction); a pair becomes one; the UPDATEs after INSERTs go.
   */
  static long executionsAfter(PatternStats pattern) {
    if (pattern.kind() == PatternStats.Kind.LOADED_TWICE) {
      return Math.min(pattern.executions(), pattern.transactions());
    }
    if (pattern.kind() != PatternStats.Kind.N_PLUS_ONE) {
      return 0;
    }
    double perTransaction = (double) pattern.executions() / Math.max(1, pattern.transactions());
    return Math.min(pattern.executions(),
        pattern.transactions() * (long) Math.ceil(perTransaction / ADVISED_BATCH_SIZE));
  }

  /** Every pattern in the profile, most time first; {@code judged} those with enough evidence. */
  static List<Found> patterns(TrafficProfile profile, boolean judged) {
    List<Found> found = new ArrayList<>();
    for (ShapeStats s : profile.shapes().values()) {
      for (PatternStats p : s.patterns()) {
        // A locking read (SELECT ... FOR UPDATE) row by row is a lock the transaction takes on
        // purpose and in its order (BenchBase's TPC-C NewOrder locks each stock row so); batching
        // it would change which rows are locked together and in what order: not N+1 loading.
        if (p.kind() == PatternStats.Kind.N_PLUS_ONE && s.lockingRead()) {
          continue;
        }
        if (p.kind() != PatternStats.Kind.LOADED_TWICE && enough(p) == judged) {
          found.add(new Found(s, p, p.partner().isEmpty() ? null : profile.shape(p.partner())));
        }
      }
    }
    Collections.sort(found, new Comparator<Found>() {
      @Override
      public int compare(Found a, Found b) {
        int c = Double.compare(b.nanos(), a.nanos());
        c = c != 0 ? c : Long.compare(b.pattern.executions(), a.pattern.executions());
        return c != 0 ? c : (a.shape.digest() + a.pattern.partner())
            .compareTo(b.shape.digest() + b.pattern.partner());
      }
    });
    return found;
  }

  /**
   * Hibernate's generated SQL: its table aliases end in digits and an underscore, {@code t1_0.}
   * (Hibernate 6 and 7) or {@code owner0_.} (Hibernate 5). Only there does a Hibernate property
   * change what the application sends; hand-written JDBC needs a code change.
   */
  private static final java.util.regex.Pattern HIBERNATE_ALIAS =
      java.util.regex.Pattern.compile("(?i)(?:^|[^a-z0-9_`])[a-z][a-z0-9_]*[0-9]_[0-9]*\\.");

  static boolean hibernateShaped(String digestText) {
    return digestText != null && HIBERNATE_ALIAS.matcher(digestText).find();
  }

  static boolean enough(PatternStats p) {
    return p.transactions() >= Evidence.PATTERN_MIN_TRANSACTIONS;
  }

  @Override
  public List<Withheld> withheld(TrafficProfile profile, ServerView server) {
    List<Found> few = patterns(profile, false);
    if (few.isEmpty()) {
      return Collections.emptyList();
    }
    long transactions = 0;
    for (Found f : few) {
      transactions = Math.max(transactions, f.pattern.transactions());
    }
    return Collections.singletonList(new Withheld(ID,
        "N+1 loading and UPDATE-after-INSERT (" + few.size() + " pattern"
            + (few.size() == 1 ? "" : "s") + ", e.g. " + describeShort(few.get(0)) + ")",
        "the same pattern in at least " + Evidence.PATTERN_MIN_TRANSACTIONS + " transactions",
        "at most " + Fmt.count(transactions)));
  }

  @Override
  public Recommendation evaluate(TrafficProfile profile, ServerView server) {
    List<Found> found = patterns(profile, true);
    if (found.isEmpty()) {
      return null;
    }
    Workload w = Workload.of(profile);
    long nPlusOne = 0;
    long updates = 0;
    double nanos = 0;
    for (Found f : found) {
      if (f.pattern.kind() == PatternStats.Kind.N_PLUS_ONE) {
        nPlusOne += f.pattern.executions();
      } else {
        updates += f.pattern.executions();
      }
      nanos += f.nanos();
    }
    boolean orm = false;
    for (Found f : found) {
      orm |= f.pattern.kind() == PatternStats.Kind.N_PLUS_ONE && hibernateShaped(f.shape.digestText());
    }
    double share = Workload.ratio(nPlusOne + updates, w.businessExecutions);
    String what = nPlusOne > 0 && updates > 0 ? "N+1 loading and UPDATEs after INSERTs"
        : nPlusOne > 0 ? "N+1 loading" : "UPDATEs after INSERTs of the same table";
    Recommendation.Builder r = Recommendation.builder(ID,
        "Remove " + what + (nPlusOne > 0 && !orm ? " in the application's data access" : " in the ORM mapping"),
        Double.isNaN(share) || share >= 0.2 ? Severity.HIGH : Severity.MEDIUM);
    r.evidence(Fmt.count(nPlusOne + updates) + " executions belong to statement patterns judged per"
        + " transaction (" + Fmt.percent(share) + " of " + Fmt.count(w.businessExecutions)
        + " business statements, " + String.format(Locale.ROOT, "%.1f ms", nanos / 1e6)
        + " waited" + (profile.transactions() > 0 ? "; " + Fmt.count(profile.transactions())
            + " transactions in the window" : "") + "):");
    for (int i = 0; i < found.size() && i < MAX_LINES; i++) {
      r.evidence("  " + describe(found.get(i)));
    }
    if (found.size() > MAX_LINES) {
      r.evidence("  ... and " + (found.size() - MAX_LINES) + " more patterns");
    }
    Change.Builder change = Change.builder();
    StringBuilder effect = new StringBuilder();
    StringBuilder risk = new StringBuilder();
    if (nPlusOne > 0 && !orm) {
      change.note("N+1 in hand-written data access (its SQL is not Hibernate's, so no ORM setting"
          + " changes it): load the rows the loop fetches one at a time with one statement per"
          + " transaction, WHERE <key> IN (...) for up to " + ADVISED_BATCH_SIZE + " keys, or a join"
          + " with the query that found the parents.");
      effect.append("Each transaction's ").append(WireSession.N_PLUS_ONE_MIN_EXECUTIONS)
          .append("+ SELECTs of a shape, one row at a time, become one statement: ").append(Fmt.count(nPlusOne))
          .append(" executions in this window, once the code is changed (not counted in the estimate). ");
      risk.append("A code change: the loop's order of reads, and what it does when a key has no row,"
          + " must stay the same; an IN list of varying length is a new statement shape for each"
          + " length (pad to a fixed size for the statement cache). ");
    } else if (nPlusOne > 0) {
      change.hibernate(BATCH_FETCH_SIZE, String.valueOf(ADVISED_BATCH_SIZE));
      change.note("N+1: load what the loop loads with the query that finds the parents: JPQL"
          + " 'join fetch' (or @EntityGraph(attributePaths = ...) on the Spring Data repository"
          + " method), so one statement returns parents and children; where a join would"
          + " multiply rows (several collections, pagination), @BatchSize(size = "
          + ADVISED_BATCH_SIZE + ") on the collection or entity, or " + BATCH_FETCH_SIZE + "="
          + ADVISED_BATCH_SIZE + " for all of them, loads up to " + ADVISED_BATCH_SIZE
          + " at a time with one IN (...) statement.");
      effect.append("Each transaction's ").append(WireSession.N_PLUS_ONE_MIN_EXECUTIONS)
          .append("+ SELECTs of a shape, one parent at a time, become one statement with join fetch, or one per ")
          .append(ADVISED_BATCH_SIZE).append(" rows with batch fetching: ").append(Fmt.count(nPlusOne))
          .append(" executions in this window. ");
      risk.append("Join fetch returns the parent columns once per child row (more bytes) and"
          + " cannot be combined with pagination of a collection in the database (Hibernate then"
          + " pages in memory); batch fetching loads children that a transaction may not use."
          + " On TiDB, Hibernate pads batch-fetch IN lists with NULLs up to the batch size"
          + " (hibernate.query.in_clause_parameter_padding does not change that), and TiDB's plan"
          + " cache refuses those statements ('NULL may be converted to INT', see"
          + " tidb-plan-cache-refused): each is optimized at every execution, while the round trips"
          + " still fall; join fetch has no IN list. ");
    }
    if (updates > 0) {
      change.note("UPDATE after INSERT: make the association bidirectional, owned by the child:"
          + " @ManyToOne @JoinColumn(name = \"<fk column>\") on the child and"
          + " @OneToMany(mappedBy = \"<that field>\") on the parent, so Hibernate writes the"
          + " foreign key in the INSERT and sends no UPDATE (set both sides in the code).");
      effect.append("The ").append(Fmt.count(updates))
          .append(" UPDATEs that set the foreign key after each INSERT go. ");
      risk.append("A code change: the child now refers to its parent; code that adds children"
          + " must set that reference. The collectors compare tables, not rows: check that the"
          + " UPDATE named above is the foreign-key UPDATE of the rows just inserted (its SET"
          + " clause names the join column). ");
    }
    r.change(change.build())
        .expectedEffect(effect.toString().trim())
        .risk(risk.toString().trim())
        .verify("A new profile's statement patterns: these shapes' executions per statement fall"
            + " (the report no longer lists them under " + ID + "); the join-fetch or IN (...)"
            + " statement replaces them.");
    expectPerStatement(r, profile, nPlusOne, updates, orm);
    return r.build();
  }

  /**
   * The expectations, per business statement (for the same traffic the statements stay while the
   * transactions may not: the pool's autoCommit=false groups statements that ran under autocommit,
   * and spring-petclinic's UPDATE-after-INSERT share per transaction rose from 0.05 to 0.07 with
   * the 66 UPDATEs unchanged). N+1 loads fall with the batch-size line; the UPDATEs only with a
   * mapping change in the code, so their expectation reports NOT_APPLIED where nothing changed.
   */
  private static void expectPerStatement(
      Recommendation.Builder r, TrafficProfile profile, long nPlusOne, long updates, boolean orm) {
    if (nPlusOne > 0) {
      double target = targetPerStatement(profile, PatternStats.Kind.N_PLUS_ONE, nPlusOne);
      // Hand-written loads fall only with a code change: unchanged, it was not applied.
      r.expect(orm ? Expectation.atMost(Metric.N_PLUS_ONE_PER_STATEMENT, profile, target)
          : Expectation.atMostAfterCodeChange(Metric.N_PLUS_ONE_PER_STATEMENT, profile, target));
    }
    if (updates > 0) {
      r.expect(Expectation.atMostAfterCodeChange(Metric.INSERT_THEN_UPDATE_PER_STATEMENT, profile,
          targetPerStatement(profile, PatternStats.Kind.INSERT_THEN_UPDATE, updates)));
    }
  }

  /** Patterns of {@code kind} below the evidence minimum stay, a tenth of the rest; per statement. */
  private static double targetPerStatement(TrafficProfile profile, PatternStats.Kind kind, long judged) {
    long unjudged = 0;
    for (Found f : patterns(profile, false)) {
      if (f.pattern.kind() == kind) {
        unjudged += f.pattern.executions();
      }
    }
    long statements = Workload.of(profile).businessExecutions;
    return Workload.ratio(unjudged, statements) + 0.1 * Workload.ratio(judged, statements);
  }

  static String describe(Found f) {
    PatternStats p = f.pattern;
    double perTransaction = (double) p.executions() / Math.max(1, p.transactions());
    String time = p.timed() == 0 ? "" : String.format(Locale.ROOT, ", %.1f ms", f.nanos() / 1e6);
    String shape = Fmt.printable(Fmt.sql(f.shape.digestText(), 80));
    String partner = f.partner == null ? null : Fmt.printable(Fmt.sql(f.partner.digestText(), 60));
    if (p.kind() == PatternStats.Kind.N_PLUS_ONE) {
      return "N+1: " + shape + " ran " + Fmt.count(p.executions()) + " times in "
          + Fmt.count(p.transactions()) + " transactions ("
          + String.format(Locale.ROOT, "%.1f", perTransaction) + " per transaction, "
          + String.format(Locale.ROOT, "%.2f", (double) p.rows() / Math.max(1, p.executions()))
          + " rows per execution" + time + ")"
          + (partner == null ? "" : ", after " + partner);
    }
    return "UPDATE after INSERT: " + shape + " ran " + Fmt.count(p.executions()) + " times after "
        + (partner == null ? "an INSERT of the same table" : partner) + " in "
        + Fmt.count(p.transactions()) + " transactions ("
        + String.format(Locale.ROOT, "%.1f", perTransaction) + " per transaction" + time + ")";
  }

  private static String describeShort(Found f) {
    return (f.pattern.kind() == PatternStats.Kind.N_PLUS_ONE ? "N+1 of " : "UPDATE after INSERT: ")
        + Fmt.printable(Fmt.sql(f.shape.digestText(), 60));
  }

  @Override
  public Saving saving(Recommendation r, Estimates estimates) {
    return estimates.patterns(r);
  }
}
