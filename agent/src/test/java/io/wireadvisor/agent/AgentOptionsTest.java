package io.wireadvisor.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AgentOptionsTest {
  @Test
  void emptyOrNullGivesDefaultsAndNoWarnings() {
    for (String s : new String[] {null, "", "  "}) {
      AgentOptions o = AgentOptions.parse(s);
      assertThat(o.warnings()).isEmpty();
      assertThat(o.profilePath()).isNull();
      assertThat(o.intervalMillis()).isEqualTo(30_000);
      assertThat(o.prometheusPort()).isEqualTo(-1);
      assertThat(o.quiet()).isFalse();
      assertThat(o.sampleSql()).isFalse();
      assertThat(o.maxShapes()).isEqualTo(5000);
    }
  }

  @Test
  void theDocumentedExampleParses() {
    AgentOptions o =
        AgentOptions.parse(
            "profile=/tmp/p.json,interval=30s,report=/tmp/r.txt,prometheus=127.0.0.1:9464,"
                + "sampleSql=false,maxShapes=5000,quiet=true");
    assertThat(o.warnings()).isEmpty();
    assertThat(o.profilePath()).isEqualTo("/tmp/p.json");
    assertThat(o.reportPath()).isEqualTo("/tmp/r.txt");
    assertThat(o.prometheusHost()).isEqualTo("127.0.0.1");
    assertThat(o.prometheusPort()).isEqualTo(9464);
    assertThat(o.quiet()).isTrue();
  }

  @Test
  void prometheusWithoutHostBindsLoopback() {
    AgentOptions o = AgentOptions.parse("prometheus=9464");
    assertThat(o.prometheusHost()).isEqualTo("127.0.0.1");
    assertThat(AgentOptions.parse("prometheus=:9000").prometheusHost()).isEqualTo("127.0.0.1");
    assertThat(AgentOptions.parse("prometheus=0.0.0.0:9000").prometheusHost()).isEqualTo("0.0.0.0");
  }

  @Test
  void durationsInEveryUnit() {
    assertThat(AgentOptions.parseDuration("500ms")).isEqualTo(500);
    assertThat(AgentOptions.parseDuration("30s")).isEqualTo(30_000);
    assertThat(AgentOptions.parseDuration("5m")).isEqualTo(300_000);
    assertThat(AgentOptions.parseDuration("1h")).isEqualTo(3_600_000);
    assertThat(AgentOptions.parseDuration("7")).isEqualTo(7_000);
    assertThat(AgentOptions.parseDuration("0")).isZero();
  }

  @Test
  void unknownKeyAndBadValuesWarnOnceEachAndKeepDefaults() {
    AgentOptions o =
        AgentOptions.parse("bogus=1,interval=soon,maxShapes=1,quiet=maybe,prometheus=host:99999,novalue,profile=/p");
    assertThat(o.warnings()).hasSize(6);
    assertThat(o.warnings().get(0)).contains("bogus").contains("unknown option");
    assertThat(o.warnings().get(1)).contains("interval=soon").contains("default");
    assertThat(o.intervalMillis()).isEqualTo(30_000);
    assertThat(o.maxShapes()).isEqualTo(5000);
    assertThat(o.quiet()).isFalse();
    assertThat(o.prometheusPort()).isEqualTo(-1);
    assertThat(o.warnings().get(5)).contains("novalue");
    assertThat(o.profilePath()).as("good options still apply").isEqualTo("/p");
  }

  @Test
  void usageNamesEveryOption() {
    String usage = AgentOptions.usage();
    for (String[] h : AgentOptions.HELP) {
      assertThat(usage).contains(h[0]);
    }
    assertThat(usage).contains("attach <pid>");
  }
}
