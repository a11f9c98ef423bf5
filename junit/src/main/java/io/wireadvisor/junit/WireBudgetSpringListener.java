package io.wireadvisor.junit;

import java.lang.reflect.Method;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * {@link WireBudget}'s window in Spring's test framework (JUnit 5 {@code SpringExtension}, so
 * {@code @SpringBootTest}, {@code @DataJpaTest}, {@code @JdbcTest}...): registered in
 * {@code META-INF/spring.factories} with Spring's default listeners and ordered just before
 * {@code TransactionalTestExecutionListener} (order 4000). Spring calls listeners' before-method
 * hooks in order and their after-method hooks in reverse, so the window opens before the test
 * transaction begins and is judged after it is rolled back or committed (and the connection is
 * back in the pool): the transaction's {@code SET autocommit}, {@code ROLLBACK} and the pool's
 * reset count, whether {@code @WireBudget} is declared before or after the Spring annotation.
 *
 * <p>A class that replaces Spring's default listeners ({@code @TestExecutionListeners} without
 * {@code mergeMode = MERGE_WITH_DEFAULTS}) must name this one itself; without it the window falls
 * back to {@link WireBudgetExtension}'s before-each/after-each, which depend on the order.
 */
public final class WireBudgetSpringListener implements TestExecutionListener, Ordered {
  /** TransactionalTestExecutionListener.ORDER - 1: before it opens the transaction. */
  static final int ORDER = 3999;

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public void beforeTestMethod(TestContext testContext) {
    Method m = testContext.getTestMethod();
    WireBudgetExtension.SPRING_JUDGED.remove();
    if (WireBudgetExtension.budget(m, testContext.getTestClass()) == null || !AgentBridge.present()) {
      return; // no budget, or no agent: the extension says so in its before-each
    }
    AgentBridge.reset();
    WireBudgetExtension.SPRING_WINDOW.set(m);
  }

  @Override
  public void afterTestMethod(TestContext testContext) {
    Method m = testContext.getTestMethod();
    if (!m.equals(WireBudgetExtension.SPRING_WINDOW.get())) {
      return;
    }
    WireBudgetExtension.SPRING_WINDOW.remove();
    WireBudgetExtension.SPRING_JUDGED.set(m);
    WireBudgetExtension.judge(m.getName() + "()",
        WireBudgetExtension.budget(m, testContext.getTestClass()));
  }
}
