package io.wireadvisor.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProfileRecorder;
import io.wireadvisor.profile.RecorderSettings;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.testkit.PrometheusText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProfileCollectorTest {
  @Test
  void countersAndHistogramsFollowTheProfile() throws Exception {
    ProfileRecorder r = new ProfileRecorder(RecorderSettings.defaults());
    r.command(CommandType.STMT_EXECUTE, 5_000); // 5 µs
    r.command(CommandType.STMT_EXECUTE, 300_000); // 300 µs
    r.command(CommandType.STMT_EXECUTE, 20_000_000_000L); // 20 s
    r.command(CommandType.QUERY, 1_000_000);
    ProfileRecorder.ShapeHandle select = r.shape("SELECT a FROM t WHERE id = 1");
    select.record(Via.EXECUTES);
    select.record(Via.EXECUTES);
    select.record(Via.PREPARES);
    r.shape("SET autocommit=1").record(Via.TEXT_EXECUTES);
    r.probe(ProbeKind.values()[0], "hikari.reset:setAutoCommit");
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new ProfileCollector("agent", "host:1", r::snapshot, () -> 2));

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new PrometheusTextFormatWriter(false).write(out, registry.scrape());
    String body = new String(out.toByteArray(), StandardCharsets.UTF_8);
    PrometheusText m = PrometheusText.parse(body);

    String[] exec = {"collector", "agent", "instance", "host:1", "type", "stmt_execute"};
    assertThat(m.value("wireadvisor_commands_total", exec)).isEqualTo(3);
    assertThat(m.value("wireadvisor_command_latency_seconds_count", exec)).isEqualTo(3);
    assertThat(m.value("wireadvisor_command_latency_seconds_bucket", with(exec, "le", "1.0E-5")))
        .isEqualTo(1);
    assertThat(m.value("wireadvisor_command_latency_seconds_bucket", with(exec, "le", "5.0E-4")))
        .isEqualTo(2);
    assertThat(m.value("wireadvisor_command_latency_seconds_bucket", with(exec, "le", "10.0")))
        .isEqualTo(2);
    assertThat(m.value("wireadvisor_command_latency_seconds_bucket", with(exec, "le", "+Inf")))
        .isEqualTo(3);
    assertThat(m.value("wireadvisor_command_latency_seconds_sum", exec))
        .isBetween(20.0003, 20.0004);
    assertThat(m.value("wireadvisor_statements_total", "via", "executes")).isEqualTo(2);
    assertThat(m.value("wireadvisor_statements_total", "via", "text_executes")).isEqualTo(1);
    assertThat(m.value("wireadvisor_business_statements_total")).isEqualTo(2);
    assertThat(m.value("wireadvisor_probes_total", "cause", "hikari.reset:setAutoCommit"))
        .isEqualTo(1);
    assertThat(m.value("wireadvisor_connections")).isEqualTo(2);
    assertThat(m.value("wireadvisor_shapes")).isEqualTo(2);
    // One HELP and one TYPE per family (promtool rejects repeats).
    assertThat(body.split("# HELP wireadvisor_commands_total ", -1)).hasSize(2);
    assertThat(body.split("# TYPE wireadvisor_command_latency_seconds ", -1)).hasSize(2);
  }

  private static String[] with(String[] base, String... more) {
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }
}
