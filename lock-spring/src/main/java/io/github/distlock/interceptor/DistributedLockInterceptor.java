package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.function.Supplier;

import io.github.distlock.LockService;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;

/**
 * Adapts a {@link MethodInvocation} to {@link LockAspectSupport}, where the logic lives.
 */
public class DistributedLockInterceptor extends LockAspectSupport implements MethodInterceptor {

	public DistributedLockInterceptor(LockOperationSource source, LockKeyEvaluator keyEvaluator,
			Supplier<LockService> lockService, Supplier<Duration> defaultWaitTime) {
		super(source, keyEvaluator, lockService, defaultWaitTime);
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopProxyUtils.ultimateTargetClass(target) : null;
		return execute(invocation::proceed, invocation.getMethod(), targetClass, invocation.getArguments());
	}

}
