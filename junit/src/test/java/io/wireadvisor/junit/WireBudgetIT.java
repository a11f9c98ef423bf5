package io.wireadvisor.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.wireadvisor.testkit.DatabaseServer;
import io.wireadvisor.testkit.RealDatabase;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/**
 * {@link WireBudget} on test classes as users write them, run against the testkit's real server
 * with the agent in this JVM (Failsafe's argLine, as docs/wire-budgets.md shows): each budget
 * fails on the traffic that breaks it, with the advisor's recommendation in the message, and
 * passes on traffic that keeps it.
 */
@RealDatabase
class WireBudgetIT {
  @BeforeAll
  static void server(DatabaseServer server) {
    BudgetSamples.url = server.jdbcUrl(server.createDatabase("budgets"), null);
    BudgetSamples.user = server.user();
    BudgetSamples.password = server.password();
  }

  private static Events run(Class<?> samples) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(samples)).execute().testEvents();
  }

  private static String failure(Class<?> samples) {
    Events events = run(samples);
    List<Event> failed = events.failed().list();
    assertThat(failed).as("%s must fail its budget", samples.getSimpleName()).hasSize(1);
    Throwable t = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
        .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow();
    assertThat(t).isInstanceOf(AssertionError.class);
    return t.getMessage();
  }

  @Test
  void textWithAProbePerStatementBreaksARoundTripBudgetAndSaysWhatToChange() {
    String m = failure(BudgetSamples.TextWithProbes.class);
    assertThat(m).contains("wire round trips per business statement", "budget 1.20")
        .contains("useLocalSessionState=true", "useServerPrepStmts=true");
  }

  @Test
  void leanTrafficKeepsItsBudget() {
    Events events = run(BudgetSamples.Lean.class);
    assertThat(events.failed().count())
        .as(events.failed().stream().map(e -> String.valueOf(e.getPayload())).collect(Collectors.joining("\n")))
        .isZero();
    assertThat(events.succeeded().count()).isEqualTo(1);
  }

  @Test
  void eachBudgetFailsOnTheTrafficThatBreaksIt() {
    assertThat(failure(BudgetSamples.PreparePerExecution.class)).contains("prepared again for each execution")
        .contains("cachePrepStmts=true");
    assertThat(failure(BudgetSamples.LongStatement.class)).contains("a 300-character statement is never cached (prepStmtCacheSqlLimit=256; raise it above 300)");
    assertThat(failure(BudgetSamples.Probes.class)).contains("session-variable probes [ISOLATION_READ")
        .doesNotContain("VARIABLES_READ");
    assertThat(failure(BudgetSamples.AnyAdvice.class)).contains("advice of severity");
  }

  @Test
  void aClassWithoutABudgetIsNotJudged() {
    // Control: the extension only fails what its budget names: a class without @WireBudget runs
    // the very same text-and-probes traffic and passes.
    Events events = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(Unbudgeted.class)).execute().testEvents();
    assertThat(events.succeeded().count()).isEqualTo(1);
    assertThat(events.list()).noneMatch(e -> e.getType() == EventType.FINISHED && e.toString().contains("FAILED"));
  }

  static class Unbudgeted {
    @Test
    void query() throws Exception {
      try (java.sql.Connection c = BudgetSamples.connect("sslMode=DISABLED")) {
        BudgetSamples.work(c, "SELECT ? + 1", true);
      }
    }
  }
}
