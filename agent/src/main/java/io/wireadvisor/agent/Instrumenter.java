package io.wireadvisor.agent;

import static net.bytebuddy.matcher.ElementMatchers.fieldType;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.wireadvisor.agent.advice.CauseId;
import io.wireadvisor.agent.advice.ClientPreparedExecuteAdvice;
import io.wireadvisor.agent.advice.ConnectedAdvice;
import io.wireadvisor.agent.advice.DriverCauseAdvice;
import io.wireadvisor.agent.advice.ForcedCloseAdvice;
import io.wireadvisor.agent.advice.InterceptorsPreAdvice;
import io.wireadvisor.agent.advice.IsolationSetAdvice;
import io.wireadvisor.agent.advice.PoolCauseAdvice;
import io.wireadvisor.agent.advice.PreparedBatchAdvice;
import io.wireadvisor.agent.advice.QueryInterceptors;
import io.wireadvisor.agent.advice.QuitAdvice;
import io.wireadvisor.agent.advice.ResultsetReadAdvice;
import io.wireadvisor.agent.advice.SendCommandAdvice;
import io.wireadvisor.agent.advice.StatementBatchAdvice;
import io.wireadvisor.agent.internal.Causes;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicBoolean;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the advice into Connector/J (and HikariCP, for probe causes). Types are matched by
 * name only, so nothing of the driver is loaded here; classes already loaded (agent attached at
 * run time) are retransformed.
 *
 * <p>The hooks the counts depend on, {@code NativeProtocol.sendCommand(Message, boolean, int)}
 * and {@code NativeProtocol.quit()}, are checked on the class file before instrumenting: a driver
 * without them (older than 8.0.13, or a future one that moved them) leaves the agent inactive with
 * one warning line and the driver untouched.
 */
final class Instrumenter {
  static final String NATIVE_PROTOCOL = "com.mysql.cj.protocol.a.NativeProtocol";
  private static final AtomicBoolean WARNED = new AtomicBoolean();
  /** Set when a NativeProtocol with the expected hooks was seen (activation waits for success). */
  private static volatile boolean matched;

  private static final ElementMatcher.Junction<MethodDescription> SEND_COMMAND =
      named("sendCommand")
          .and(takesArguments(3))
          .and(takesArgument(0, named("com.mysql.cj.protocol.Message")))
          .and(takesArgument(1, boolean.class))
          .and(takesArgument(2, int.class))
          .and(returns(named("com.mysql.cj.protocol.a.NativePacketPayload")));
  private static final ElementMatcher.Junction<MethodDescription> QUIT =
      named("quit").and(takesArguments(0));
  /** Called by sendCommand when queryInterceptors are set; a non-null answer is not sent. */
  private static final ElementMatcher.Junction<MethodDescription> INTERCEPTORS_PRE =
      named("invokeQueryInterceptorsPre")
          .and(takesArguments(2))
          .and(takesArgument(0, named("com.mysql.cj.protocol.Message")))
          .and(takesArgument(1, boolean.class));

  private Instrumenter() {}

  static void install(Instrumentation inst) {
    new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
        .with(AgentBuilder.TypeStrategy.Default.REDEFINE)
        .with(new Listener())
        .ignore(not(nameStartsWith("com.mysql.").or(nameStartsWith("com.zaxxer.hikari."))))
        .type(named(NATIVE_PROTOCOL))
        .transform(Instrumenter::protocol)
        .type(named("com.mysql.cj.jdbc.ConnectionImpl"))
        .transform(Instrumenter::connection)
        .type(named("com.mysql.cj.NativeSession"))
        .transform(
            (b, t, l, m, pd) ->
                b.visit(driverCause(Causes.LOAD_SERVER_VARIABLES).on(named("loadServerVariables"))))
        .type(named("com.mysql.cj.jdbc.StatementImpl"))
        .transform(
            (b, t, l, m, pd) ->
                b.visit(
                    Advice.to(StatementBatchAdvice.class)
                        .on(named("executeBatchInternal").and(takesArguments(0)))))
        .type(named("com.mysql.cj.jdbc.ClientPreparedStatement"))
        .transform(
            (b, t, l, m, pd) ->
                b.visit(
                        Advice.to(PreparedBatchAdvice.class)
                            .on(named("executeBatchInternal").and(takesArguments(0))))
                    .visit(
                        Advice.to(ClientPreparedExecuteAdvice.class)
                            .on(named("executeInternal").and(takesArguments(6)))))
        .type(namedOneOf("com.mysql.cj.protocol.a.TextResultsetReader",
            "com.mysql.cj.protocol.a.BinaryResultsetReader"))
        .transform(
            (b, t, l, m, pd) ->
                b.visit(
                    Advice.to(ResultsetReadAdvice.class)
                        .on(named("read").and(takesArguments(5)).and(not(isBridge()))
                            .and(returns(named("com.mysql.cj.protocol.Resultset"))))))
        .type(named("com.zaxxer.hikari.pool.PoolBase"))
        .transform(
            (b, t, l, m, pd) ->
                b.visit(
                        poolCause(Causes.HIKARI_VALIDATION)
                            .on(namedOneOf("isConnectionDead", "isConnectionAlive")))
                    .visit(poolCause(Causes.HIKARI_RESET).on(named("resetConnectionState")))
                    .visit(poolCause(Causes.HIKARI_SETUP).on(named("setupConnection"))))
        .type(named("com.mysql.jdbc.MysqlIO"))
        .transform(
            (b, t, l, m, pd) -> {
              warnOnce(
                  "MySQL Connector/J 5.x (com.mysql.jdbc) is not supported (8.0.13+ is); the agent"
                      + " is disabled, the application is unaffected");
              return b;
            })
        .installOn(inst);
  }

