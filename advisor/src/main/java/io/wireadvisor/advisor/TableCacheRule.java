package io.wireadvisor.advisor;

import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import io.wireadvisor.server.TableInfo;
import io.wireadvisor.sql.StatementKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rule 7: small, hot, rarely written tables on TiDB v6.0+: {@code ALTER TABLE ... CACHE} keeps
 * them in each tidb-server's memory. Never for partitioned or temporary tables or views; at most
 * 64 MiB.
 */
public final class TableCacheRule extends JudgedRule {
  public static final String ID = "tidb-cached-tables";
  /** TiDB refuses larger tables (error 8242). */
  static final long MAX_BYTES = 64L << 20;
  /** Above this a table is allowed but each tidb-server's memory copy starts to matter. */
  static final long COMFORTABLE_BYTES = 16L << 20;
  /**
   * Writes wait for the cache lease: only tables written less often than this qualify. Above it a
   * table is left out silently; below it, a table the traffic writes at all is named as withheld
   * (see {@link #find}), because each write waits up to the lease.
   */
  static final double MAX_WRITES_PER_MINUTE = 10;
  /** Reads per minute from which caching pays. */
  static final double MIN_READS_PER_MINUTE = 60;

  @Override
  public String id() {
    return ID;
  }

  /** One table's traffic. */
  static final class Usage {
    final TableInfo table;
    long reads;
    long writes;

    Usage(TableInfo table) {
      this.table = table;
    }
  }

  /** What the rule found: the tables to cache and what it could not judge. */
  private static final class Findings {
    final List<Usage> candidates = new ArrayList<>();
    final List<Withheld> withheld = new ArrayList<>();
    int unknown;
    int unquotable;
  }

  /** The tables are found once; the recommendation and what was withheld both come from them. */
  @Override
  public Judgment judge(TrafficProfile profile, ServerView server) {
    if (server == null || !server.isTiDBAtLeast(6, 0)) {
      return new Judgment(null, Collections.<Withheld>emptyList());
    }
    Findings f = find(profile, server);
    return new Judgment(recommend(profile, f), f.withheld);
  }

  private static Findings find(TrafficProfile profile, ServerView server) {
    Findings j = new Findings();
    if (profile.trafficSeconds() < Evidence.MIN_WINDOW_SECONDS) {
      j.withheld.add(new Withheld(ID, "which tables to cache",
          "a window of at least " + (long) Evidence.MIN_WINDOW_SECONDS + " s",
          Fmt.rate(profile.trafficSeconds()) + " s"));
      return j;
    }
    Map<String, Usage> usage = new HashMap<>();
    Map<String, TableInfo> resolved = new HashMap<>();
    for (ShapeStats s : profile.shapes().values()) {
      long n = s.executions();
      // DDL (CREATE, ALTER, DROP, TRUNCATE) changes the table, not the data a cache would hold.
      if (n == 0 || s.kind() == StatementKind.DDL) {
        continue;
      }
      for (String name : s.tablesRead()) {
        Usage u = usage(usage, resolved, server, name);
        if (u == null) {
          j.unknown++;
        } else {
          u.reads += n;
        }
      }
      for (String name : s.tablesWritten()) {
        Usage u = usage(usage, resolved, server, name);
        if (u != null) {
          u.writes += n;
        }
      }
    }
    // Rates over the traffic's span where the profile records it: a JVM's start-up is not traffic,
    // and counting it makes a table the application writes look rarely written.
    double minutes = profile.trafficSeconds() / 60.0;
    List<Usage> tooFew = new ArrayList<>();
    for (Usage u : usage.values()) {
      TableInfo t = u.table;
      if (t.cached() || t.view() || t.temporary() || t.partitioned()) {
        continue;
      }
      if (t.totalBytes() > MAX_BYTES) {
        continue;
      }
      if (u.writes / minutes >= MAX_WRITES_PER_MINUTE || u.reads / minutes < MIN_READS_PER_MINUTE) {
        continue;
      }
      if (!SqlText.isQuotableIdentifier(t.schema()) || !SqlText.isQuotableIdentifier(t.name())) {
        j.unquotable++; // only a forged server view holds such names: print no SQL for them
        continue;
      }
      if (t.rows() == 0) {
        j.withheld.add(new Withheld(ID, "caching table " + Fmt.printable(t.qualifiedName()),
            "table statistics (ANALYZE TABLE " + Fmt.printable(t.qualifiedName()) + "), to know its size",
            "none: the server reports 0 rows and " + Fmt.bytes(t.totalBytes())));
        continue;
      }
      if (u.reads < Evidence.TABLE_CACHE_MIN_READS) {
        tooFew.add(u);
        continue;
      }
      if (u.writes > 0) {
        // Found on spring-petclinic: pets, written 6.8 times/min, was advised; with it cached the
        // transactions that inserted a pet took 1.6 s to commit (3.0 s at most) against 5 ms.
        // The study cached the tables its traffic only read.
        j.withheld.add(Withheld.because(ID, "caching table " + Fmt.printable(t.qualifiedName()),
            "the traffic writes it (" + Fmt.count(u.writes) + " writes, "
                + Fmt.rate(u.writes / minutes) + "/min): each transaction that writes a cached"
                + " table waits up to tidb_table_cache_lease (3 s by default) to commit",
            "a table the traffic only reads", Fmt.count(u.writes) + " writes"));
        continue;
      }
      j.candidates.add(u);
    }
    for (Usage u : tooFew) {
      j.withheld.add(new Withheld(ID, "caching table " + Fmt.printable(u.table.qualifiedName()),
          "at least " + Fmt.count(Evidence.TABLE_CACHE_MIN_READS) + " reads of it in the window",
          Fmt.count(u.reads) + " reads in " + Fmt.rate(minutes) + " min"));
    }
    return j;
  }

