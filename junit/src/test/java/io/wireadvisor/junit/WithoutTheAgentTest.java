package io.wireadvisor.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** Surefire runs without the agent: a budget then fails loudly, saying how to add the agent. */
class WithoutTheAgentTest {
  @WireBudget(maxRoundTripsPerStatement = 1.0)
  static class Budgeted {
    @Test
    void nothing() {}
  }

  @Test
  void aBudgetWithoutTheAgentFailsAndSaysHowToAddIt() {
    assertThat(AgentBridge.present()).as("this JVM has no agent").isFalse();
    List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Budgeted.class))
        .execute().testEvents().failed().list();
    assertThat(failed).hasSize(1);
    Throwable t = failed.get(0).getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable).orElseThrow();
    assertThat(t.getMessage()).contains("needs the wire-advisor agent", "-javaagent:", "<argLine>");
  }
}
