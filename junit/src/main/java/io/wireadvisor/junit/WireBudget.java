package io.wireadvisor.junit;

import io.wireadvisor.advisor.Severity;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A wire budget for a test (on the method) or for each test of a class: the database traffic the
 * test sends, as the wire-advisor agent records it, must stay within these limits, or the test
 * fails with the advisor's recommendation and its evidence.
 *
 * <pre>{@code
 * @WireBudget(maxRoundTripsPerStatement = 1.2, maxSessionProbes = 0)
 * class AccountRepositoryTest { ... }
 * }</pre>
 *
 * Needs the agent in the test JVM: Surefire/Failsafe {@code <argLine>-javaagent:...}
 * (docs/wire-budgets.md). A method's annotation replaces its class's.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(WireBudgetExtension.class)
public @interface WireBudget {
  /** No limit. */
  double UNLIMITED = -1;

  /**
   * Wire round trips per business statement (SELECT/INSERT/UPDATE/DELETE/REPLACE/CALL), every
   * command counted: 1.0 is one round trip per statement. {@link #UNLIMITED} by default.
   */
  double maxRoundTripsPerStatement() default UNLIMITED;

  /** Session-variable probes ({@code SELECT @@session.transaction_isolation}, ...); -1: any. */
  long maxSessionProbes() default -1;

  /** Fail when statements are prepared (and closed) again for each execution. */
  boolean noPreparePerExecution() default false;

  /**
   * Fail when a statement is at least {@code prepStmtCacheSqlLimit} long (Connector/J never caches
   * it), as the application's settings say.
   */
  boolean noStatementAboveCacheLimit() default false;

  /**
   * Fail when the advisor has a recommendation of this severity or a higher one; {@code null}
   * is not allowed in annotations, so {@link Severity#LOW} with {@link #failOnAdvice()} false is
   * the default: no advice fails the test.
   */
  Severity failOnSeverity() default Severity.HIGH;

  /** Whether {@link #failOnSeverity()} applies. */
  boolean failOnAdvice() default false;

  /** Fewer business statements than this: the test's traffic is not judged (too little to say). */
  long minStatements() default 1;
}
