package io.wireadvisor.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reader of the Prometheus text exposition format (version 0.0.4), enough for tests to look
 * samples up by name and labels. Not a validator: {@code promtool check metrics} is.
 */
public final class PrometheusText {
  /** One sample line: name, labels, value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? ([^ ]+)( [0-9]+)?$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = samples;
  }

  /** Parses a body; throws on a line that is neither a comment nor a sample. */
  public static PrometheusText parse(String body) {
    List<Sample> out = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      Map<String, String> labels = new TreeMap<>();
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
      }
      out.add(new Sample(m.group(1), Collections.unmodifiableMap(labels), parseValue(m.group(4))));
    }
    return new PrometheusText(Collections.unmodifiableList(out));
  }

  private static double parseValue(String v) {
    switch (v) {
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        return Double.parseDouble(v);
    }
  }

  public List<Sample> samples() {
    return samples;
  }

  /** Samples of {@code name} whose labels include every {@code key, value} pair given. */
  public List<Sample> find(String name, String... labelPairs) {
    Predicate<Sample> match =
        s -> {
          if (!s.name().equals(name)) {
            return false;
          }
          for (int i = 0; i < labelPairs.length; i += 2) {
            if (!labelPairs[i + 1].equals(s.labels().get(labelPairs[i]))) {
              return false;
            }
          }
          return true;
        };
    return samples.stream().filter(match).toList();
  }

  /** The sum of the values of {@link #find}'s samples; 0 when there are none. */
  public double sum(String name, String... labelPairs) {
    return find(name, labelPairs).stream().mapToDouble(Sample::value).sum();
  }

  /** The one sample's value; throws unless exactly one sample matches. */
  public double value(String name, String... labelPairs) {
    List<Sample> found = find(name, labelPairs);
    if (found.size() != 1) {
      throw new AssertionError(
          found.size() + " samples of " + name + " " + List.of(labelPairs) + " in " + samples);
    }
    return found.get(0).value();
  }
}
