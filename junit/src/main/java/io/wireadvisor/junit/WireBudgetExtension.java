package io.wireadvisor.junit;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.Withheld;
import io.wireadvisor.profile.ProfileFormatException;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Enforces {@link WireBudget}: a fresh agent window before each test, and after it the test's
 * traffic judged by the advisor against the budget. A broken budget fails the test with what was
 * measured and the advisor's recommendation (title, evidence, the exact change).
 *
 * <p>JUnit runs extensions' before-each callbacks in the order their annotations are declared and
 * the after-each callbacks in reverse, so on its own this extension's window would depend on where
 * {@code @WireBudget} stands beside {@code @SpringBootTest} / {@code @DataJpaTest}: after them it
 * would open inside the test transaction Spring begins in its before-each, and judge before Spring
 * rolls it back. Where Spring's test framework runs the test, {@link WireBudgetSpringListener}
 * (registered in {@code META-INF/spring.factories}, ordered before Spring's
 * TransactionalTestExecutionListener) opens the window before the transaction begins and judges
 * after it ends, whatever the order; this extension then leaves the window to it.
 */
public final class WireBudgetExtension implements BeforeEachCallback, AfterEachCallback {
  static final String NO_AGENT =
      "@WireBudget needs the wire-advisor agent in the test JVM: add"
          + " -javaagent:/path/to/wire-advisor-agent.jar to Surefire's or Failsafe's <argLine>"
          + " (docs/wire-budgets.md)";

  /** The test method whose window Spring's listener opened on this thread (and will judge). */
  static final ThreadLocal<Method> SPRING_WINDOW = new ThreadLocal<Method>();
  /** The test method Spring's listener has already judged on this thread. */
  static final ThreadLocal<Method> SPRING_JUDGED = new ThreadLocal<Method>();

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!AgentBridge.present()) {
      throw new IllegalStateException(NO_AGENT);
    }
    SPRING_JUDGED.remove();
    Method m = context.getTestMethod().orElse(null);
    if (m != null && m.equals(SPRING_WINDOW.get())) {
      return; // Spring's listener opened the window before the test transaction began
    }
    // Tests in one JVM run one after another by default; a window per test needs that.
    AgentBridge.reset();
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Method m = context.getTestMethod().orElse(null);
    if (m != null && m.equals(SPRING_WINDOW.get())) {
      return; // Spring's listener judges once the test transaction has ended
    }
    if (m != null && m.equals(SPRING_JUDGED.get())) {
      SPRING_JUDGED.remove();
      return; // judged by Spring's listener already
    }
    WireBudget budget = budget(m, context.getTestClass().orElse(null));
    if (budget == null) {
      return;
    }
    judge(context.getDisplayName(), budget);
  }

  /** Judges the agent's window against {@code budget}; an AssertionError when it is broken. */
  static void judge(String test, WireBudget budget) {
    TrafficProfile profile;
    try {
      profile = ProfileJson.fromJson(AgentBridge.profileJson());
    } catch (ProfileFormatException e) {
      throw new IllegalStateException("the agent's profile did not read: " + e.getMessage(), e);
    }
    List<String> broken = WireBudgets.check(profile, budget);
    if (!broken.isEmpty()) {
      throw new AssertionError(message(test, profile, broken));
    }
  }

  /** The method's budget, else its class's (or an enclosing class's); null when none. */
  static WireBudget budget(Method method, Class<?> testClass) {
    WireBudget onMethod = find(method);
    if (onMethod != null) {
      return onMethod;
    }
    Class<?> c = testClass;
    while (c != null) {
      WireBudget b = c.getAnnotation(WireBudget.class);
      if (b != null) {
        return b;
      }
      c = c.getEnclosingClass();
    }
    return null;
  }

  private static WireBudget find(AnnotatedElement e) {
    return e == null ? null : e.getAnnotation(WireBudget.class);
  }

  private static String message(String test, TrafficProfile profile, List<String> broken) {
    StringBuilder b = new StringBuilder("wire budget exceeded in ")
        .append(test).append(":\n");
    for (String line : broken) {
      b.append("  - ").append(line).append('\n');
    }
    Analysis a = Advisor.analyze(profile, null);
    if (!a.recommendations().isEmpty()) {
      b.append("\nThe advisor on this test's traffic:\n");
      List<Recommendation> shown = new ArrayList<>(a.recommendations());
      for (Recommendation r : shown) {
        b.append("\n[").append(r.severity()).append("] ").append(r.title()).append("  (").append(r.id())
            .append(")\n");
        for (String e : r.evidence()) {
          b.append("    ").append(e).append('\n');
        }
        if (!r.change().jdbcProperties().isEmpty()) {
          b.append("    change: ").append(r.change().urlParameters()).append('\n');
        }
      }
    }
    for (Withheld w : a.withheld()) {
      if (w.because() != null) {
        b.append("\n").append(w.message()).append('\n');
      }
    }
    b.append("\n(the whole report: Reports.text(WireBudgets.analysis()))");
    return b.toString();
  }
}
