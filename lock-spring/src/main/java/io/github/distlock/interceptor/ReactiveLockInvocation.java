package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;

import org.springframework.core.ReactiveAdapter;

/**
 * {@link io.github.distlock.DistributedLock @DistributedLock} on a method returning a
 * reactive type or a {@code CompletionStage} (anything Spring's
 * {@code ReactiveAdapterRegistry} adapts): the method's work runs under the lock of the
 * {@link ReactiveLockService}, taken without blocking a thread on subscription (for a
 * future, at the call, which subscribes at once) and released when the work completes,
 * fails or is cancelled. The method itself is invoked only once the lock is held, so that
 * a method that starts its work when called (as one returning a future does) starts it
 * under the lock.
 * <p>
 * A lock not acquired in time fails the result with {@link LockNotAcquiredException}
 * ({@code THROW}), or completes it empty ({@code SKIP}: an empty {@code Mono} or
 * {@code Flux}, a future completed with {@code null}). Several lock ids (a collection
 * key) are acquired one inside the other in the order of {@link MultiLockHandle}, all
 * within the one wait time. The reactive equivalent of
 * {@link io.github.distlock.LockContext} is
 * {@link io.github.distlock.ReactiveLockContext}. Loaded only when such a method is
 * called, so only with Reactor present.
 */
final class ReactiveLockInvocation {

	private static final Log logger = LogFactory.getLog(ReactiveLockInvocation.class);

	private final Supplier<ReactiveLockService> service;

	ReactiveLockInvocation(Supplier<ReactiveLockService> service) {
		this.service = service;
	}

	/**
	 * The method's result, locked.
	 * @param operation the method's lock
	 * @param lockIds its lock ids
	 * @param waitTime the wait time
	 * @param adapter the adapter of the method's return type
	 * @param invoker invokes the method
	 * @return the locked result, of the method's return type
	 */
	Object execute(LockOperation operation, List<String> lockIds, Duration waitTime, ReactiveAdapter adapter,
			LockAspectSupport.Invoker invoker) {
		ReactiveLockService service = this.service.get();
		List<String> ordered = MultiLockHandle.inLockOrder(lockIds);
		Flux<Object> locked = Flux.defer(
				() -> nested(service, operation, ordered, 0, System.nanoTime() + waitTime.toNanos(), adapter, invoker));
		if (operation.onFailure() == OnLockFailure.SKIP) {
			locked = locked.onErrorResume(LockNotAcquiredException.class, (ex) -> skipped(operation, lockIds, ex));
		}
		return adapter.fromPublisher(adapter.isMultiValue() ? locked : locked.singleOrEmpty());
	}

	/** Holds {@code lockIds[index]}, then the ones after it, then runs the method. */
	private Flux<Object> nested(ReactiveLockService service, LockOperation operation, List<String> lockIds, int index,
			long deadlineNanos, ReactiveAdapter adapter, LockAspectSupport.Invoker invoker) {
		if (index == lockIds.size()) {
			return Flux.defer(() -> Flux.from(adapter.toPublisher(invoked(operation, invoker))));
		}
		Duration left = Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
		return service.executeLocked(lockIds.get(index), left, operation.leaseTime(), operation.minHoldTime(),
				Flux.defer(() -> nested(service, operation, lockIds, index + 1, deadlineNanos, adapter, invoker)));
	}

	private static Object invoked(LockOperation operation, LockAspectSupport.Invoker invoker) {
		Object result;
		try {
			result = invoker.proceed();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(operation.describeMethod() + " threw a checked exception", ex);
		}
		if (result == null) {
			throw new IllegalStateException(operation.describeMethod() + " returned null instead of a "
					+ operation.method().getReturnType().getSimpleName());
		}
		return result;
	}

	/** Only the failure of this invocation's own acquisition is skipped. */
	private static Flux<Object> skipped(LockOperation operation, List<String> lockIds, LockNotAcquiredException ex) {
		String lockId = ex.getLockId();
		if (!lockIds.contains(lockId)) {
			return Flux.error(ex);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + operation.describeMethod() + ": lock '" + LogSafe.text(lockId)
					+ "' is held elsewhere");
		}
		return Flux.empty();
	}

}
