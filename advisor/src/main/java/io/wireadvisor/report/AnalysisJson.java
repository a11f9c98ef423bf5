package io.wireadvisor.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.Comparison;
import io.wireadvisor.advisor.Expectation;
import io.wireadvisor.advisor.Metric;
import io.wireadvisor.advisor.ProfileSummary;
import io.wireadvisor.advisor.Recommendation;
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
    }
    return root;
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
    ArrayNode sql = o.putArray("sql");
    for (String s : c.sql()) {
      sql.add(s);
    }
    ArrayNode notes = o.putArray("notes");
    for (String s : c.notes()) {
      notes.add(s);
    }
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
