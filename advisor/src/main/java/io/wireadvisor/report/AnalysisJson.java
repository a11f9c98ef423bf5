package io.wireadvisor.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.ClientGroup;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Regression;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.Saving;
import io.wireadvisor.advisor.StatementTime;
import io.wireadvisor.advisor.Withheld;
import io.wireadvisor.profile.Histogram;
import java.util.Map;

/** The JSON form of an analysis and of a comparison; the schema is documented in docs/advisor.md. */
public final class AnalysisJson {
  /** The {@code schema} field of an analysis document. */
  public static final String SCHEMA = "wire-advisor/analysis";

  /** The {@code schema} field of a diff document. */
  public static final String DIFF_SCHEMA = "wire-advisor/diff";

  public static final int SCHEMA_VERSION = 1;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private AnalysisJson() {}

  /** The analysis as a JSON document. */
  public static String toJson(Analysis a) {
    return write(tree(a));
  }

  /** A comparison as a JSON document. */
  public static String toJson(Comparison c) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schema", DIFF_SCHEMA);
    root.put("schemaVersion", SCHEMA_VERSION);
    root.set("before", tree(c.before()));
    root.set("after", summary(c.after()));
    ArrayNode items = root.putArray("outcomes");
    for (Comparison.Item i : c.items()) {
      ObjectNode o = items.addObject();
      o.put("id", i.recommendation().id());
      o.set("expectation", expectation(i.outcome().expectation()));
      number(o, "after", i.outcome().after());
      o.put("status", i.outcome().status().name());
    }
    root.put("allMet", c.allMet());
    ArrayNode regressions = root.putArray("regressions");
    for (Regression r : c.regressions()) {
      ObjectNode o = regressions.addObject();
      o.put("kind", r.kind().name());
      o.put("message", r.message());
      number(o, "before", r.before());
      number(o, "after", r.after());
      ArrayNode d = o.putArray("details");
      for (String line : r.details()) {
        d.add(line);
      }
    }
    root.put("passed", c.passed());
    if (!c.clients().isEmpty()) {
      ArrayNode clients = root.putArray("byClient");
      for (Comparison.ClientDiff d : c.clients()) {
        ObjectNode o = clients.addObject();
        o.put("client", d.label());
        o.put("kind", d.kind().name());
        if (d.comparison() == null) {
          o.put("onlyIn", d.onlyIn());
        } else {
          o.put("allMet", d.comparison().allMet());
          o.put("passed", d.comparison().passed());
          o.put("outcomes", d.comparison().items().size());
          o.put("regressions", d.comparison().regressions().size());
        }
      }
    }
    return write(root);
  }

  private static String write(ObjectNode root) {
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot happen for a tree of plain nodes", e);
    }
  }

  static ObjectNode tree(Analysis a) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("schema", SCHEMA);
    root.put("schemaVersion", SCHEMA_VERSION);
    if (a.server() == null) {
      root.putNull("server");
    } else {
      root.put("server", a.server());
    }
    root.set("profile", summary(a.profile()));
    ArrayNode recs = root.putArray("recommendations");
    for (Recommendation r : a.recommendations()) {
      ObjectNode o = recs.addObject();
      o.put("id", r.id());
      o.put("title", r.title());
      o.put("severity", r.severity().name());
      ArrayNode ev = o.putArray("evidence");
      for (String e : r.evidence()) {
        ev.add(e);
      }
      o.set("change", change(r.change()));
      o.put("expectedEffect", r.expectedEffect());
      o.put("risk", r.risk());
      o.put("verify", r.verify());
      ArrayNode ex = o.putArray("expectations");
      for (Expectation e : r.expectations()) {
        ex.add(expectation(e));
      }
      if (r.saving() != null) {
        Saving sv = r.saving();
        ObjectNode so = o.putObject("saving");
        so.put("roundTripsBefore", sv.roundTripsBefore());
        so.put("roundTripsAfter", sv.roundTripsAfter());
        number(so, "secondsSaved", sv.secondsSaved());
        so.put("assumption", sv.assumption());
        ObjectNode d = so.putObject("commandDelta");
        for (Map.Entry<String, Long> e : sv.commandDelta().entrySet()) {
          d.put(e.getKey(), e.getValue());
        }
      }
    }
    Outlook ol = a.outlook();
    if (ol != null) {
      ObjectNode o = root.putObject("outlook");
      number(o, "windowSeconds", ol.windowSeconds());
      o.put("server", ol.server());
      o.put("serverKind", ol.serverKind().name());
      o.put("businessStatements", ol.businessStatements());
      number(o, "roundTripsPerStatementNow", ol.roundTripsPerStatementNow());
      number(o, "roundTripsPerStatementAfter", ol.roundTripsPerStatementAfter());
      number(o, "measuredSeconds", ol.measuredSeconds());
      number(o, "secondsSaved", ol.secondsSaved());
      o.put("cpuBound", ol.cpuLine());
      ArrayNode not = o.putArray("notEstimated");
      for (String n : ol.notEstimated()) {
        not.add(n);
      }
      ObjectNode now = o.putObject("commandsNow");
      for (Map.Entry<String, Long> e : ol.commandsNow().entrySet()) {
        now.put(e.getKey(), e.getValue());
      }
      ObjectNode after = o.putObject("commandsAfter");
      for (Map.Entry<String, Long> e : ol.commandsAfter().entrySet()) {
        after.put(e.getKey(), e.getValue());
      }
    }
    if (a.serverWindows() != null) {
      // The TiDB figures (topStatements[].server, evidence) and the profile's counts: two windows.
      root.put("serverWindows", a.serverWindows());
    }
    ArrayNode top = root.putArray("topStatements");
    for (StatementTime t : a.topStatements()) {
      ObjectNode o = top.addObject();
      o.put("digest", t.digest());
      o.put("tidbDigest", t.tidbDigest());
      o.put("text", t.text());
      o.put("kind", t.kind());
      o.put("executions", t.executions());
      o.put("wirePattern", t.wirePattern());
      ObjectNode cm = o.putObject("commands");
      for (Map.Entry<String, Long> e : t.commands().entrySet()) {
        cm.put(e.getKey(), e.getValue());
      }
      o.put("probes", t.probes());
      number(o, "seconds", t.seconds());
      number(o, "share", t.share());
      o.put("maxSqlLength", t.maxSqlLength());
      if (t.hasSqlLimit()) {
        o.put("sqlLimit", t.sqlLimit());
      }
      o.put("aboveSqlLimit", t.aboveSqlLimit());
      if (t.server() != null) {
        ObjectNode sv = o.putObject("server");
        sv.put("executions", t.server().executions());
        sv.put("planCacheHits", t.server().planCacheHits());
        number(sv, "seconds", t.server().seconds());
        number(sv, "avgProcessedKeys", t.server().avgProcessedKeys());
      }
    }
    ObjectNode errors = root.putObject("errors");
    errors.put("total", a.errorTotal());
    errors.put("onFirstScreen", a.errorsOnFirstScreen());
    ArrayNode lines = errors.putArray("byStatementAndCode");
    for (io.wireadvisor.advisor.ErrorLine e : a.errors()) {
      ObjectNode o = lines.addObject();
      o.put("digest", e.digest());
      o.put("text", e.text());
      o.put("sessionState", e.sessionState());
      o.put("code", e.code());
      o.put("sqlState", e.sqlState());
      o.put("count", e.count());
      o.put("executions", e.executions());
      number(o, "seconds", e.seconds());
    }
    ArrayNode withheld = root.putArray("withheld");
    for (Withheld w : a.withheld()) {
      ObjectNode o = withheld.addObject();
      o.put("ruleId", w.ruleId());
      o.put("subject", w.subject());
      o.put("need", w.need());
      o.put("have", w.have());
      o.put("because", w.because());
      o.put("message", w.message());
    }
    ObjectNode latency = root.putObject("commandLatencyNanos");
    for (Map.Entry<String, Histogram> e : a.commandLatency().entrySet()) {
      ObjectNode o = latency.putObject(e.getKey());
      o.put("count", e.getValue().count());
      o.put("p50", e.getValue().quantile(0.5));
      o.put("p95", e.getValue().quantile(0.95));
      o.put("p99", e.getValue().quantile(0.99));
      o.put("max", e.getValue().max());
    }
    CopyReady c = CopyReady.of(a);
    ObjectNode all = root.putObject("allChanges");
    strings(all.putArray("jdbcUrls"), c.urls);
    strings(all.putArray("hikari"), c.hikari);
    strings(all.putArray("springBoot"), c.spring);
    strings(all.putArray("hibernate"), c.hibernate);
    strings(all.putArray("sql"), c.sql);
    strings(all.putArray("notes"), c.notes);
    clients(all, c.clients);
    if (!a.groups().isEmpty()) {
      ArrayNode groups = root.putArray("byClient");
      for (ClientGroup g : a.groups()) {
        ObjectNode o = groups.addObject();
        o.put("client", g.label());
        o.put("kind", g.kind().name());
        o.put("wireCommands", g.wireCommands());
        number(o, "share", g.share());
        ObjectNode part = tree(g.analysis());
        part.remove("schema");
        part.remove("schemaVersion");
        part.remove("server");
        o.set("analysis", part);
      }
    }
    return root;
  }

  /** {@code "clients": [{"client": label, "lines": [...]}, ...]}, in order. */
  private static void clients(ObjectNode o, Map<String, java.util.List<String>> clients) {
    ArrayNode array = o.putArray("clients");
    for (Map.Entry<String, java.util.List<String>> e : clients.entrySet()) {
      ObjectNode client = array.addObject();
      client.put("client", e.getKey());
      strings(client.putArray("lines"), e.getValue());
    }
  }

  private static void strings(ArrayNode array, java.util.List<String> values) {
    for (String v : values) {
      array.add(v);
    }
  }

  static ObjectNode summary(ProfileSummary p) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("windowSeconds", p.windowSeconds());
    o.put("wireCommands", p.wireCommands());
    o.put("statements", p.statements());
    o.put("selects", p.selects());
    o.put("shapes", p.shapes());
    o.put("probes", p.probes());
    o.put("connections", p.connections());
    number(o, "statementsPerSecond", p.statementsPerSecond());
    number(o, "statementsPerCommand", p.statementsPerCommand());
    ObjectNode commands = o.putObject("commands");
    for (Map.Entry<String, Long> e : p.commands().entrySet()) {
      commands.put(e.getKey(), e.getValue());
    }
    ObjectNode metrics = o.putObject("metrics");
    for (Map.Entry<Metric, Double> e : p.metrics().entrySet()) {
      number(metrics, e.getKey().name(), e.getValue());
    }
    ArrayNode sources = o.putArray("sources");
    for (String s : p.sources()) {
      sources.add(s);
    }
    return o;
  }

  private static ObjectNode change(Change c) {
    ObjectNode o = MAPPER.createObjectNode();
    ObjectNode jdbc = o.putObject("jdbcProperties");
    for (Map.Entry<String, String> e : c.jdbcProperties().entrySet()) {
      jdbc.put(e.getKey(), e.getValue());
    }
    o.put("urlParameters", c.urlParameters());
    ArrayNode hikari = o.putArray("hikariDataSourceProperties");
    for (String l : c.hikariDataSourceLines()) {
      hikari.add(l);
    }
    ObjectNode pool = o.putObject("poolSettings");
    for (Map.Entry<String, String> e : c.poolSettings().entrySet()) {
      pool.put(e.getKey(), e.getValue());
    }
    ObjectNode hibernate = o.putObject("hibernateProperties");
    for (Map.Entry<String, String> e : c.hibernateProperties().entrySet()) {
      hibernate.put(e.getKey(), e.getValue());
    }
    ArrayNode sql = o.putArray("sql");
    for (String s : c.sql()) {
      sql.add(s);
    }
    ArrayNode notes = o.putArray("notes");
    for (String s : c.notes()) {
      notes.add(s);
    }
    clients(o, c.clients());
    return o;
  }

  private static ObjectNode expectation(Expectation e) {
    ObjectNode o = MAPPER.createObjectNode();
    if (e.metric() == null) {
      o.putNull("metric");
    } else {
      o.put("metric", e.metric().name());
    }
    number(o, "before", e.before());
    number(o, "target", e.target());
    o.put("comparison", e.metric() == null ? "SERVER_SIDE" : "AT_MOST");
    o.put("description", e.description());
    return o;
  }

  /** NaN (undefined ratio) is written as null. */
  private static void number(ObjectNode o, String name, double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      o.putNull(name);
    } else {
      o.put(name, v);
    }
  }
}
