package io.github.distlock.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Import;

/**
 * Chooses how {@link DistributedLock @DistributedLock} methods are intercepted, as
 * {@code @EnableCaching} does for caches. With Spring Boot the locks work without it, in
 * {@link AdviceMode#PROXY PROXY} mode; put it on a {@code @Configuration} class to choose
 * {@link AdviceMode#ASPECTJ ASPECTJ} mode:
 *
 * <pre class="code">
 * &#064;Configuration
 * &#064;EnableDistributedLock(mode = AdviceMode.ASPECTJ)
 * class LockConfiguration {
 * }
 * </pre>
 *
 * <ul>
 * <li>{@code PROXY} (the default): an advisor locks calls that go through the bean's
 * proxy. A call from inside the bean ({@code this.lockedMethod()}) runs without the lock,
 * and only methods a proxy can override can be locked: not {@code private},
 * {@code static} or {@code final}.</li>
 * <li>{@code ASPECTJ}: the {@code DistributedLockAspect} of
 * {@code io.github.distlock:lock-spring-aspects}, woven into your classes at compile time
 * or at load time, locks every execution of the method, including calls through
 * {@code this}, and {@code private}, {@code static} and {@code final} methods; the
 * annotation must be on the method that runs (AspectJ does not inherit method annotations
 * from interfaces or overridden methods). No advisor is registered, so no method is
 * locked twice. The application context fails at startup if a bean's locked method was
 * not woven.</li>
 * </ul>
 * Either way every annotation is validated when its bean is created, and
 * {@code distributed-lock.enabled=false} leaves annotated methods running without a lock.
 *
 * @see DistributedLock
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(DistributedLockConfigurationSelector.class)
public @interface EnableDistributedLock {

	/**
	 * How calls to {@link DistributedLock @DistributedLock} methods are intercepted:
	 * through proxies ({@link AdviceMode#PROXY}, the default) or by the AspectJ aspect
	 * woven into the classes ({@link AdviceMode#ASPECTJ}, needs
	 * {@code lock-spring-aspects}).
	 */
	AdviceMode mode() default AdviceMode.PROXY;

}
