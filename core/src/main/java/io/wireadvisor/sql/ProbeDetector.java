package io.wireadvisor.sql;

/**
 * Recognises session chatter (see {@link ProbeKind}). Only statements a driver or pool sends on
 * its own are probes: a SET of a user variable or of a GLOBAL variable is the application's or
 * an operator's business, so it is not one.
 */
final class ProbeDetector {
  private static final String PING = "/* ping */";

  private ProbeDetector() {}

  static ProbeKind detect(TokenList t, StatementKind kind, int main) {
    if (startsWithPing(t.sql)) {
      return ProbeKind.VALIDATION_QUERY;
    }
    switch (kind) {
      case SELECT:
        return selectProbe(t, main);
      case SET:
        return setProbe(t, main);
      case SHOW:
        int k = main + 1;
        if (t.is(k, Keyword.GLOBAL) || t.is(k, Keyword.SESSION) || t.is(k, Keyword.LOCAL)) {
          k++;
        }
        return t.is(k, Keyword.VARIABLES) ? ProbeKind.SHOW_VARIABLES : null;
      case OTHER:
        return t.is(main, Keyword.DO) && isLiteral(t, main + 1) && atEnd(t, main + 2)
            ? ProbeKind.VALIDATION_QUERY : null;
      default:
        return null;
    }
  }

  /** Connector/J marks its validation query with this exact prefix. */
  private static boolean startsWithPing(String sql) {
    int i = 0;
    while (i < sql.length() && sql.charAt(i) <= ' ') {
      i++;
    }
    return sql.regionMatches(true, i, PING, 0, PING.length());
  }

  /**
   * SELECT whose select list is one literal (validation) or only {@code @@} variables, with no
   * FROM other than FROM DUAL and nothing after.
   */
  private static ProbeKind selectProbe(TokenList t, int main) {
    int k = main + 1;
    while (t.type(k) == Token.HINT) {
      k++;
    }
    int literals = 0;
    int variables = 0;
    int isolation = 0;
    int readOnly = 0;
    while (true) {
      if (isLiteral(t, k)) {
        literals++;
      } else if (isSystemVariable(t, k)) {
        variables++;
        String name = systemVariableName(t, k);
        if (isIsolationVariable(name)) {
          isolation++;
        } else if (isReadOnlyVariable(name)) {
          readOnly++;
        }
      } else {
        return null;
      }
      k++;
      if (t.is(k, Keyword.AS)) {
        k++;
      }
      if (t.isIdentifier(k) || t.type(k) == Token.STRING) {
        k++;
      }
      if (t.type(k) != Token.COMMA) {
        break;
      }
      k++;
    }
    if (t.is(k, Keyword.FROM)) {
      if (!t.is(k + 1, Keyword.DUAL)) {
        return null;
      }
      k += 2;
    }
    if (!atEnd(t, k)) {
      return null;
    }
    if (variables == 0) {
      return literals == 1 ? ProbeKind.VALIDATION_QUERY : null;
    }
    if (literals > 0) {
      return null;
    }
    if (isolation == variables) {
      return ProbeKind.ISOLATION_READ;
    }
    if (readOnly == variables) {
      return ProbeKind.READ_ONLY_READ;
    }
    return ProbeKind.VARIABLES_READ;
  }

  /**
   * The highest-ranked probe among a SET's assignments, ranked AUTOCOMMIT_SET, ISOLATION_SET,
   * READ_ONLY_SET, SET_NAMES, SESSION_SET: the earlier ones name a driver setting that removes
   * them, which is what a report needs to say.
   */
  private static ProbeKind setProbe(TokenList t, int main) {
    ProbeKind best = null;
    int k = main + 1;
    while (k > 0 && k < t.size()) {
      best = better(best, assignment(t, k));
      k = nextAssignment(t, k);
    }
    return best;
  }

