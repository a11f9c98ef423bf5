package io.wireadvisor.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Which tables a statement reads and which it writes, from one walk over its tokens.
 *
 * <p>A table reference is recognised where SQL allows one: after FROM, every JOIN, a comma in a
 * FROM list (at the same parenthesis depth), the parenthesis of a nested join, UPDATE's table
 * list and DELETE's USING. The statement's own target (INSERT INTO, UPDATE, DELETE, LOAD DATA,
 * DDL) is then marked written; everything else is read. Aliases resolve to table names.
 */
final class TableExtractor {
  private static final class Ref {
    final String name;
    final String alias;
    final int depth;
    boolean written;

    Ref(String name, String alias, int depth) {
      this.name = name;
      this.alias = alias;
      this.depth = depth;
    }
  }

  private final TokenList t;
  private final StatementKind kind;
  private final int main;
  private final int mainDepth;
  private final ArrayList<Ref> refs = new ArrayList<>(4);
  private ArrayList<String> ctes;
  private ArrayList<String> targets;
  private ArrayList<String> extraWritten;
  private boolean[] fromActive = new boolean[8];
  private boolean[] functionParen = new boolean[8];
  private int deleteUsing = -1;
  private boolean deleteSingleTable;
  private String lastName;

  List<String> read = Collections.emptyList();
  List<String> written = Collections.emptyList();

  private TableExtractor(TokenList tokens, StatementKind kind, int main) {
    this.t = tokens;
    this.kind = kind;
    this.main = main;
    this.mainDepth = Math.max(0, tokens.depth(main));
  }

  static TableExtractor extract(TokenList tokens, StatementKind kind, int main) {
    TableExtractor x = new TableExtractor(tokens, kind, main);
    switch (kind) {
      case SELECT:
      case INSERT:
      case REPLACE:
      case UPDATE:
      case DELETE:
      case DDL:
      case LOAD:
        x.walk();
        x.resolveTargets();
        x.collect();
        break;
      default:
        break;
    }
    return x;
  }

  private void walk() {
    int n = t.size();
    int i = 0;
    while (i < n) {
      if (i == main) {
        i = Math.max(i + 1, startMain());
        continue;
      }
      int type = t.type(i);
      int d = t.depth(i);
      if (type == Token.LPAREN) {
        int inner = d + 1;
        ensureDepth(inner);
        functionParen[inner] = isFunctionName(i - 1);
        fromActive[inner] = opensTableReference(i - 1);
        if (fromActive[inner]) {
          i = tableReference(i + 1);
          continue;
        }
      } else if (type == Token.COMMA) {
        if (fromActive[d] && !functionParen[d]) {
          i = tableReference(i + 1);
          continue;
        }
      } else if (type == Token.SEMICOLON) {
        fromActive[d] = false;
      } else if (type == Token.WORD && t.kw(i) != null) {
        switch (t.kw(i)) {
          case FROM:
            if (!functionParen[d]) {
              fromActive[d] = true;
              i = tableReference(i + 1);
              continue;
            }
            break;
          case JOIN:
          case STRAIGHT_JOIN:
            fromActive[d] = true;
            i = tableReference(i + 1);
            continue;
          case USING:
            if (i == deleteUsing) {
              fromActive[d] = true;
              i = tableReference(i + 1);
              continue;
            }
            break;
          case WITH:
            collectCteNames(i);
            break;
          case WHERE:
          case GROUP:
          case HAVING:
          case ORDER:
          case LIMIT:
          case UNION:
          case EXCEPT:
          case INTERSECT:
          case FOR:
          case LOCK:
          case WINDOW:
          case INTO:
          case DUPLICATE:
          case SET:
          case SELECT:
          case VALUES:
          case VALUE:
          case RETURNING:
            fromActive[d] = false;
            break;
          default:
            break;
        }
      }
      i++;
    }
  }

