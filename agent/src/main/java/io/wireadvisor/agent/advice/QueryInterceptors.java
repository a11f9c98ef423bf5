package io.wireadvisor.agent.advice;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bound to {@code NativeProtocol.queryInterceptors} (the configured interceptors, null when there
 * are none) where the driver has that field and {@code invokeQueryInterceptorsPre(Message,
 * boolean)}; otherwise to null (custom advice mapping).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface QueryInterceptors {}
