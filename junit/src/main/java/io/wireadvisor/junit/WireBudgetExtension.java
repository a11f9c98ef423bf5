package io.wireadvisor.junit;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.advisor.Withheld;
import io.wireadvisor.profile.ProfileFormatException;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Enforces {@link WireBudget}: a fresh agent window before each test, and after it the test's
 * traffic judged by the advisor against the budget. A broken budget fails the test with what was
 * measured and the advisor's recommendation (title, evidence, the exact change).
 */
public final class WireBudgetExtension implements BeforeEachCallback, AfterEachCallback {
  static final String NO_AGENT =
      "@WireBudget needs the wire-advisor agent in the test JVM: add"
          + " -javaagent:/path/to/wire-advisor-agent.jar to Surefire's or Failsafe's <argLine>"
          + " (docs/wire-budgets.md)";

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!AgentBridge.present()) {
      throw new IllegalStateException(NO_AGENT);
    }
    // Tests in one JVM run one after another by default; a window per test needs that.
    AgentBridge.reset();
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    WireBudget budget = budget(context);
    if (budget == null) {
      return;
    }
    TrafficProfile profile;
    try {
      profile = ProfileJson.fromJson(AgentBridge.profileJson());
    } catch (ProfileFormatException e) {
      throw new IllegalStateException("the agent's profile did not read: " + e.getMessage(), e);
    }
    List<String> broken = WireBudgets.check(profile, budget);
    if (!broken.isEmpty()) {
      throw new AssertionError(message(context, profile, broken));
    }
  }

  private static WireBudget budget(ExtensionContext context) {
    WireBudget onMethod = find(context.getTestMethod().orElse(null));
    if (onMethod != null) {
      return onMethod;
    }
    Class<?> c = context.getTestClass().orElse(null);
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

  private static String message(ExtensionContext context, TrafficProfile profile, List<String> broken) {
    StringBuilder b = new StringBuilder("wire budget exceeded in ")
        .append(context.getDisplayName()).append(":\n");
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
