package io.wireadvisor.sql;

import java.util.List;

/** TEMPORARY stand-in until the classifier branch lands. */
public final class Classification {
  private final String digest;
  private final String digestText;
  private final StatementKind kind;
  private final List<String> tablesRead;
  private final List<String> tablesWritten;
  private final ProbeKind probe;
  private final int sqlLength;

  Classification(String digest, String digestText, StatementKind kind, List<String> tablesRead,
      List<String> tablesWritten, ProbeKind probe, int sqlLength) {
    this.digest = digest;
    this.digestText = digestText;
    this.kind = kind;
    this.tablesRead = tablesRead;
    this.tablesWritten = tablesWritten;
    this.probe = probe;
    this.sqlLength = sqlLength;
  }

  public String digest() { return digest; }
  public String digestText() { return digestText; }
  public StatementKind kind() { return kind; }
  public List<String> tablesRead() { return tablesRead; }
  public List<String> tablesWritten() { return tablesWritten; }
  public ProbeKind probe() { return probe; }
  public boolean isProbe() { return probe != null; }
  public int sqlLength() { return sqlLength; }
}
