package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.springframework.aop.support.StaticMethodMatcherPointcut;

/**
 * Matches methods that have a {@link LockOperation}; the class filter lets the source
 * validate every annotated method of a bean class when the bean is created.
 */
final class LockOperationSourcePointcut extends StaticMethodMatcherPointcut {

	private final LockOperationSource source;

	LockOperationSourcePointcut(LockOperationSource source) {
		this.source = source;
		setClassFilter(source::isCandidateClass);
	}

	@Override
	public boolean matches(Method method, Class<?> targetClass) {
		return this.source.getLockOperation(method, targetClass) != null;
	}

}
