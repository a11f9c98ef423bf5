package io.wireadvisor.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureFormat;
import io.wireadvisor.capture.CaptureHeader;
import io.wireadvisor.capture.CaptureWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** Which driver a capture came from, and what replay says of it (issue 26: driverVersion). */
class ReplayDriverTest {
  private static CaptureFormat.Capture capture(String... namesAndVersions) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CaptureWriter w = CaptureWriter.open(out, CaptureHeader.builder("proxy", "t").server("8.0.11-TiDB").build(),
        1 << 20, 60)) {
      w.write(CaptureEvent.builder(1, 0, CaptureEvent.Kind.CONNECT).sql("bank").build());
      for (int i = 0; i < namesAndVersions.length; i += 2) {
        w.driver(namesAndVersions[i], namesAndVersions[i + 1]);
      }
    }
    return CaptureFormat.read(new ByteArrayInputStream(out.toByteArray()), "mem", CaptureFormat.Limits.defaults());
  }

  @Test
  void theProxysConnectorJClientIsTheCapturesDriver() throws Exception {
    ReplayDriver bundled = ReplayDriver.bundled();
    CaptureFormat.Capture same = capture("MySQL Connector/J", bundled.version());
    assertThat(ReplayDriver.capturedVersion(same)).isEqualTo(bundled.version());
    assertThat(bundled.describe(same)).isEqualTo(
        "driver: Connector/J " + bundled.version() + " (bundled), the version the capture names");
  }

  @Test
  void anotherConnectorJVersionGetsTheJarToGiveDriver() throws Exception {
    ReplayDriver bundled = ReplayDriver.bundled();
    assertThat(bundled.describe(capture("MySQL Connector/J", "8.0.33"))).isEqualTo(
        "driver: Connector/J " + bundled.version() + " (bundled); the capture names 8.0.33: replay runs another"
            + " version than the application (give its jar with --driver), e.g. --driver"
            + " ~/.m2/repository/com/mysql/mysql-connector-j/8.0.33/mysql-connector-j-8.0.33.jar");
    assertThat(bundled.describe(capture("MySQL Connector/J", "8.0.30")))
        .as("before 8.0.31 the artifact was mysql:mysql-connector-java")
        .endsWith("--driver ~/.m2/repository/mysql/mysql-connector-java/8.0.30/mysql-connector-java-8.0.30.jar");
  }

  @Test
  void aCaptureFromAnotherClientSaysReplayCountsConnectorJsWire() throws Exception {
    ReplayDriver bundled = ReplayDriver.bundled();
    CaptureFormat.Capture go = capture("libmariadb", "3.3.8", "MySQL Connector/J", "8.0.33");
    assertThat(ReplayDriver.capturedVersion(go)).as("not a Connector/J version").isNull();
    assertThat(bundled.describe(go)).isEqualTo("driver: Connector/J " + bundled.version() + " (bundled); the"
        + " capture came from libmariadb 3.3.8: replay drives Connector/J, so its wire counts are Connector/J's,"
        + " not that client's (the capture's connections named 2 drivers; the first is shown)");
  }

  @Test
  void withoutADriverInTheCaptureTheConnectQueryCommentNamesIt() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CaptureWriter w = CaptureWriter.open(out, CaptureHeader.builder("proxy", "t").build(),
        1 << 20, 60)) {
      w.write(CaptureEvent.builder(1, 0, CaptureEvent.Kind.QUERY)
          .sql("/* mysql-connector-j-8.2.0 (Revision: x) */SELECT @@session.auto_increment_increment").build());
    }
    CaptureFormat.Capture c =
        CaptureFormat.read(new ByteArrayInputStream(out.toByteArray()), "mem", CaptureFormat.Limits.defaults());
    assertThat(c.header().driverVersion()).isNull();
    assertThat(ReplayDriver.capturedVersion(c)).isEqualTo("8.2.0");
  }
}