  private static DynamicType.Builder<?> protocol(
      DynamicType.Builder<?> b,
      TypeDescription type,
      ClassLoader loader,
      JavaModule module,
      java.security.ProtectionDomain pd) {
    boolean matches =
        type.getDeclaredMethods().filter(SEND_COMMAND).size() == 1
            && type.getDeclaredMethods().filter(QUIT).size() == 1;
    if (!matches) {
      warnOnce(
          "MySQL Connector/J "
              + String.valueOf(Hooks.driverVersion(loader))
              + " has no NativeProtocol.sendCommand(Message, boolean, int) and quit(); the agent is"
              + " disabled, the application is unaffected");
      return b;
    }
    matched = true;
    FieldList<FieldDescription.InDefinedShape> interceptors =
        type.getDeclaredFields().filter(named("queryInterceptors").and(fieldType(java.util.List.class)));
    boolean interceptable =
        interceptors.size() == 1 && type.getDeclaredMethods().filter(INTERCEPTORS_PRE).size() == 1;
    Advice.WithCustomMapping sendCommand = Advice.withCustomMapping();
    // Connector/J 8.0.13 to 9.x have both; should a driver lack them, commands are counted as
    // before (a short-circuited one included) rather than not at all.
    sendCommand =
        interceptable
            ? sendCommand.bind(QueryInterceptors.class, interceptors.getOnly())
            : sendCommand.bind(
                new Advice.OffsetMapping.ForStackManipulation.OfDefaultValue<>(QueryInterceptors.class));
    b = b.visit(sendCommand.to(SendCommandAdvice.class).on(SEND_COMMAND))
        .visit(Advice.to(QuitAdvice.class).on(QUIT))
        .visit(Advice.to(ForcedCloseAdvice.class).on(named("releaseResources").and(takesArguments(0))));
    return interceptable ? b.visit(Advice.to(InterceptorsPreAdvice.class).on(INTERCEPTORS_PRE)) : b;
  }

  private static DynamicType.Builder<?> connection(
      DynamicType.Builder<?> b,
      TypeDescription type,
      ClassLoader loader,
      JavaModule module,
      java.security.ProtectionDomain pd) {
    return b.visit(
            Advice.to(ConnectedAdvice.class)
                .on(isConstructor().and(takesArguments(1))
                    .and(takesArgument(0, named("com.mysql.cj.conf.HostInfo")))))
        .visit(driverCause(Causes.GET_TRANSACTION_ISOLATION).on(named("getTransactionIsolation").and(takesArguments(0))))
        .visit(driverCause(Causes.IS_READ_ONLY).on(named("isReadOnly")))
        .visit(driverCause(Causes.SET_AUTO_COMMIT).on(named("setAutoCommit")))
        .visit(driverCause(Causes.SET_TRANSACTION_ISOLATION).on(named("setTransactionIsolation")))
        .visit(
            Advice.to(IsolationSetAdvice.class)
                .on(named("setTransactionIsolation").and(takesArguments(int.class))))
        .visit(driverCause(Causes.SET_READ_ONLY).on(namedOneOf("setReadOnly", "setReadOnlyInternal")))
        .visit(driverCause(Causes.CONNECT).on(named("createNewIO")));
  }

  private static Advice driverCause(int cause) {
    return Advice.withCustomMapping().bind(CauseId.class, cause).to(DriverCauseAdvice.class);
  }

  private static Advice poolCause(int cause) {
    return Advice.withCustomMapping().bind(CauseId.class, cause).to(PoolCauseAdvice.class);
  }

  static void warnOnce(String message) {
    if (WARNED.compareAndSet(false, true)) {
      AgentLog.warn(message);
    }
  }

  /** Activates the hooks once NativeProtocol is instrumented; reports failures in one line. */
  private static final class Listener extends AgentBuilder.Listener.Adapter {
    @Override
    public void onTransformation(
        TypeDescription type,
        ClassLoader loader,
        JavaModule module,
        boolean loaded,
        DynamicType dynamicType) {
      if (type.getName().equals(NATIVE_PROTOCOL) && matched) {
        Hooks.activate();
      }
    }

    @Override
    public void onError(
        String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
      if (typeName.equals(NATIVE_PROTOCOL)) {
        warnOnce(
            "could not instrument " + typeName + " (" + error + "); the agent is disabled, the"
                + " application is unaffected");
      }
    }
  }
}
