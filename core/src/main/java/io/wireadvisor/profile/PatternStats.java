package io.wireadvisor.profile;

/**
 * One statement pattern a shape took part in, judged per transaction by {@link WireSession}: the
 * transactions it was seen in, the executions of this shape it covered, the rows they returned and
 * the time they took. Kept on the shape that repeats (the loaded SELECT, the UPDATE after an
 * INSERT), with its partner's digest (the statement before the loop, the INSERT); at most {@link
 * ShapeStats#MAX_PATTERNS} per shape.
 */
public final class PatternStats {
  /** What the collectors can see of an ORM's habits on the wire. */
  public enum Kind {
    /**
     * One SELECT shape executed {@link WireSession#N_PLUS_ONE_MIN_EXECUTIONS} times or more in one
     * transaction, each execution returning at most one row (lazy loading one entity at a time).
     */
    N_PLUS_ONE("n+1"),
    /**
     * The same SELECT, under the same row conditions as {@link #N_PLUS_ONE}, executed exactly twice
     * in one transaction: below N+1's minimum, so no rule judges it, but batch fetching merges the
     * two as it merges a longer loop (found on spring-petclinic-rest: an owner's two pets' visits
     * and types, 30% of what {@code hibernate.default_batch_fetch_size} removed). Kept, without a
     * partner, so that the estimate of that change counts them.
     */
    LOADED_TWICE("loaded-twice"),
    /**
     * An UPDATE of a table the same transaction inserted into before: the statement a
     * unidirectional {@code @OneToMany @JoinColumn} sends after every child row's INSERT.
     */
    INSERT_THEN_UPDATE("insert-then-update");

    private final String jsonName;

    Kind(String jsonName) {
      this.jsonName = jsonName;
    }

    public String jsonName() {
      return jsonName;
    }

    /** The kind of {@code name}, or null. */
    public static Kind fromJsonName(String name) {
      for (Kind k : values()) {
        if (k.jsonName.equals(name)) {
          return k;
        }
      }
      return null;
    }
  }

  private final Kind kind;
  private final String partner;
  private long transactions;
  private long executions;
  private long rows;
  private long timed;
  private long nanos;

  /**
   * @param partner the digest of the other statement of the pattern (the statement run just before
   *     the repeated one's first execution; the INSERT), or "" when not known
   */
  public PatternStats(Kind kind, String partner) {
    this.kind = kind;
    this.partner = partner == null ? "" : partner;
  }

  public Kind kind() {
    return kind;
  }

  /** The other statement's digest, or "" when not known (or folded past the per-shape limit). */
  public String partner() {
    return partner;
  }

  /** Transactions the pattern was seen in. */
  public long transactions() {
    return transactions;
  }

  /**
   * Executions of the shape the pattern covers: for N+1 every execution in those transactions; for
   * insert-then-update the UPDATEs that follow an INSERT (at most as many as the INSERTs).
   */
  public long executions() {
    return executions;
  }

  /** Rows those executions returned (N+1; 0 for insert-then-update). */
  public long rows() {
    return rows;
  }

  /** Of {@link #executions()}, the ones the collector timed. */
  public long timed() {
    return timed;
  }

  /** Nanoseconds the timed executions took. */
  public long nanos() {
    return nanos;
  }

  /** Key in a shape's table: kind, then partner. */
  String key() {
    return kind.jsonName + ' ' + partner;
  }

  void add(long transactionsN, long executionsN, long rowsN, long timedN, long nanosN) {
    transactions += transactionsN;
    executions += executionsN;
    rows += rowsN;
    timed += timedN;
    nanos += nanosN;
  }

  void add(PatternStats other) {
    add(other.transactions, other.executions, other.rows, other.timed, other.nanos);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PatternStats)) {
      return false;
    }
    PatternStats p = (PatternStats) o;
    return kind == p.kind && partner.equals(p.partner) && transactions == p.transactions
        && executions == p.executions && rows == p.rows && timed == p.timed && nanos == p.nanos;
  }

  @Override
  public int hashCode() {
    return 31 * key().hashCode() + (int) executions;
  }

  @Override
  public String toString() {
    return kind.jsonName + " after " + partner + ": " + executions + " executions in " + transactions
        + " transactions";
  }
}
