package io.wireadvisor.advisor;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the server-side statements the rules write into a {@link Change} ({@code SET GLOBAL name
 * = value;}, {@code ALTER TABLE `schema`.`table` CACHE;}) back into what they change, so that a
 * tool applying them (prove, replay) can also undo them: the previous global value, {@code ALTER
 * TABLE … NOCACHE}. Anything else is not one of these (null).
 */
public final class ServerChangeSql {
  private static final Pattern SET_GLOBAL =
      Pattern.compile("(?is)\\s*SET\\s+(?:GLOBAL\\s+|@@GLOBAL\\.)`?([A-Za-z_][A-Za-z0-9_]*)`?\\s*(?:=|:=)\\s*(.+?)\\s*;?\\s*");
  private static final Pattern CACHE_TABLE =
      Pattern.compile("(?is)\\s*ALTER\\s+TABLE\\s+(?:`?([A-Za-z0-9_$]+)`?\\s*\\.\\s*)?`?([A-Za-z0-9_$]+)`?\\s+CACHE\\s*;?\\s*");

  /** {@code SET GLOBAL name = value}: the value unquoted. */
  public static final class Global {
    private final String name;
    private final String value;

    Global(String name, String value) {
      this.name = name;
      this.value = value;
    }

    public String name() {
      return name;
    }

    public String value() {
      return value;
    }
  }

  /** {@code ALTER TABLE [schema.]table CACHE}; schema null when not named. */
  public static final class CachedTable {
    private final String schema;
    private final String table;

    CachedTable(String schema, String table) {
      this.schema = schema;
      this.table = table;
    }

    public String schema() {
      return schema;
    }

    public String table() {
      return table;
    }
  }

  private ServerChangeSql() {}

  /** The global {@code sql} sets, or null. */
  public static Global global(String sql) {
    Matcher g = SET_GLOBAL.matcher(sql);
    return g.matches() ? new Global(g.group(1), unquote(g.group(2))) : null;
  }

  /** The table {@code sql} caches, or null. */
  public static CachedTable cachedTable(String sql) {
    Matcher t = CACHE_TABLE.matcher(sql);
    return t.matches() ? new CachedTable(t.group(1), t.group(2)) : null;
  }

  private static String unquote(String v) {
    String s = v.trim();
    if (s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }
}