  /** Handles the main keyword; returns where the walk goes on. */
  private int startMain() {
    int j = main + 1;
    switch (kind) {
      case INSERT:
      case REPLACE:
        j = skip(j, Keyword.LOW_PRIORITY, Keyword.DELAYED, Keyword.HIGH_PRIORITY, Keyword.IGNORE);
        if (t.is(j, Keyword.INTO)) {
          j++;
        }
        if (t.isIdentifier(j)) {
          j = qualifiedName(j);
          written(lastName);
        }
        return j;
      case UPDATE:
        j = skip(j, Keyword.LOW_PRIORITY, Keyword.IGNORE);
        fromActive[mainDepth] = true;
        return tableReference(j);
      case DELETE:
        return startDelete(skip(j, Keyword.LOW_PRIORITY, Keyword.QUICK, Keyword.IGNORE));
      case LOAD:
        for (int k = j; k < t.size(); k++) {
          if (t.is(k, Keyword.INTO) && t.is(k + 1, Keyword.TABLE) && t.isIdentifier(k + 2)) {
            qualifiedName(k + 2);
            written(lastName);
            break;
          }
        }
        return t.size();
      case DDL:
        ddlTargets();
        return j;
      default:
        return j;
    }
  }

  private int startDelete(int j) {
    if (t.is(j, Keyword.FROM)) {
      int using = findAtMainDepth(j + 1, Keyword.USING);
      if (using < 0) {
        deleteSingleTable = true;
        return j;
      }
      // DELETE FROM t1, t2 USING t1 JOIN t2 ...: targets first, table references after USING.
      targets = targetNames(j + 1, using);
      deleteUsing = using;
      return using;
    }
    int from = findAtMainDepth(j, Keyword.FROM);
    if (from < 0) {
      return j;
    }
    targets = targetNames(j, from);
    return from;
  }

  private void ddlTargets() {
    Keyword verb = t.kw(main);
    int limit = Math.min(t.size(), main + 16);
    for (int k = main + 1; k < limit; k++) {
      if (t.depth(k) != mainDepth || t.type(k) == Token.LPAREN || t.is(k, Keyword.AS)) {
        return;
      }
      Keyword kw = t.kw(k);
      if (verb == Keyword.TRUNCATE && k == main + 1 && t.isIdentifier(k)) {
        qualifiedName(k);
        written(lastName);
        return;
      }
      if (kw == Keyword.TABLE || kw == Keyword.TABLES || kw == Keyword.VIEW) {
        int p = skip(k + 1, Keyword.IF, Keyword.NOT, Keyword.EXISTS);
        while (t.isIdentifier(p)) {
          p = qualifiedName(p);
          written(lastName);
          if (verb == Keyword.RENAME && t.is(p, Keyword.TO) && t.isIdentifier(p + 1)) {
            p = qualifiedName(p + 1);
            written(lastName);
          }
          if (verb == Keyword.CREATE && t.type(p) == Token.LPAREN && t.is(p + 1, Keyword.LIKE)) {
            p++;
          }
          if (verb == Keyword.CREATE && t.is(p, Keyword.LIKE) && t.isIdentifier(p + 1)) {
            p = qualifiedName(p + 1);
            refs.add(new Ref(lastName, null, -1));
            return;
          }
          if (t.type(p) != Token.COMMA || verb == Keyword.CREATE || verb == Keyword.ALTER) {
            return;
          }
          p++;
        }
        return;
      }
      if (kw == Keyword.INDEX && verb != Keyword.ALTER) {
        int on = findAtMainDepth(k + 1, Keyword.ON);
        if (on > 0 && t.isIdentifier(on + 1)) {
          qualifiedName(on + 1);
          written(lastName);
        }
        return;
      }
    }
  }