  private static Recommendation recommend(TrafficProfile profile, Findings j) {
    List<Usage> candidates = j.candidates;
    int unknown = j.unknown;
    int unquotable = j.unquotable;
    // Rates over the traffic's span where the profile records it: a JVM's start-up is not traffic,
    // and counting it makes a table the application writes look rarely written.
    double minutes = profile.trafficSeconds() / 60.0;
    if (candidates.isEmpty()) {
      return null;
    }
    Collections.sort(
        candidates,
        new Comparator<Usage>() {
          @Override
          public int compare(Usage a, Usage b) {
            int c = Long.compare(b.reads, a.reads);
            return c != 0 ? c : a.table.qualifiedName().compareTo(b.table.qualifiedName());
          }
        });
    Recommendation.Builder r =
        Recommendation.builder(
                ID,
                (candidates.size() == 1
                        ? "Cache a small table the traffic only reads in TiDB"
                        : "Cache " + candidates.size() + " small tables the traffic only reads in TiDB")
                    + " (ALTER TABLE ... CACHE)",
                Severity.MEDIUM)
            .evidence(
                (candidates.size() == 1 ? "1 table of at most 64 MiB is" : candidates.size() + " tables of at most 64 MiB are")
                    + " read at least "
                    + (long) MIN_READS_PER_MINUTE
                    + " times/min and never written over the "
                    + Fmt.rate(minutes)
                    + (profile.firstStatementMillis() > 0
                        ? " minutes from the first statement to the last"
                        : "-minute window")
                    + " (table, size, reads/min):");
    Change.Builder change = Change.builder();
    for (Usage u : candidates) {
      TableInfo t = u.table;
      r.evidence(
          "  "
              + Fmt.printable(t.qualifiedName())
              + "  "
              + Fmt.bytes(t.totalBytes())
              + "  "
              + Fmt.rate(u.reads / minutes)
              + (t.totalBytes() > COMFORTABLE_BYTES ? "  (large: every tidb-server holds a copy)" : ""));
      change.sql(alterTableCache(t));
    }
    if (unquotable > 0) {
      r.evidence(unquotable + " tables were left out: their names are not valid MySQL identifiers.");
    }
    if (unknown > 0) {
      r.evidence(unknown + " table references in the profile matched no table the server listed.");
    }
    return r.change(
            change
                .note(
                    "To change such a table's schema later, run ALTER TABLE ... NOCACHE first (DDL"
                        + " is refused on cached tables).")
                .build())
        .expectedEffect(
            "Reads of these tables are served from each tidb-server's memory instead of TiKV. In"
                + " the study (scenario 7) QPS rose from 34.9k to 40.9k and average latency fell"
                + " from 533 to 313 us.")
        .risk(
            "A write to a cached table waits up to tidb_table_cache_lease (3 s by default); a table"
                + " that grows past 64 MiB must be uncached (error 8242 on caching); each"
                + " tidb-server holds a copy in memory.")
        .verify(
            "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE CREATE_OPTIONS"
                + " LIKE '%cached=on%' lists them (SHOW CREATE TABLE ends with /* CACHED ON */);"
                + " tidb_server_read_from_tablecache_total grows.")
        .expect(Expectation.serverSide("reads served from the table cache (server-side)"))
        .build();
  }

  /** {@code ALTER TABLE `schema`.`name` CACHE;} with both names quoted. */
  static String alterTableCache(TableInfo t) {
    return "ALTER TABLE " + SqlText.identifier(t.schema()) + "." + SqlText.identifier(t.name())
        + " CACHE;";
  }

  private static Usage usage(
      Map<String, Usage> usage, Map<String, TableInfo> resolved, ServerView server, String name) {
    TableInfo t = resolved.get(name);
    if (t == null && !resolved.containsKey(name)) {
      t = server.table(name);
      resolved.put(name, t);
    }
    if (t == null) {
      return null;
    }
    Usage u = usage.get(t.qualifiedName());
    if (u == null) {
      u = new Usage(t);
      usage.put(t.qualifiedName(), u);
    }
    return u;
  }
}
