package io.wireadvisor.samples.bank;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads counters from a TiDB status port's Prometheus text ({@code /metrics}). */
final class TiDBMetrics {
  private final URI uri;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  TiDBMetrics(String statusUrl) {
    this.uri = URI.create(statusUrl.replaceAll("/+$", "") + "/metrics");
  }

  String scrape() throws IOException {
    try {
      HttpResponse<String> r =
          http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("GET " + uri + " returned HTTP " + r.statusCode());
      }
      return r.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted reading " + uri, e);
    }
  }

  /**
   * The sum of every sample of {@code metric} whose labels contain {@code labelFilter} (e.g.
   * {@code type="Select"}; empty for all).
   */
  static double sum(String text, String metric, String labelFilter) {
    Pattern p = Pattern.compile("^" + Pattern.quote(metric) + "(\\{[^}]*\\})?\\s+(\\S+)\\s*$", Pattern.MULTILINE);
    Matcher m = p.matcher(text);
    double total = 0;
    while (m.find()) {
      String labels = m.group(1) == null ? "" : m.group(1);
      if (labelFilter.isEmpty() || labels.contains(labelFilter)) {
        total += Double.parseDouble(m.group(2));
      }
    }
    return total;
  }
}
