package io.wireadvisor.sql;

import java.util.Collections;

/** TEMPORARY stand-in until the classifier branch lands. */
public final class SqlClassifier {
  private SqlClassifier() {}

  public static Classification classify(String sql) {
    String text = normalize(sql);
    String first = text.isEmpty() ? "" : text.split(" ")[0];
    StatementKind kind;
    try {
      kind = StatementKind.valueOf(first.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      kind = StatementKind.OTHER;
    }
    ProbeKind probe = text.startsWith("select @@") ? ProbeKind.VARIABLES_READ
        : text.startsWith("set autocommit") ? ProbeKind.AUTOCOMMIT_SET : null;
    return new Classification(Integer.toHexString(text.hashCode()), text, kind,
        Collections.<String>emptyList(), Collections.<String>emptyList(), probe, sql.length());
  }

  public static String normalize(String sql) {
    return sql.trim().replaceAll("\\s+", " ").replaceAll("'[^']*'|\\b\\d+\\b", "?")
        .toLowerCase(java.util.Locale.ROOT);
  }
}
