package io.wireadvisor.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class the JVM's shared {@link DatabaseServer} (see {@link
 * ServerLocator#shared()}) as a parameter of its constructor, lifecycle
 * methods and test methods.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(DatabaseExtension.class)
public @interface RealDatabase {}