  /**
   * Parses a table reference at j: a (qualified) name with an optional alias. Anything else (a
   * derived table, a nested join) is left to the walk. Returns the index after what it consumed.
   */
  private int tableReference(int j) {
    if (!t.isIdentifier(j)) {
      return j;
    }
    int k = qualifiedName(j);
    if (t.type(k) == Token.LPAREN) {
      return k; // a table function such as JSON_TABLE(...), not a table
    }
    String name = lastName;
    String alias = null;
    if (t.is(k, Keyword.AS) && t.isIdentifier(k + 1)) {
      alias = t.identifier(k + 1);
      k += 2;
    } else if (t.isIdentifier(k)) {
      alias = t.identifier(k);
      k++;
    }
    refs.add(new Ref(name, alias, t.depth(j)));
    return k;
  }

  /** Reads name[.name...] at j into {@link #lastName}; returns the index after it. */
  private int qualifiedName(int j) {
    String name = t.identifier(j);
    int k = j + 1;
    while (t.type(k) == Token.DOT
        && (t.type(k + 1) == Token.WORD || t.type(k + 1) == Token.QUOTED_IDENT)) {
      name = name + "." + t.identifier(k + 1);
      k += 2;
    }
    lastName = name;
    return k;
  }

  /** Names in a multi-table DELETE's target list ({@code t1, db.t2.*, a}). */
  private ArrayList<String> targetNames(int from, int to) {
    ArrayList<String> names = new ArrayList<>(2);
    int k = from;
    while (k < to) {
      if (t.isIdentifier(k)) {
        k = qualifiedName(k);
        names.add(lastName);
        if (t.type(k) == Token.DOT) {
          k += 2; // ".*"
        }
      } else {
        k++;
      }
    }
    return names;
  }

  private boolean opensTableReference(int p) {
    Keyword k = t.kw(p);
    if (k == Keyword.JOIN || k == Keyword.STRAIGHT_JOIN) {
      return true;
    }
    int d = t.depth(p);
    if (d < 0) {
      return false;
    }
    if (k == Keyword.FROM) {
      return !functionParen[d];
    }
    return t.type(p) == Token.COMMA && fromActive[d] && !functionParen[d];
  }

  /** "count(" or "extract(": FROM inside such parentheses is not a FROM clause. */
  private boolean isFunctionName(int p) {
    return t.type(p) == Token.WORD && t.isIdentifier(p);
  }

  private void collectCteNames(int with) {
    int k = with + 1;
    if (t.is(k, Keyword.RECURSIVE)) {
      k++;
    }
    while (t.isIdentifier(k)) {
      if (ctes == null) {
        ctes = new ArrayList<>(2);
      }
      ctes.add(t.identifier(k));
      k++;
      if (t.type(k) == Token.LPAREN) {
        k = t.match(k) + 1;
      }
      if (k <= 0 || !t.is(k, Keyword.AS) || t.type(k + 1) != Token.LPAREN) {
        return;
      }
      k = t.match(k + 1) + 1;
      if (k <= 0 || t.type(k) != Token.COMMA) {
        return;
      }
      k++;
    }
  }

  private int findAtMainDepth(int from, Keyword wanted) {
    for (int k = from; k < t.size(); k++) {
      int d = t.depth(k);
      if (d < mainDepth || t.type(k) == Token.SEMICOLON) {
        return -1;
      }
      if (d == mainDepth) {
        Keyword kw = t.kw(k);
        if (kw == wanted) {
          return k;
        }
        if (kw == Keyword.WHERE || kw == Keyword.ORDER || kw == Keyword.LIMIT) {
          return -1;
        }
      }
    }
    return -1;
  }

  private int skip(int from, Keyword... words) {
    int k = from;
    outer:
    while (true) {
      Keyword kw = t.kw(k);
      for (Keyword w : words) {
        if (kw == w) {
          k++;
          continue outer;
        }
      }
      return k;
    }
  }

  private void written(String name) {
    if (extraWritten == null) {
      extraWritten = new ArrayList<>(2);
    }
    extraWritten.add(name);
  }

  private void ensureDepth(int d) {
    if (d >= fromActive.length) {
      fromActive = Arrays.copyOf(fromActive, d * 2 + 2);
      functionParen = Arrays.copyOf(functionParen, d * 2 + 2);
    }
  }

