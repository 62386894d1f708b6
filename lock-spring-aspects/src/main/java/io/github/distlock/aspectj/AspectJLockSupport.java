package io.github.distlock.aspectj;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.function.Supplier;

import io.github.distlock.LockService;
import io.github.distlock.interceptor.LockAspectSupport;
import io.github.distlock.interceptor.LockKeyEvaluator;
import io.github.distlock.interceptor.LockOperationSource;
import org.jspecify.annotations.Nullable;

/**
 * The {@link LockAspectSupport} of one application context, through which
 * {@link DistributedLockAspect} locks the woven methods while that context is bound to
 * it.
 */
final class AspectJLockSupport extends LockAspectSupport {

	private final String contextName;

	private final boolean enabled;

	private volatile boolean unbound;

	AspectJLockSupport(String contextName, boolean enabled, LockOperationSource source, LockKeyEvaluator keyEvaluator,
			Supplier<LockService> lockService, Supplier<Duration> defaultWaitTime) {
		super(source, keyEvaluator, lockService, defaultWaitTime);
		this.contextName = contextName;
		this.enabled = enabled;
	}

	/**
	 * Runs a woven method's execution under its lock, or without one when
	 * {@code distributed-lock.enabled} is false.
	 */
	@Nullable Object invoke(JoinPointInvoker invoker, Method method, Class<?> targetClass, @Nullable Object[] arguments)
			throws Throwable {
		if (!this.enabled) {
			return invoker.proceed();
		}
		return execute(invoker::proceed, method, targetClass, arguments);
	}

	/**
	 * Its context closed: the woven methods of the context's beans are no longer run.
	 */
	void unbound() {
		this.unbound = true;
	}

	boolean isUnbound() {
		return this.unbound;
	}

	@Override
	public String toString() {
		return "AspectJLockSupport of " + this.contextName + (this.enabled ? "" : " (distributed locks disabled)");
	}

	/**
	 * Proceeds with the woven method's execution.
	 */
	@FunctionalInterface
	interface JoinPointInvoker {

		@Nullable Object proceed() throws Throwable;

	}

}
