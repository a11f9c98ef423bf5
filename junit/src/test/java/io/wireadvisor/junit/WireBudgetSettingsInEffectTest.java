package io.wireadvisor.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.CommandStats;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import io.wireadvisor.sql.StatementKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A budget's failure never suggests a setting the agent recorded as already in effect (issue 24:
 * it advised useLocalSessionState=true (or useConfigs=maxPerformance) under maxPerformance).
 */
class WireBudgetSettingsInEffectTest {
  @WireBudget(maxRoundTripsPerStatement = 1.2, maxSessionProbes = 0)
  void budget() {}

  private final WireBudget budget;

  WireBudgetSettingsInEffectTest() throws Exception {
    budget = getClass().getDeclaredMethod("budget").getAnnotation(WireBudget.class);
  }

  /** 100 transactions of one SELECT each: autocommit off and on, read-only on and off around it. */
  static TrafficProfile transactions(String... properties) {
    Map<String, String> props = new HashMap<>();
    for (int i = 0; i < properties.length; i += 2) {
      props.put(properties[i], properties[i + 1]);
    }
    TrafficProfile p = new TrafficProfile();
    p.addSource(new Source(Source.AGENT, "0.1.0", "test:1", "MySQL Connector/J", "mysql-connector-j-9.5.0",
        null, null, null, props, 0, 10_000));
    ShapeStats select = new ShapeStats("0123456789abcdef0123456789abcdef", "select * from t where id = ?",
        StatementKind.SELECT, Arrays.asList("t"), null, null, 30, 30);
    select.add(Via.PREPARES, 1);
    select.add(Via.EXECUTES, 100);
    p.addShape(select);
    ShapeStats autocommit = new ShapeStats("1123456789abcdef0123456789abcdef", "set autocommit = ?",
        StatementKind.SET, null, null, ProbeKind.AUTOCOMMIT_SET, 16, 16);
    autocommit.add(Via.TEXT_EXECUTES, 200);
    p.addShape(autocommit);
    ShapeStats readOnly = new ShapeStats("2123456789abcdef0123456789abcdef", "set session transaction read only",
        StatementKind.SET, null, null, ProbeKind.READ_ONLY_SET, 33, 33);
    readOnly.add(Via.TEXT_EXECUTES, 200);
    p.addShape(readOnly);
    ProbeStats a = new ProbeStats();
    a.add(200);
    a.addCause("setAutoCommit", 200);
    p.addProbe(ProbeKind.AUTOCOMMIT_SET, a);
    ProbeStats r = new ProbeStats();
    r.add(200);
    r.addCause("setReadOnly", 200);
    p.addProbe(ProbeKind.READ_ONLY_SET, r);
    p.addCommand(CommandType.STMT_PREPARE, new CommandStats(1, null));
    p.addCommand(CommandType.STMT_EXECUTE, new CommandStats(100, null));
    p.addCommand(CommandType.QUERY, new CommandStats(400, null));
    return p;
  }

  @Test
  void underMaxPerformanceItIsNamedAsInEffectAndNeverSuggested() {
    List<String> broken = WireBudgets.check(
        transactions("useConfigs", "maxPerformance", "useServerPrepStmts", "true"), budget);
    System.out.println(String.join("\n", broken));
    assertThat(broken).hasSize(2);
    assertThat(broken).noneMatch(l -> l.contains("useLocalSessionState=true (or"))
        .noneMatch(l -> l.contains("Set useLocalSessionState"))
        .allMatch(l -> l.contains("Already in effect: useConfigs=maxPerformance"))
        .allMatch(l -> l.contains("readOnlyPropagatesToServer=false"))
        .allMatch(l -> l.contains("spring.datasource.hikari.auto-commit=false"));
  }

  @Test
  void withReadOnlyKeptLocallyThatIsNotSuggestedEither() {
    List<String> broken = WireBudgets.check(transactions("useLocalSessionState", "true",
        "readOnlyPropagatesToServer", "false", "useServerPrepStmts", "true"), budget);
    System.out.println(String.join("\n", broken));
    assertThat(broken).hasSize(2).allMatch(l -> l.contains(
        "Already in effect: useLocalSessionState=true, readOnlyPropagatesToServer=false"))
        .noneMatch(l -> l.contains("Set useLocalSessionState"))
        .noneMatch(l -> l.contains("Set readOnlyPropagatesToServer"));
  }

  @Test
  void onDriverDefaultsTheSettingsAreSuggested() {
    // Control: the same traffic on Connector/J's defaults names both settings to change.
    List<String> broken = WireBudgets.check(transactions("useServerPrepStmts", "true"), budget);
    System.out.println(String.join("\n", broken));
    assertThat(broken).hasSize(2).allMatch(l -> l.contains("useLocalSessionState=true (or useConfigs=maxPerformance)"))
        .allMatch(l -> l.contains("readOnlyPropagatesToServer=false so"))
        .noneMatch(l -> l.contains("Already in effect"));
  }
}
