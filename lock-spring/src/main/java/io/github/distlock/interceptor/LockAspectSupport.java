package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.observation.NamedLockService;
import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

/**
 * The logic of {@link io.github.distlock.DistributedLock @DistributedLock}: build the
 * lock id, acquire, run, release. Free of AOP types so that other invocation styles can
 * reuse it.
 * <p>
 * Collaborators are resolved on first use: the advisor is created early, before the Redis
 * connection and other ordinary beans should be.
 */
public abstract class LockAspectSupport {

	private static final Log logger = LogFactory.getLog(LockAspectSupport.class);

	private final LockOperationSource source;

	private final LockKeyEvaluator keyEvaluator;

	private final Supplier<LockService> lockService;

	private final Supplier<Duration> defaultWaitTime;

	private static final Object NOT_REACTIVE = new Object();

	private final Map<Method, Object> reactiveAdapters = new ConcurrentHashMap<>();

	private volatile @Nullable Supplier<ReactiveLockService> reactiveLockService;

	private volatile @Nullable ReactiveLockInvocation reactiveInvocation;

	protected LockAspectSupport(LockOperationSource source, LockKeyEvaluator keyEvaluator,
			Supplier<LockService> lockService, Supplier<Duration> defaultWaitTime) {
		this.source = source;
		this.keyEvaluator = keyEvaluator;
		this.lockService = Resolved.of(lockService);
		this.defaultWaitTime = Resolved.of(defaultWaitTime);
	}

	/**
	 * Runs {@code invoker} under the lock of {@code method}, if it has one.
	 * @param invoker proceeds with the invocation
	 * @param method the invoked method
	 * @param targetClass the target class, or {@code null}
	 * @param arguments the arguments
	 * @return the method's result, or the skip value of a skipped invocation
	 * @throws Throwable what the method threw, {@link LockNotAcquiredException} or
	 * {@link io.github.distlock.LockLostException}
	 */
	protected @Nullable Object execute(Invoker invoker, Method method, @Nullable Class<?> targetClass,
			@Nullable Object[] arguments) throws Throwable {
		LockOperation operation = this.source.getLockOperation(method, targetClass);
		if (operation == null) {
			return invoker.proceed();
		}
		List<String> lockIds = lockIds(operation, arguments);
		String lockId = (lockIds.size() == 1) ? lockIds.get(0) : String.join(",", lockIds);
		Duration waitTime = (operation.waitTime() != null) ? operation.waitTime() : this.defaultWaitTime.get();
		ReactiveAdapter adapter = reactiveAdapter(operation.method());
		if (adapter != null) {
			return reactiveInvocation().execute(operation, lockIds, waitTime, adapter, invoker);
		}
		Optional<LockHandle> acquired = (lockIds.size() == 1) ? tryLock(operation, lockId, waitTime)
				: MultiLockHandle.acquire(lockIds, waitTime, (id, left) -> tryLock(operation, id, left));
		if (acquired.isEmpty()) {
			return notAcquired(operation, lockId, waitTime);
		}
		LockHandle handle = acquired.get();
		Throwable failure = null;
		LockContext.push(handle);
		try {
			return invoker.proceed();
		}
		catch (Throwable ex) {
			failure = ex;
			throw ex;
		}
		finally {
			LockContext.pop();
			release(handle, operation, failure);
		}
	}

	/**
	 * Sets where the locks of methods returning a reactive type or a
	 * {@code CompletionStage} come from (resolved on their first call).
	 * @param reactiveLockService the reactive lock service
	 */
	public void setReactiveLockService(Supplier<ReactiveLockService> reactiveLockService) {
		this.reactiveLockService = reactiveLockService;
	}

	/**
	 * The adapter of a method's reactive or {@code CompletionStage} return type, or
	 * {@code null} for a method whose work ends with the call (the startup check admits
	 * no other).
	 */
	private @Nullable ReactiveAdapter reactiveAdapter(Method method) {
		Object adapter = this.reactiveAdapters.computeIfAbsent(method, (key) -> {
			ReactiveAdapter found = ReactiveAdapterRegistry.getSharedInstance().getAdapter(key.getReturnType());
			return (found != null) ? found : NOT_REACTIVE;
		});
		return (adapter != NOT_REACTIVE) ? (ReactiveAdapter) adapter : null;
	}

	private ReactiveLockInvocation reactiveInvocation() {
		ReactiveLockInvocation invocation = this.reactiveInvocation;
		if (invocation == null) {
			Supplier<ReactiveLockService> service = this.reactiveLockService;
			invocation = new ReactiveLockInvocation(Resolved.of(() -> {
				ReactiveLockService found = (service != null) ? service.get() : null;
				if (found == null) {
					throw new IllegalStateException("A @DistributedLock method returning a reactive type or a"
							+ " CompletionStage needs a ReactiveLockService bean (auto-configured with Reactor on"
							+ " the class path), but there is none");
				}
				return found;
			}));
			this.reactiveInvocation = invocation;
		}
		return invocation;
	}

	/**
	 * Tells an observing lock service the annotation's name, so that metrics are tagged
	 * with it.
	 */
	private Optional<LockHandle> tryLock(LockOperation operation, String lockId, Duration waitTime) {
		LockService service = operation.viewOf(this.lockService.get());
		if (service instanceof NamedLockService named) {
			return named.tryLock(operation.name(), lockId, waitTime, operation.leaseTime(), operation.onFailure());
		}
		return service.tryLock(lockId, waitTime, operation.leaseTime());
	}

	/**
	 * The id, or one id per key when the key is a collection (a multi-key lock, acquired
	 * all or none in the global order of {@link MultiLockHandle}).
	 */
	private List<String> lockIds(LockOperation operation, @Nullable Object[] arguments) {
		if (operation.key() == null) {
			return List.of(operation.name());
		}
		return this.keyEvaluator.evaluate(operation, arguments)
			.stream()
			.map((key) -> operation.name() + ":" + key)
			.toList();
	}

	private static @Nullable Object notAcquired(LockOperation operation, String lockId, Duration waitTime) {
		if (operation.onFailure() == OnLockFailure.THROW) {
			throw new LockNotAcquiredException(lockId, "Lock '" + LogSafe.text(lockId) + "' of "
					+ operation.describeMethod() + " was not acquired within " + DurationText.of(waitTime));
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + operation.describeMethod() + ": lock '" + LogSafe.text(lockId)
					+ "' is held elsewhere");
		}
		return operation.skipValue();
	}

	/**
	 * Releases after the method (and any transaction inside the lock) finished. A lock
	 * lost while the method ran is reported: as the exception when the method succeeded,
	 * as a suppressed one when it failed.
	 */
	private static void release(LockHandle handle, LockOperation operation, @Nullable Throwable failure) {
		try {
			handle.close(operation.minHoldTime());
		}
		catch (RuntimeException releaseFailure) {
			if (failure == null) {
				throw releaseFailure;
			}
			failure.addSuppressed(releaseFailure);
		}
	}

	/**
	 * Proceeds with the intercepted invocation.
	 */
	@FunctionalInterface
	protected interface Invoker {

		@Nullable Object proceed() throws Throwable;

	}

}
