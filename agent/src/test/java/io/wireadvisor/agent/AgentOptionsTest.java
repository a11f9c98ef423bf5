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
    assertThat(o.warnings().get(5)).contains("option 6 ").contains("not key=value");
    assertThat(o.profilePath()).as("good options still apply").isEqualTo("/p");
  }

  @Test
  void anUnknownOptionIsNamedWithoutItsValue() {
    // A mistyped key (passwrd=, jdbcPasword=) or a bare word may well be a secret: never echoed.
    AgentOptions o = AgentOptions.parse("jdbcPasword=hunter2-secret,hunter3-secret,profile=/p");
    assertThat(o.warnings()).hasSize(2);
    assertThat(o.warnings().get(0)).contains("jdbcPasword").contains("unknown option");
    assertThat(o.warnings().get(1)).contains("option 2 ").contains("not key=value");
    for (String w : o.warnings()) {
      assertThat(w).doesNotContain("hunter");
    }
    assertThat(o.profilePath()).isEqualTo("/p");
  }

  @Test
  void usageNamesEveryOption() {
    String usage = AgentOptions.usage();
    for (String[] h : AgentOptions.HELP) {
      assertThat(usage).contains(h[0]);
    }
    assertThat(usage).contains("attach <pid>");
  }

  @Test
  void everyOptionIsAlsoASystemPropertyAndAnEnvironmentVariableArgumentsFirst() {
    java.util.Properties sys = new java.util.Properties();
    sys.setProperty("wireadvisor.profile", "/from/sysprop.json");
    sys.setProperty("wireadvisor.interval", "5s");
    sys.setProperty("other.property", "ignored");
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put("WIRE_ADVISOR_PROFILE", "/from/env.json");
    env.put("WIRE_ADVISOR_SAMPLE_SQL", "true");
    env.put("WIRE_ADVISOR_MAX_SHAPES", "700");
    env.put("WIRE_ADVISOR_INTERVAL", "9s");
    env.put("WIRE_ADVISOR_JDBC_URL", "jdbc:mysql://not-an-agent-option/");
    AgentOptions o = AgentOptions.resolve("interval=1s", sys, env);
    assertThat(o.warnings()).isEmpty();
    assertThat(o.profilePath()).as("system property over environment").isEqualTo("/from/sysprop.json");
    assertThat(o.intervalMillis()).as("argument over both").isEqualTo(1000);
    assertThat(o.sampleSql()).as("environment alone").isTrue();
    assertThat(o.maxShapes()).isEqualTo(700);
    String line = o.describe("0.1.0", -1);
    assertThat(line).contains("profile=/from/sysprop.json", "interval:-javaagent",
        "profile:-Dwireadvisor.profile", "sampleSql:WIRE_ADVISOR_SAMPLE_SQL");
  }

  @Test
  void badValuesAndUnknownPropertiesWarnNamingWhereTheyCameFrom() {
    java.util.Properties sys = new java.util.Properties();
    sys.setProperty("wireadvisor.profil", "/typo.json");
    // The test kit's and the samples' own properties are not agent options and draw no warning.
    sys.setProperty("wireadvisor.jdbc.url", "jdbc:mysql://127.0.0.1:4000/");
    sys.setProperty("wireadvisor.tidb.status.url", "http://127.0.0.1:10080");
    sys.setProperty("wireadvisor.docker.timeoutSeconds", "5");
    sys.setProperty("wireadvisor.agent.jar", "/x.jar");
    java.util.Map<String, String> env = java.util.Collections.singletonMap("WIRE_ADVISOR_MAX_SHAPES", "lots");
    AgentOptions o = AgentOptions.resolve(null, sys, env);
    assertThat(o.warnings()).hasSize(2);
    assertThat(o.warnings()).anyMatch(w -> w.contains("-Dwireadvisor.profil") && w.contains("not an option"));
    assertThat(o.warnings()).anyMatch(w -> w.startsWith("WIRE_ADVISOR_MAX_SHAPES=lots"));
    assertThat(o.maxShapes()).isEqualTo(5000);
  }

  @Test
  void noAgentVariableCollidesWithTheTestHarnessOrTheCli() {
    java.util.Set<String> others = new java.util.HashSet<>(java.util.Arrays.asList("WIRE_ADVISOR_JDBC_URL",
        "WIRE_ADVISOR_JDBC_USER", "WIRE_ADVISOR_JDBC_PASSWORD", "WIRE_ADVISOR_TIDB_STATUS_URL",
        "WIRE_ADVISOR_PASSWORD", "WIRE_ADVISOR_ADMIN_TOKEN", "WIRE_ADVISOR_CI_TIDB"));
    for (String key : AgentOptions.KEYS) {
      assertThat(others).as(key).doesNotContain(AgentOptions.envName(key));
      assertThat(AgentOptions.envName(key)).matches("WIRE_ADVISOR_[A-Z_]+");
    }
    assertThat(AgentOptions.envName("sampleSql")).isEqualTo("WIRE_ADVISOR_SAMPLE_SQL");
  }

  @Test
  void attachFailuresSayWhatToDo() {
    assertThat(AgentMain.attachFailure("999999", new IllegalStateException("x")))
        .isEqualTo("could not attach to 999999: no process with that id is running");
    assertThat(AgentMain.attachFailure("abc", new IllegalStateException("x"))).contains("not a process id");
    String self = String.valueOf(ProcessHandle.current().pid());
    assertThat(AgentMain.attachFailure(self, new IllegalStateException(
        "No compatible attachment provider is available: net.bytebuddy.agent.ByteBuddyAgent$AttachmentProvider$Compound@50040f0c")))
        .doesNotContain("@50040f0c").contains("no attach mechanism");
  }
}
