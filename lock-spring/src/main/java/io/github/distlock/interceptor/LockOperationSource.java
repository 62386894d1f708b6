package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Finds the {@link LockOperation} of a method, like Spring's
 * {@code CacheOperationSource}.
 */
public interface LockOperationSource {

	/**
	 * Whether {@code targetClass} may have lock operations; validates all of them on
	 * first sight, so that a bad annotation fails when the bean is created.
	 * @param targetClass the bean class
	 * @return {@code false} if no method of the class can be locked
	 */
	boolean isCandidateClass(Class<?> targetClass);

	/**
	 * The lock operation of {@code method} when invoked on {@code targetClass}.
	 * @param method the invoked method (perhaps an interface method)
	 * @param targetClass the target class, or {@code null}
	 * @return the operation, or {@code null} if the method is not locked
	 */
	@Nullable LockOperation getLockOperation(Method method, @Nullable Class<?> targetClass);

}