  private void resolveTargets() {
    if (kind == StatementKind.UPDATE) {
      int set = findAtMainDepth(main + 1, Keyword.SET);
      if (set > 0) {
        resolveSetTargets(set + 1);
      }
    } else if (kind == StatementKind.DELETE) {
      if (deleteSingleTable) {
        for (Ref r : refs) {
          if (r.depth == mainDepth) {
            r.written = true;
          }
        }
      } else if (targets != null) {
        for (String target : targets) {
          Ref r = candidate(target);
          if (r != null) {
            r.written = true;
          } else {
            written(target);
          }
        }
      }
    }
  }

  /**
   * Multi-table UPDATE writes only the tables its SET targets name; an unqualified target can
   * only belong to the first table in single-table form, and MySQL resolves it like that too.
   */
  private void resolveSetTargets(int from) {
    int k = from;
    while (k < t.size()) {
      String qualifier = null;
      int start = k;
      while (t.type(k + 1) == Token.DOT) {
        k += 2;
      }
      if (k > start) {
        qualifier = qualifierText(start, k);
      }
      Ref r = qualifier == null ? firstCandidate() : candidate(qualifier);
      if (r != null) {
        r.written = true;
      }
      k = nextAssignment(k + 1);
      if (k < 0) {
        return;
      }
    }
  }

  private String qualifierText(int start, int last) {
    StringBuilder sb = new StringBuilder();
    for (int p = start; p < last; p += 2) {
      if (sb.length() > 0) {
        sb.append('.');
      }
      sb.append(t.identifier(p));
    }
    return sb.toString();
  }

  private int nextAssignment(int from) {
    for (int k = from; k < t.size(); k++) {
      int d = t.depth(k);
      if (d < mainDepth || t.type(k) == Token.SEMICOLON) {
        return -1;
      }
      if (d == mainDepth) {
        if (t.type(k) == Token.COMMA) {
          return k + 1;
        }
        Keyword kw = t.kw(k);
        if (kw == Keyword.WHERE || kw == Keyword.ORDER || kw == Keyword.LIMIT) {
          return -1;
        }
      }
    }
    return -1;
  }

  private Ref firstCandidate() {
    for (Ref r : refs) {
      if (r.depth == mainDepth) {
        return r;
      }
    }
    return null;
  }

  /** The main-level reference a target names: by alias first, as SQL scoping does, then by name. */
  private Ref candidate(String target) {
    for (Ref r : refs) {
      if (r.depth == mainDepth && target.equals(r.alias)) {
        return r;
      }
    }
    for (Ref r : refs) {
      if (r.depth == mainDepth && r.alias == null
          && (r.name.equals(target) || r.name.endsWith("." + target))) {
        return r;
      }
    }
    for (Ref r : refs) {
      if (r.depth == mainDepth && (r.name.equals(target) || target.endsWith("." + r.name))) {
        return r;
      }
    }
    return null;
  }

  private void collect() {
    ArrayList<String> r = new ArrayList<>(refs.size());
    ArrayList<String> w = new ArrayList<>(2);
    for (Ref ref : refs) {
      if (isCte(ref.name)) {
        continue;
      }
      (ref.written ? w : r).add(ref.name);
    }
    if (extraWritten != null) {
      for (String name : extraWritten) {
        if (!isCte(name)) {
          w.add(name);
        }
      }
    }
    read = sortedUnique(r);
    written = sortedUnique(w);
  }

  private boolean isCte(String name) {
    return ctes != null && ctes.contains(name);
  }

  private static List<String> sortedUnique(ArrayList<String> names) {
    if (names.isEmpty()) {
      return Collections.emptyList();
    }
    if (names.size() == 1) {
      return Collections.singletonList(names.get(0));
    }
    Collections.sort(names);
    int keep = 1;
    for (int i = 1; i < names.size(); i++) {
      if (!names.get(i).equals(names.get(keep - 1))) {
        names.set(keep++, names.get(i));
      }
    }
    return Collections.unmodifiableList(new ArrayList<>(names.subList(0, keep)));
  }
}
