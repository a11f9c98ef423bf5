package io.wireadvisor.sql;

import java.util.List;

/**
 * What one SQL text is: its shape (digest), kind, tables and whether it is session chatter.
 * Immutable and safe to share (the recorder keeps one per shape).
 */
public final class Classification {
  private final String digest;
  private final String digestText;
  private final StatementKind kind;
  private final List<String> tablesRead;
  private final List<String> tablesWritten;
  private final ProbeKind probe;
  private final int sqlLength;
  private final boolean lockingRead;
  private final boolean dependsOnEscaping;
  private final boolean cutAtUnknownEscaping;
  private final Escaping setsEscaping;
  private final TransactionSet transactionSet;

  Classification(String digest, String digestText, StatementKind kind, List<String> tablesRead,
      List<String> tablesWritten, ProbeKind probe, int sqlLength) {
    this(digest, digestText, kind, tablesRead, tablesWritten, probe, sqlLength, false);
  }

  Classification(String digest, String digestText, StatementKind kind, List<String> tablesRead,
      List<String> tablesWritten, ProbeKind probe, int sqlLength, boolean lockingRead) {
    this(digest, digestText, kind, tablesRead, tablesWritten, probe, sqlLength, lockingRead, false, false, null);
  }

  Classification(String digest, String digestText, StatementKind kind, List<String> tablesRead,
      List<String> tablesWritten, ProbeKind probe, int sqlLength, boolean lockingRead,
      boolean dependsOnEscaping, boolean cutAtUnknownEscaping, Escaping setsEscaping) {
    this(digest, digestText, kind, tablesRead, tablesWritten, probe, sqlLength, lockingRead,
        dependsOnEscaping, cutAtUnknownEscaping, setsEscaping, null);
  }

  Classification(String digest, String digestText, StatementKind kind, List<String> tablesRead,
      List<String> tablesWritten, ProbeKind probe, int sqlLength, boolean lockingRead,
      boolean dependsOnEscaping, boolean cutAtUnknownEscaping, Escaping setsEscaping,
      TransactionSet transactionSet) {
    this.transactionSet = transactionSet;
    this.dependsOnEscaping = dependsOnEscaping;
    this.cutAtUnknownEscaping = cutAtUnknownEscaping;
    this.setsEscaping = setsEscaping;
    this.digest = digest;
    this.digestText = digestText;
    this.kind = kind;
    this.tablesRead = tablesRead;
    this.tablesWritten = tablesWritten;
    this.probe = probe;
    this.sqlLength = sqlLength;
    this.lockingRead = lockingRead;
  }

  /**
   * A SELECT that locks what it reads ({@code FOR UPDATE}, {@code FOR SHARE}, {@code LOCK IN SHARE
   * MODE}): a read in the statement counts, a lock in its effect (TiDB's RC read check does not
   * apply to it).
   */
  public boolean lockingRead() {
    return lockingRead;
  }

  /**
   * The shape's identity: 32 lowercase hex characters, the first 16 bytes of SHA-256 over the
   * UTF-8 bytes of {@link #digestText()}. Equal for statements that differ only in literals,
   * letter case, spacing, comments or identifier quoting.
   */
  public String digest() {
    return digest;
  }

  /**
   * The normalized text, e.g. {@code select a.id from accounts a where a.id = ? and b.code in
   * ( ... )}: literals become {@code ?}, literal-only IN lists and VALUES rows collapse to
   * {@code ( ... )}, comments go (optimizer hints stay), words are lowercased.
   */
  public String digestText() {
    return digestText;
  }

  /** The statement kind from its main keyword; {@link StatementKind#OTHER} for non-SQL. */
  public StatementKind kind() {
    return kind;
  }

  /**
   * Tables the statement reads, lowercase, schema-qualified only when the SQL qualifies them
   * ({@code db.t} or {@code t}), sorted, without duplicates, {@code dual} or CTE names.
   * Unmodifiable.
   */
  public List<String> tablesRead() {
    return tablesRead;
  }

  /** Tables the statement writes (INSERT/REPLACE/UPDATE/DELETE/LOAD targets, DDL targets); as {@link #tablesRead()}. */
  public List<String> tablesWritten() {
    return tablesWritten;
  }

