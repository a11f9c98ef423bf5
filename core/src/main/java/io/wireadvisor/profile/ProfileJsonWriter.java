package io.wireadvisor.profile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.wireadvisor.sql.ProbeKind;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link TrafficProfile} as JSON (schema in {@code docs/profile.md}), field by field in
 * the order {@link ProfileJsonReader} expects; optional fields are left out when empty, so a
 * profile without them reads the same in an older reader. Use it through {@link ProfileJson}.
 */
final class ProfileJsonWriter {
  private static final JsonFactory FACTORY = new JsonFactory();

  private ProfileJsonWriter() {}

  /** Writes the profile as pretty-printed UTF-8 JSON; does not close {@code out}. */
  static void write(TrafficProfile profile, OutputStream out) throws IOException {
    JsonGenerator g = FACTORY.createGenerator(out);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.useDefaultPrettyPrinter();
    writeProfile(profile, g);
    g.flush();
  }



  private static void writeProfile(TrafficProfile p, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("schema", TrafficProfile.SCHEMA);
    g.writeNumberField("schemaVersion", TrafficProfile.SCHEMA_VERSION);

    g.writeArrayFieldStart("sources");
    for (Source s : p.sources()) {
      g.writeStartObject();
      g.writeStringField("collector", s.collector());
      writeOptional(g, "collectorVersion", s.collectorVersion());
      writeOptional(g, "instance", s.instance());
      writeOptional(g, "driverName", s.driverName());
      writeOptional(g, "driverVersion", s.driverVersion());
      writeOptional(g, "serverVersion", s.serverVersion());
      writeOptional(g, "isolation", s.isolation());
      writeOptional(g, "jdbcUrl", s.jdbcUrl());
      g.writeObjectFieldStart("properties");
      for (Map.Entry<String, String> e : s.properties().entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeNumberField("startMillis", s.startMillis());
      g.writeNumberField("endMillis", s.endMillis());
      g.writeEndObject();
    }
    g.writeEndArray();

    g.writeObjectFieldStart("commands");
    for (Map.Entry<CommandType, CommandStats> e : p.commands().entrySet()) {
      g.writeObjectFieldStart(e.getKey().wireName());
      g.writeNumberField("count", e.getValue().count());
      if (e.getValue().latency() != null) {
        g.writeFieldName("latencyNanos");
        writeHistogram(e.getValue().latency(), g);
      }
      g.writeEndObject();
    }
    g.writeEndObject();

    g.writeArrayFieldStart("shapes");
    for (ShapeStats s : p.shapes().values()) {
      writeShape(s, g);
    }
    g.writeEndArray();

    g.writeObjectFieldStart("probes");
    for (Map.Entry<ProbeKind, ProbeStats> e : p.probes().entrySet()) {
      g.writeObjectFieldStart(e.getKey().name());
      g.writeNumberField("count", e.getValue().count());
      g.writeObjectFieldStart("causes");
      for (Map.Entry<String, Long> c : e.getValue().causes().entrySet()) {
        g.writeNumberField(c.getKey(), c.getValue());
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeEndObject();

    ConnectionStats c = p.connections();
    g.writeObjectFieldStart("connections");
    g.writeNumberField("connections", c.connections());
    g.writeObjectFieldStart("distributions");
    for (ConnectionMetric m : ConnectionMetric.values()) {
      g.writeFieldName(m.jsonName());
      writeHistogram(c.distribution(m), g);
    }
    g.writeEndObject();
    g.writeEndObject();

    if (p.transactions() > 0) {
      g.writeNumberField("transactions", p.transactions());
    }
    writeBorrows(p, g);
    if (!p.commandsByClient().isEmpty()) {
      g.writeObjectFieldStart("commandsByClient");
      for (Map.Entry<String, long[]> e : p.commandsByClient().entrySet()) {
        g.writeObjectFieldStart(e.getKey());
        for (CommandType t : CommandType.values()) {
          if (e.getValue()[t.ordinal()] != 0) {
            g.writeNumberField(t.wireName(), e.getValue()[t.ordinal()]);
          }
        }
        g.writeEndObject();
      }
      g.writeEndObject();
    }

    if (!p.statementsByIsolation().isEmpty()) {
      g.writeObjectFieldStart("statementsByIsolation");
      for (Map.Entry<String, Long> e : p.statementsByIsolation().entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
    if (p.cpu() != null) {
      CpuUsage cpu = p.cpu();
      g.writeObjectFieldStart("cpu");
      g.writeNumberField("windowNanos", cpu.windowNanos());
      g.writeNumberField("processNanos", cpu.processNanos());
      g.writeNumberField("cores", cpu.cores());
      if (cpu.hostKnown()) {
        g.writeNumberField("hostBusyNanos", cpu.hostBusyNanos());
        g.writeNumberField("hostNanos", cpu.hostNanos());
      }
      if (cpu.hostCpuWaitNanos() >= 0) {
        g.writeNumberField("hostCpuWaitNanos", cpu.hostCpuWaitNanos());
      }
      if (cpu.serverNanos() >= 0) {
        g.writeNumberField("serverNanos", cpu.serverNanos());
      }
      ServerCpuProfile sp = cpu.serverProfile();
      if (sp != null) {
        g.writeObjectFieldStart("serverProfile");
        g.writeNumberField("sampledNanos", sp.sampledNanos());
        g.writeNumberField("connectionNanos", sp.connectionNanos());
        g.writeNumberField("parseNanos", sp.parseNanos());
        g.writeNumberField("compileNanos", sp.compileNanos());
        g.writeNumberField("digestNanos", sp.digestNanos());
        g.writeNumberField("planCacheLookupNanos", sp.planCacheLookupNanos());
        g.writeNumberField("slices", sp.slices());
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    if (p.firstStatementMillis() > 0) {
      g.writeObjectFieldStart("traffic");
      g.writeNumberField("firstStatementMillis", p.firstStatementMillis());
      g.writeNumberField("lastStatementMillis", p.lastStatementMillis());
      g.writeEndObject();
    }

    g.writeEndObject();
  }

  private static void writeShape(ShapeStats s, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("digest", s.digest());
    g.writeStringField("digestText", s.digestText());
    writeOptional(g, "sample", s.sample());
    g.writeStringField("kind", s.kind().name());
    writeStrings(g, "tablesRead", s.tablesRead());
    writeStrings(g, "tablesWritten", s.tablesWritten());
    writeOptional(g, "probe", s.probe() == null ? null : s.probe().name());
    if (s.lockingRead()) {
      g.writeBooleanField("lockingRead", true);
    }
    g.writeNumberField("minSqlLength", s.minSqlLength());
    g.writeNumberField("maxSqlLength", s.maxSqlLength());
    g.writeObjectFieldStart("counts");
    for (Via via : Via.values()) {
      if (s.count(via) != 0) {
        g.writeNumberField(via.jsonName(), s.count(via));
      }
    }
    g.writeEndObject();
    if (!s.clients().isEmpty()) {
      g.writeObjectFieldStart("clients");
      for (Map.Entry<String, long[]> e : s.clients().entrySet()) {
        g.writeObjectFieldStart(e.getKey());
        for (Via via : Via.values()) {
          if (e.getValue()[via.ordinal()] != 0) {
            g.writeNumberField(via.jsonName(), e.getValue()[via.ordinal()]);
          }
        }
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    if (s.latency() != null) {
      g.writeFieldName("latencyNanos");
      writeHistogram(s.latency(), g);
    }
    if (s.rowsCounted() != 0) {
      g.writeObjectFieldStart("rows");
      g.writeNumberField("executions", s.rowsCounted());
      g.writeNumberField("rows", s.rows());
      g.writeEndObject();
    }
    if (!s.patterns().isEmpty()) {
      g.writeArrayFieldStart("patterns");
      for (PatternStats p : s.patterns()) {
        g.writeStartObject();
        g.writeStringField("kind", p.kind().jsonName());
        g.writeStringField("partner", p.partner());
        g.writeNumberField("transactions", p.transactions());
        g.writeNumberField("executions", p.executions());
        g.writeNumberField("rows", p.rows());
        g.writeNumberField("timed", p.timed());
        g.writeNumberField("nanos", p.nanos());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (!s.errors().isEmpty()) {
      g.writeArrayFieldStart("errors");
      for (ServerError e : s.errors().values()) {
        g.writeStartObject();
        g.writeNumberField("code", e.code());
        writeOptional(g, "sqlState", e.sqlState());
        g.writeNumberField("count", e.count());
        g.writeNumberField("timed", e.timed());
        g.writeNumberField("nanos", e.nanos());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  /** The optional {@code borrows} object: pool borrows and statements outside transactions. */
  private static void writeBorrows(TrafficProfile p, JsonGenerator g) throws IOException {
    if (p.poolBorrows() == 0 && p.outsideTransactionRuns() == 0) {
      return;
    }
    g.writeObjectFieldStart("borrows");
    g.writeNumberField("returned", p.poolBorrows());
    g.writeNumberField("outsideTransaction", p.borrowsOutsideTransaction());
    g.writeNumberField("outsideTransactionRuns", p.outsideTransactionRuns());
    g.writeEndObject();
  }

  private static void writeHistogram(Histogram h, final JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeNumberField("precisionBits", h.precisionBits());
    g.writeNumberField("count", h.count());
    g.writeNumberField("sum", h.sum());
    g.writeNumberField("min", h.min());
    g.writeNumberField("max", h.max());
    g.writeArrayFieldStart("buckets");
    final IOException[] failure = new IOException[1];
    h.forEachBucket(
        new Histogram.BucketVisitor() {
          @Override
          public void visit(long lowerBound, long upperBound, long count) {
            if (failure[0] != null) {
              return;
            }
            try {
              g.writeStartArray();
              g.writeNumber(lowerBound);
              g.writeNumber(count);
              g.writeEndArray();
            } catch (IOException e) {
              failure[0] = e;
            }
          }
        });
    if (failure[0] != null) {
      throw failure[0];
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void writeOptional(JsonGenerator g, String name, String value)
      throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  private static void writeStrings(JsonGenerator g, String name, List<String> values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }
}
