package io.wireadvisor.samples.bank;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The seven scenarios as data ({@code bank/scenarios.json}): each names the driver properties, the
 * TiDB globals and whether the reference tables are cached, complete rather than as a difference,
 * so any one of them can run alone.
 */
public record Scenarios(Study study, List<Scenario> scenarios) {
  public static final String RESOURCE = "bank/scenarios.json";

  /** The published study and its headline ratios. */
  public record Study(String title, String url, List<Headline> headlines) {}

  /** A published ratio: scenario's QPS over the baseline's, minus 1. */
  public record Headline(String name, int scenario, int baseline, double publishedChange) {}

  /** What the study measured for a scenario. */
  public record Published(double qps, double avgQueryMicros) {}

  /** One scenario. */
  public record Scenario(
      int id,
      String name,
      String change,
      String jdbcProperties,
      Map<String, String> tidbGlobals,
      boolean cacheReferenceTables,
      Published published) {
    public Scenario {
      if (jdbcProperties == null || name == null || published == null) {
        throw new IllegalArgumentException("scenario " + id + ": name, jdbcProperties and published are required");
      }
      tidbGlobals = tidbGlobals == null ? Map.of() : new LinkedHashMap<>(tidbGlobals);
    }
  }

  public Scenarios {
    scenarios = List.copyOf(scenarios);
  }

  public static Scenarios load() {
    try (InputStream in = Scenarios.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " missing from the classpath");
      }
      return parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  static Scenarios parse(InputStream in) throws IOException {
    ObjectMapper m = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    return m.readValue(in, Scenarios.class);
  }

  /** The scenario with this id. */
  public Scenario byId(int id) {
    for (Scenario s : scenarios) {
      if (s.id() == id) {
        return s;
      }
    }
    throw new IllegalArgumentException("no scenario " + id + "; there are 1.." + scenarios.size());
  }
}