  /** The kind of session probe, or null when the statement is application work. */
  public ProbeKind probe() {
    return probe;
  }

  /**
   * Whether a string in the text ends elsewhere with backslash escapes than without: the text's
   * classification holds for the {@link Escaping} it was made in only (a collector keeps it per
   * mode, never for another connection's).
   */
  public boolean dependsOnEscaping() {
    return dependsOnEscaping;
  }

  /**
   * Whether the text was read only up to a string whose end the mode decides and the mode was not
   * known: the digest stops there (ending {@code " ..."}), and nothing after it was read.
   */
  public boolean cutAtUnknownEscaping() {
    return cutAtUnknownEscaping;
  }

  /**
   * The {@link Escaping} the text leaves its connection in when it sets the session's {@code
   * sql_mode} ({@link Escaping#UNKNOWN} when the value is no literal or statements follow it in the
   * same text), or null when it changes none.
   */
  public Escaping setsEscaping() {
    return setsEscaping;
  }

  /**
   * How the text changes its connection's isolation or access mode ({@code SET [SESSION]
   * TRANSACTION ...}, the isolation and read-only variables, {@code START TRANSACTION READ ONLY}),
   * or null when it changes neither.
   */
  public TransactionSet transactionSet() {
    return transactionSet;
  }

  /** Whether {@link #probe()} is non-null. */
  public boolean isProbe() {
    return probe != null;
  }

  /** Length in chars of the original SQL text (drivers cache statements by this length). */
  public int sqlLength() {
    return sqlLength;
  }

  /**
   * This classification without its text-sized parts (digest text, table lists): what a
   * long-lived per-statement map keeps, so each entry costs a fixed few dozen bytes whatever the
   * statement's length.
   */
  /** A classification as a profile records its shape (for a handle kept without its text). */
  public static Classification of(String digest, String digestText, StatementKind kind,
      List<String> tablesRead, List<String> tablesWritten, ProbeKind probe, int sqlLength) {
    return new Classification(digest, digestText, kind, tablesRead, tablesWritten, probe, sqlLength, false);
  }

  /** As {@link #of(String, String, StatementKind, List, List, ProbeKind, int)}, with {@link #lockingRead()}. */
  public static Classification of(String digest, String digestText, StatementKind kind,
      List<String> tablesRead, List<String> tablesWritten, ProbeKind probe, int sqlLength,
      boolean lockingRead) {
    return new Classification(digest, digestText, kind, tablesRead, tablesWritten, probe, sqlLength,
        lockingRead);
  }

  public Classification withoutText() {
    if (digestText.isEmpty() && tablesRead.isEmpty() && tablesWritten.isEmpty()) {
      return this;
    }
    return new Classification(digest, "", kind, java.util.Collections.<String>emptyList(),
        java.util.Collections.<String>emptyList(), probe, sqlLength, lockingRead, dependsOnEscaping,
        cutAtUnknownEscaping, setsEscaping, transactionSet);
  }

  /** Estimated heap bytes of this object and the strings it holds (UTF-16, lists included). */
  public long retainedBytes() {
    long bytes = 48 + stringBytes(digest) + stringBytes(digestText) + (transactionSet == null ? 0 : 32);
    for (String t : tablesRead) {
      bytes += 16 + stringBytes(t);
    }
    for (String t : tablesWritten) {
      bytes += 16 + stringBytes(t);
    }
    return bytes;
  }

  /** Estimated heap bytes of a string (header, array header, two bytes a char at worst). */
  public static long stringBytes(String s) {
    return s == null ? 0 : 56 + 2L * s.length();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Classification)) {
      return false;
    }
    Classification c = (Classification) o;
    return sqlLength == c.sqlLength && digest.equals(c.digest) && digestText.equals(c.digestText)
        && kind == c.kind && probe == c.probe && lockingRead == c.lockingRead
        && tablesRead.equals(c.tablesRead)
        && tablesWritten.equals(c.tablesWritten);
  }

  @Override
  public int hashCode() {
    return digest.hashCode() * 31 + sqlLength;
  }

  @Override
  public String toString() {
    return "Classification{kind=" + kind + ", probe=" + probe + ", read=" + tablesRead
        + ", written=" + tablesWritten + ", digest=" + digest + ", text=" + digestText + "}";
  }
}
