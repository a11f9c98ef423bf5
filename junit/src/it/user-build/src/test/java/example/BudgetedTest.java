package example;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.wireadvisor.junit.WireBudget;
import io.wireadvisor.junit.WireBudgets;
import org.junit.jupiter.api.Test;

/** Runs only when both agents are in the JVM: @WireBudget fails without its agent. */
@WireBudget(maxRoundTripsPerStatement = 1.2)
class BudgetedTest {
  @Test
  void bothAgentsAreInTheTestJvm() throws Exception {
    ClassLoader system = ClassLoader.getSystemClassLoader();
    assertNotNull(Class.forName("io.wireadvisor.agent.AgentApi", false, system), "wire-advisor agent");
    assertNotNull(Class.forName("org.jacoco.agent.rt.RT", false, system), "JaCoCo's agent");
    WireBudgets.reset();
    System.out.println("user-build: wire-advisor agent and JaCoCo agent both in the test JVM; profile "
        + WireBudgets.profile().totalCommands() + " commands");
  }
}
