package io.wireadvisor.samples.bank;

import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.ServerChangeSql;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the advisor's recommendations into what {@code prove} actually changes next: only the part
 * of each {@link Change} that differs from the configuration in effect. A recommendation whose
 * change is already in effect, or that has nothing mechanical to apply (notes only, SQL this
 * sample does not run), plans an empty step, so a rule that keeps firing cannot make the loop run
 * forever.
 *
 * <p>SQL is applied only in the two forms the advisor writes and {@link ServerStateGuard} can undo:
 * {@code SET GLOBAL name = value;} and {@code ALTER TABLE `schema`.`table` CACHE;} on a table of the
 * workload's schema. Anything else is listed as skipped, with the reason, never executed.
 */
public final class ChangePlan {

  /** Changes to make in one step (or for one recommendation). A null pool value removes the setting. */
  public record Step(
      Map<String, String> jdbcProperties,
      Map<String, String> poolSettings,
      Map<String, String> globals,
      List<String> tables) {
    public Step {
      jdbcProperties = Collections.unmodifiableMap(new LinkedHashMap<>(jdbcProperties));
      poolSettings = Collections.unmodifiableMap(new LinkedHashMap<>(poolSettings));
      globals = Collections.unmodifiableMap(new LinkedHashMap<>(globals));
      tables = List.copyOf(tables);
    }

    public boolean isEmpty() {
      return jdbcProperties.isEmpty() && poolSettings.isEmpty() && globals.isEmpty() && tables.isEmpty();
    }

    /** One line: {@code useServerPrepStmts=true, SET GLOBAL x = ON, CACHE 48 tables}. */
    public String describe() {
      List<String> parts = new ArrayList<>();
      jdbcProperties.forEach((k, v) -> parts.add(k + "=" + v));
      poolSettings.forEach((k, v) -> parts.add(v == null ? "pool: remove " + k : "pool: " + k + "=" + v));
      globals.forEach((k, v) -> parts.add("SET GLOBAL " + k + " = " + v));
      if (!tables.isEmpty()) {
        parts.add("CACHE " + tables.size() + (tables.size() == 1 ? " table" : " tables"));
      }
      return parts.isEmpty() ? "(nothing)" : String.join(", ", parts);
    }
  }

  /** What one recommendation contributes: its new changes, and the parts skipped with why. */
  public record Planned(String id, Step step, List<String> skipped) {
    public Planned {
      skipped = List.copyOf(skipped);
    }

    public boolean applicable() {
      return !step.isEmpty();
    }
  }

  private final String database;
  private final Map<String, String> serverGlobals;

  /**
   * @param database the workload's schema: the only one whose tables are cached
   * @param serverGlobals the server's current global values (from its {@code ServerView}); a
   *     recommended value equal to the current one is not applied again
   */
  public ChangePlan(String database, Map<String, String> serverGlobals) {
    this.database = database;
    this.serverGlobals = serverGlobals == null ? Map.of() : serverGlobals;
  }

  /** Plans each recommendation against {@code current}, in the advisor's order. */
  public List<Planned> plan(ProveConfig current, List<Recommendation> recommendations) {
    List<Planned> out = new ArrayList<>();
    // Later recommendations see earlier ones' changes: two rules asking for the same property once.
    ProveConfig running = current;
    for (Recommendation r : recommendations) {
      Planned p = plan(running, r.id(), r.change());
      out.add(p);
      running = running.with(p.step());
    }
    return out;
  }

  /** The part of {@code change} not yet in effect in {@code current}. */
  Planned plan(ProveConfig current, String id, Change change) {
    Map<String, String> jdbc = new LinkedHashMap<>();
    change.jdbcProperties().forEach((k, v) -> {
      if (!ProveConfig.sameValue(current.property(k), v)) {
        jdbc.put(k, v);
      }
    });
    Map<String, String> pool = new LinkedHashMap<>();
    List<String> skipped = new ArrayList<>();
    change.poolSettings().forEach((k, v) -> {
      String now = ProveConfig.get(current.poolSettings(), k);
      if (v != null && v.startsWith("(remove")) {
        // PoolValidationRule's way of saying "unset it".
        if (now != null) {
          pool.put(k, null);
        }
      } else if (!ProveConfig.sameValue(now, v)) {
        pool.put(k, v);
      }
    });
    Map<String, String> globals = new LinkedHashMap<>();
    List<String> tables = new ArrayList<>();
    for (String sql : change.sql()) {
      ServerChangeSql.Global g = ServerChangeSql.global(sql);
      ServerChangeSql.CachedTable t = ServerChangeSql.cachedTable(sql);
      if (g != null) {
        String name = g.name();
        String value = g.value();
        String inEffect = current.global(name) != null ? current.global(name) : ProveConfig.get(serverGlobals, name);
        if (!ProveConfig.sameValue(inEffect, value)) {
          globals.put(name, value);
        }
      } else if (t != null) {
        String schema = t.schema();
        String table = t.table();
        if (schema != null && !schema.equalsIgnoreCase(database)) {
          skipped.add(sql + " (not the workload's schema " + database + ")");
        } else if (!current.isCached(table) && !tables.contains(table)) {
          tables.add(table);
        }
      } else {
        skipped.add(sql + " (not a SET GLOBAL or ALTER TABLE ... CACHE this sample can undo)");
      }
    }
    return new Planned(id, new Step(jdbc, pool, globals, tables), skipped);
  }

  /** Everything the applicable recommendations change, merged in order. */
  public static Step merge(List<Planned> planned) {
    Map<String, String> jdbc = new LinkedHashMap<>();
    Map<String, String> pool = new LinkedHashMap<>();
    Map<String, String> globals = new LinkedHashMap<>();
    List<String> tables = new ArrayList<>();
    for (Planned p : planned) {
      p.step().jdbcProperties().forEach((k, v) -> ProveConfig.put(jdbc, k, v));
      pool.putAll(p.step().poolSettings());
      p.step().globals().forEach((k, v) -> ProveConfig.put(globals, k, v));
      p.step().tables().forEach(t -> {
        if (!tables.contains(t)) {
          tables.add(t);
        }
      });
    }
    return new Step(jdbc, pool, globals, tables);
  }
}
