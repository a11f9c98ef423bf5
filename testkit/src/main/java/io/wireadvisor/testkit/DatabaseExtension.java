package io.wireadvisor.testkit;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves {@link DatabaseServer} parameters to {@link ServerLocator#shared()} and evaluates
 * {@link TiDBOnly}. The server lives once per JVM, not per class: starting MariaDB takes seconds,
 * and the ServerLocator's shutdown hook stops it.
 */
public final class DatabaseExtension implements ParameterResolver, ExecutionCondition {

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == DatabaseServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return ServerLocator.shared();
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    boolean tidbOnly =
        context.getElement().map(e -> AnnotationSupport.isAnnotated(e, TiDBOnly.class)).orElse(false);
    if (!tidbOnly) {
      return ConditionEvaluationResult.enabled("not @TiDBOnly");
    }
    DatabaseServer server = ServerLocator.shared();
    if (server.isTiDB()) {
      return ConditionEvaluationResult.enabled("server is TiDB " + server.version());
    }
    return ConditionEvaluationResult.disabled(
        "needs TiDB; server is " + server.kind() + " " + server.version() + " from " + server.source());
  }
}