  private static ProbeKind assignment(TokenList t, int at) {
    int k = at;
    boolean global = false;
    Keyword scope = t.kw(k);
    if (scope == Keyword.GLOBAL || scope == Keyword.PERSIST || scope == Keyword.PERSIST_ONLY) {
      global = true;
      k++;
    } else if (scope == Keyword.SESSION || scope == Keyword.LOCAL) {
      k++;
    }
    Keyword kw = t.kw(k);
    if (kw == Keyword.NAMES || kw == Keyword.CHARSET
        || (kw == Keyword.CHARACTER && t.is(k + 1, Keyword.SET))) {
      return ProbeKind.SET_NAMES;
    }
    if (kw == Keyword.TRANSACTION) {
      if (global) {
        return null;
      }
      if (t.is(k + 1, Keyword.ISOLATION)) {
        return ProbeKind.ISOLATION_SET;
      }
      return t.is(k + 1, Keyword.READ) ? ProbeKind.READ_ONLY_SET : null;
    }
    String name;
    if (t.type(k) == Token.VARIABLE) {
      if (!isSystemVariable(t, k)) {
        return null; // @user_var
      }
      global |= t.sql.regionMatches(true, t.start(k), "@@global.", 0, 9)
          || t.sql.regionMatches(true, t.start(k), "@@persist", 0, 9);
      name = systemVariableName(t, k);
    } else if (t.type(k) == Token.WORD || t.type(k) == Token.QUOTED_IDENT) {
      if (t.textEquals(k, "password") || t.textEquals(k, "role")) {
        return null;
      }
      name = t.identifier(k);
    } else {
      return null;
    }
    if (global || !isAssignmentOperator(t, k + 1)) {
      return null;
    }
    if (name.equals("autocommit")) {
      return ProbeKind.AUTOCOMMIT_SET;
    }
    if (isIsolationVariable(name)) {
      return ProbeKind.ISOLATION_SET;
    }
    if (isReadOnlyVariable(name)) {
      return ProbeKind.READ_ONLY_SET;
    }
    return ProbeKind.SESSION_SET;
  }

  private static boolean isAssignmentOperator(TokenList t, int k) {
    return t.type(k) == Token.OPERATOR && (t.textEquals(k, "=") || t.textEquals(k, ":="));
  }

  private static int nextAssignment(TokenList t, int from) {
    int depth = t.depth(from);
    for (int k = from; k < t.size(); k++) {
      if (t.type(k) == Token.SEMICOLON) {
        return -1;
      }
      if (t.type(k) == Token.COMMA && t.depth(k) == depth) {
        return k + 1;
      }
    }
    return -1;
  }

  private static ProbeKind better(ProbeKind a, ProbeKind b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return rank(b) < rank(a) ? b : a;
  }

  private static int rank(ProbeKind p) {
    switch (p) {
      case AUTOCOMMIT_SET:
        return 0;
      case ISOLATION_SET:
        return 1;
      case READ_ONLY_SET:
        return 2;
      case SET_NAMES:
        return 3;
      default:
        return 4;
    }
  }

  private static boolean isSystemVariable(TokenList t, int k) {
    return t.type(k) == Token.VARIABLE && t.end(k) - t.start(k) > 2
        && t.sql.charAt(t.start(k) + 1) == '@';
  }

  /** "@@SESSION.tx_isolation" -> "tx_isolation". */
  private static String systemVariableName(TokenList t, int k) {
    String text = t.sql.substring(t.start(k) + 2, t.end(k)).toLowerCase(java.util.Locale.ROOT);
    int dot = text.indexOf('.');
    return dot < 0 ? text : text.substring(dot + 1);
  }

  private static boolean isIsolationVariable(String name) {
    return name.equals("transaction_isolation") || name.equals("tx_isolation");
  }

  private static boolean isReadOnlyVariable(String name) {
    return name.equals("transaction_read_only") || name.equals("tx_read_only");
  }

  private static boolean isLiteral(TokenList t, int k) {
    int type = t.type(k);
    if (type == Token.NUMBER || type == Token.STRING) {
      return true;
    }
    Keyword kw = t.kw(k);
    return kw == Keyword.TRUE || kw == Keyword.FALSE || kw == Keyword.NULL;
  }

  private static boolean atEnd(TokenList t, int k) {
    for (int i = k; i < t.size(); i++) {
      if (t.type(i) != Token.SEMICOLON) {
        return false;
      }
    }
    return true;
  }
}
