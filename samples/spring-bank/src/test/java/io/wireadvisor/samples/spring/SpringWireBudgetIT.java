package io.wireadvisor.samples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * {@code @WireBudget} on a Spring Data JPA test ({@code @DataJpaTest}, its test transaction rolled
 * back after each test) against the testkit's real server, with the agent in this JVM (Failsafe's
 * argLine as docs/wire-budgets.md shows it): declared before or after {@code @DataJpaTest} the
 * budget measures the same window, the test method with the transaction Spring opens and rolls
 * back, and gives the same verdict with the same figures.
 */
@RealDatabase
@EnabledIfSystemProperty(named = "wireadvisor.budgetExecution", matches = "true",
    disabledReason = "runs in the failsafe execution with the agent (pom.xml: wire-budget)")
class SpringWireBudgetIT {
  private static final Pattern MEASURED = Pattern.compile(
      "(\\d+\\.\\d+) wire round trips per business statement \\((\\d+) statements, commands (\\{[^}]*\\})\\)");

  @BeforeAll
  static void server(DatabaseServer server) {
    // HikariCP validates a connection idle for more than this window (500 ms by default) with a
    // COM_PING when it is borrowed: timing, not the order of the annotations, would decide
    // whether a window holds one. Read once when HikariCP's PoolBase loads, after this.
    System.setProperty("com.zaxxer.hikari.aliveBypassWindowMs", "3600000");
    BudgetOrderSamples.url = server.jdbcUrl(server.createDatabase("spring_budget"), null);
    BudgetOrderSamples.user = server.user();
    BudgetOrderSamples.password = server.password();
  }

  private static Events run(Class<?> samples) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(samples)).execute().testEvents();
  }

  private static String failure(Class<?> samples) {
    Events events = run(samples);
    List<Event> failed = events.failed().list();
    assertThat(failed).as("%s must fail its budget", samples.getSimpleName()).hasSize(1);
    Throwable t = failed.get(0).getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable).orElseThrow();
    assertThat(t).as("%s", t).isInstanceOf(AssertionError.class);
    System.out.println(samples.getSimpleName() + ":\n" + t.getMessage());
    return t.getMessage();
  }

  private static Matcher measured(String message) {
    Matcher m = MEASURED.matcher(message);
    assertThat(m.find()).as("the measured round trips in:%n%s", message).isTrue();
    return m;
  }

  @Test
  void theBudgetMeasuresTheTestTransactionWhateverTheAnnotationOrder() {
    Matcher before = measured(failure(BudgetOrderSamples.BudgetBeforeSpring.class));
    Matcher after = measured(failure(BudgetOrderSamples.BudgetAfterSpring.class));
    // The same window in both orders: the same statements and the same commands.
    assertThat(after.group(1)).isEqualTo(before.group(1));
    assertThat(after.group(2)).isEqualTo(before.group(2)).isEqualTo("2");
    assertThat(after.group(3)).isEqualTo(before.group(3));
    // That window holds the test transaction: autocommit switched off when Spring begins it (a
    // probe) and the ROLLBACK it ends with (a COM_QUERY beside the two SELECTs' commands).
    assertThat(before.group(3)).contains("probes=");
    assertThat(Double.parseDouble(before.group(1))).isGreaterThan(2.0);
  }

  @Test
  void aBudgetTheTransactionKeepsPasses() {
    Events events = run(BudgetOrderSamples.GenerousBudgetAfterSpring.class);
    assertThat(events.failed().count())
        .as(events.failed().stream().map(e -> String.valueOf(e.getPayload())).collect(Collectors.joining("\n")))
        .isZero();
    assertThat(events.succeeded().count()).isEqualTo(1);
  }
}
