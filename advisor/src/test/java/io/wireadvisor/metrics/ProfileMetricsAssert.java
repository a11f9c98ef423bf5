package io.wireadvisor.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.metrics.ProfileCollector;
import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ConnectionMetric;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import io.wireadvisor.testkit.PrometheusText;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Asserts that every counter of a {@code /metrics} body equals the corresponding count of a
 * profile, computed here from the profile's own fields (not by the code under test).
 */
public final class ProfileMetricsAssert {
  private static final Set<StatementKind> BUSINESS =
      EnumSet.of(
          StatementKind.SELECT,
          StatementKind.INSERT,
          StatementKind.UPDATE,
          StatementKind.DELETE,
          StatementKind.REPLACE,
          StatementKind.CALL);

  private ProfileMetricsAssert() {}

  public static void assertEveryCounterEquals(
      TrafficProfile p, PrometheusText m, String collector, String instance) {
    String[] who = {"collector", collector, "instance", instance};
    for (CommandType type : CommandType.values()) {
      String t = type.wireName().substring(4).toLowerCase(Locale.ROOT);
      CommandStats c = p.commands().get(type);
      long count = c == null ? 0 : c.count();
      if (m.find("wireadvisor_commands_total", with(who, "type", t)).isEmpty()) {
        // Only the common types have series before they are first counted.
        assertThat(count).as("%s has no series but was counted", t).isZero();
        assertThat(ProfileCollector.ALWAYS).doesNotContain(type);
        continue;
      }
      assertThat(m.value("wireadvisor_commands_total", with(who, "type", t)))
          .as("commands %s", t)
          .isEqualTo(count);
      long timed = c == null || c.latency() == null ? 0 : c.latency().count();
      assertThat(m.value("wireadvisor_command_latency_seconds_count", with(who, "type", t)))
          .as("latency count %s", t)
          .isEqualTo(timed);
      assertThat(
              m.value(
                  "wireadvisor_command_latency_seconds_bucket", with(who, "type", t, "le", "+Inf")))
          .isEqualTo(timed);
      double sum = c == null || c.latency() == null ? 0 : c.latency().sum() / 1e9;
      assertThat(m.value("wireadvisor_command_latency_seconds_sum", with(who, "type", t)))
          .isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-6));
    }
    long business = 0;
    long errors = 0;
    for (Via via : Via.values()) {
      long n = 0;
      for (ShapeStats s : p.shapes().values()) {
        n += s.count(via);
      }
      String label = via.jsonName().replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT);
      assertThat(m.value("wireadvisor_statements_total", with(who, "via", label)))
          .as("statements via %s", label)
          .isEqualTo(n);
    }
    long overflow = 0;
    for (ShapeStats s : p.shapes().values()) {
      if (s.probe() == null && !s.isOverflow() && BUSINESS.contains(s.kind())) {
        business += s.count(Via.TEXT_EXECUTES) + s.count(Via.EXECUTES);
      }
      if (s.isOverflow()) {
        overflow += s.wireCommands();
      }
      errors += s.count(Via.ERRORS);
    }
    assertThat(m.value("wireadvisor_business_statements_total", who)).isEqualTo(business);
    assertThat(m.value("wireadvisor_statement_errors_total", who)).isEqualTo(errors);
    assertThat(m.value("wireadvisor_overflow_statements_total", who)).isEqualTo(overflow);
    assertThat(m.value("wireadvisor_shapes", who)).isEqualTo(p.shapes().size());
    long probes = 0;
    for (Map.Entry<ProbeKind, ProbeStats> e : p.probes().entrySet()) {
      String kind = e.getKey().name().toLowerCase(Locale.ROOT);
      for (Map.Entry<String, Long> c : e.getValue().causes().entrySet()) {
        assertThat(
                m.value("wireadvisor_probes_total", with(who, "kind", kind, "cause", c.getKey())))
            .as("probes %s %s", kind, c.getKey())
            .isEqualTo((double) c.getValue());
      }
      assertThat(m.sum("wireadvisor_probes_total", with(who, "kind", kind)))
          .isEqualTo(e.getValue().count());
      probes += e.getValue().count();
    }
    assertThat(m.sum("wireadvisor_probes_total", who)).isEqualTo(probes);
    assertThat(m.value("wireadvisor_connections_opened_total", who))
        .isEqualTo(p.connections().connections());
    var perConnection = p.connections().distribution(ConnectionMetric.DISTINCT_PREPARED_SHAPES);
    assertThat(m.value("wireadvisor_connection_distinct_prepared_shapes_count", who))
        .isEqualTo(perConnection == null ? 0 : perConnection.count());
    assertThat(m.value("wireadvisor_connection_distinct_prepared_shapes_sum", who))
        .isEqualTo(perConnection == null ? 0 : perConnection.sum());
  }

  static String[] with(String[] base, String... more) {
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }
}
