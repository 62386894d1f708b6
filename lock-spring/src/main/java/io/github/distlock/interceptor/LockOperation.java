package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;

import io.github.distlock.LockMode;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * A parsed and validated {@link io.github.distlock.DistributedLock @DistributedLock}:
 * everything an invocation needs, computed once at startup.
 *
 * @param method the annotated method, for messages
 * @param name the resolved lock name
 * @param key the parsed key expression, or {@code null} for one lock per name
 * @param parameterNames names of the method's parameters visible to the key expression
 * @param waitTime the wait time, or {@code null} for {@code distributed-lock.wait-time}
 * @param leaseTime a fixed lease, or {@code null} for an auto-renewed one
 * @param minHoldTime how long the lock is held at least
 * @param onFailure what happens when the lock is not acquired
 * @param skipValue what a skipped invocation returns
 * @param fair whether the lock is acquired first come, first served across all instances
 * @param mode READ for a shared hold, WRITE for an exclusive one
 * @param permits more than 1 for a permit of a semaphore of that many
 */
public record LockOperation(Method method, String name, @Nullable Expression key, String[] parameterNames,
		@Nullable Duration waitTime, @Nullable Duration leaseTime, Duration minHoldTime, OnLockFailure onFailure,
		@Nullable Object skipValue, boolean fair, LockMode mode, int permits) {

	/**
	 * An exclusive operation ({@code mode} WRITE, 1 permit).
	 */
	public LockOperation(Method method, String name, @Nullable Expression key, String[] parameterNames,
			@Nullable Duration waitTime, @Nullable Duration leaseTime, Duration minHoldTime, OnLockFailure onFailure,
			@Nullable Object skipValue, boolean fair) {
		this(method, name, key, parameterNames, waitTime, leaseTime, minHoldTime, onFailure, skipValue, fair,
				LockMode.WRITE, 1);
	}

	/**
	 * The view of {@code service} this operation acquires through: fair, READ, a
	 * semaphore's, or the service itself.
	 * @param service the lock service
	 * @return the view
	 */
	public LockService viewOf(LockService service) {
		if (this.fair) {
			return service.fair();
		}
		if (this.mode == LockMode.READ) {
			return service.read();
		}
		return (this.permits > 1) ? service.permits(this.permits) : service;
	}

	/**
	 * The method as {@code Class.method(ParamTypes)}, for messages.
	 * @return the description
	 */
	public String describeMethod() {
		return describe(this.method);
	}

	static String describe(Method method) {
		StringBuilder text = new StringBuilder(method.getDeclaringClass().getName()).append('.')
			.append(method.getName())
			.append('(');
		Class<?>[] types = method.getParameterTypes();
		for (int i = 0; i < types.length; i++) {
			text.append((i > 0) ? ", " : "").append(types[i].getSimpleName());
		}
		return text.append(')').toString();
	}

}
